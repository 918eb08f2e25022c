/**
 * The app window without Electron: a fake BrowserWindow records the options it is built with, so the
 * hardening and the icon (which Linux takes only from the window) are checked here.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

interface FakeWindowOptions {
  icon?: string
  webPreferences?: Record<string, unknown>
}

const created: FakeWindowOptions[] = []

class FakeBrowserWindow {
  webContents = { on: vi.fn(), setWindowOpenHandler: vi.fn() }
  once = vi.fn()
  loadURL = vi.fn(async () => undefined)
  constructor(options: FakeWindowOptions) {
    created.push(options)
  }
}

async function loadWindowModule(isPackaged: boolean) {
  vi.doMock('electron', () => ({ app: { isPackaged }, BrowserWindow: FakeBrowserWindow }))
  return import('../../../src-main/electron/window')
}

beforeEach(() => {
  created.length = 0
  vi.resetModules()
})

afterEach(() => {
  vi.doUnmock('electron')
})

describe('app window', () => {
  it('is created with the app icon, a PNG that exists on disk', async () => {
    const { createWindow } = await loadWindowModule(false)
    createWindow()
    expect(created).toHaveLength(1)
    const icon = created[0]!.icon
    expect(icon).toBeTypeOf('string')
    expect(existsSync(icon!)).toBe(true)
    expect(readFileSync(icon!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  })

  it('keeps the renderer sandboxed and isolated', async () => {
    const { createWindow } = await loadWindowModule(false)
    createWindow()
    expect(created[0]!.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    })
  })

  it('takes the icon from the resources folder beside app.asar once packaged', async () => {
    // Electron sets process.resourcesPath; plain Node has none.
    Object.defineProperty(process, 'resourcesPath', { value: '/opt/pos-agent/resources', configurable: true })
    try {
      const { windowIconPath } = await loadWindowModule(true)
      expect(windowIconPath()).toBe(join('/opt/pos-agent/resources', 'icon.png'))
    } finally {
      Reflect.deleteProperty(process, 'resourcesPath')
    }
  })

  it('takes the icon from the repository in development', async () => {
    const { windowIconPath } = await loadWindowModule(false)
    expect(windowIconPath()).toBe(join(import.meta.dirname, '../../../resources/icon.png'))
  })
})
