/**
 * The app window without Electron: a fake BrowserWindow records the options it is built with, so the
 * hardening and the icon (which Linux takes only from the window) are checked here.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

interface FakeWindowOptions {
  icon?: string
  fullscreen?: boolean
  x?: number
  y?: number
  width?: number
  height?: number
  webPreferences?: Record<string, unknown>
}

const created: FakeWindowOptions[] = []
const loaded: string[] = []

class FakeBrowserWindow {
  webContents = { on: vi.fn(), setWindowOpenHandler: vi.fn() }
  once = vi.fn()
  loadURL = vi.fn(async (url: string) => {
    loaded.push(url)
  })
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
  loaded.length = 0
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

  it('opens the cashier page, windowed, for the cashier', async () => {
    const { createWindow } = await loadWindowModule(false)
    createWindow()
    expect(loaded).toEqual(['pos-agent://app/index.html'])
    expect(created[0]!.fullscreen).toBeUndefined()
  })

  it('opens the customer display full screen over the bounds of the display it is given', async () => {
    const { createWindow } = await loadWindowModule(false)
    createWindow({ view: 'customer', bounds: { x: 1280, y: 0, width: 800, height: 480 } })
    expect(loaded).toEqual(['pos-agent://app/index.html?view=customer'])
    expect(created[0]).toMatchObject({ fullscreen: true, x: 1280, y: 0, width: 800, height: 480 })
    // The same hardening as the cashier's window.
    expect(created[0]!.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false })
  })
})

describe('window places', () => {
  const primary = { id: 1, bounds: { x: 0, y: 0, width: 1280, height: 800 } }
  const second = { id: 7, bounds: { x: 1280, y: 0, width: 800, height: 480 } }

  it('puts only the cashier window on a terminal with one display', async () => {
    const { windowPlaces } = await loadWindowModule(false)
    expect(windowPlaces([primary], 1)).toEqual([{ view: 'cashier' }])
  })

  it('puts the customer display on the display that is not the primary one, whatever the order', async () => {
    const { windowPlaces } = await loadWindowModule(false)
    expect(windowPlaces([second, primary], 1)).toEqual([{ view: 'cashier' }, { view: 'customer', bounds: second.bounds }])
    expect(windowPlaces([primary, second], 1)).toEqual([{ view: 'cashier' }, { view: 'customer', bounds: second.bounds }])
  })
})
