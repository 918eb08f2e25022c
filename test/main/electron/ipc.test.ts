/**
 * The IPC glue without Electron: handlers are registered on a fake ipcMain and invoked with fake
 * sender frames (the idea of IPCMainMock in electron/fiddle, tests/mocks/electron.ts).
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { IPC_CALL, registerIpc, type InvokeEvent, type WindowCaller } from '../../../src-main/electron/ipc'
import type { PosEvent } from '../../../src-shared/contract'

function fakeIpcMain() {
  const handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>>()
  return {
    handlers,
    handle: (channel: string, fn: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>) => handlers.set(channel, fn),
    removeHandler: (channel: string) => handlers.delete(channel),
  }
}

class FakeDispatcher extends EventEmitter<{ event: [PosEvent] }> {
  calls: Array<[string, unknown]> = []
  callers: WindowCaller[] = []
  async dispatch(caller: WindowCaller, operation: string, request: unknown) {
    this.callers.push(caller)
    this.calls.push([operation, request])
    return { ok: true as const, value: 'done' }
  }
}

const frame = (url: string, parent: unknown = null): InvokeEvent => ({ senderFrame: { url, parent } })

describe('IPC registration', () => {
  it('passes calls from the app window to the dispatcher', async () => {
    const ipc = fakeIpcMain()
    const dispatcher = new FakeDispatcher()
    registerIpc(ipc, dispatcher, () => undefined)
    await expect(ipc.handlers.get(IPC_CALL)!(frame('pos-agent://app/index.html'), 'startSale', { amountMinor: 100 })).resolves.toEqual({
      ok: true,
      value: 'done',
    })
    expect(dispatcher.calls).toEqual([['startSale', { amountMinor: 100 }]])
  })

  it.each([
    ['another scheme', frame('https://evil.example/')],
    ['a look-alike', frame('pos-agent://app.evil/')],
    ['file://', frame('file:///tmp/index.html')],
    ['a sub-frame', frame('pos-agent://app/index.html', {})],
    ['no frame', { senderFrame: null }],
  ])('refuses a call from %s', async (_name, event) => {
    const ipc = fakeIpcMain()
    const dispatcher = new FakeDispatcher()
    registerIpc(ipc, dispatcher, () => undefined)
    await expect(ipc.handlers.get(IPC_CALL)!(event, 'startSale', {})).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    expect(dispatcher.calls).toEqual([])
  })

  it('tells the service which window calls: the customer display by its webContents, whatever its page says', async () => {
    const ipc = fakeIpcMain()
    const dispatcher = new FakeDispatcher()
    registerIpc(ipc, dispatcher, () => undefined, { isDisplayWindow: (event) => event.sender?.id === 2 })
    const call = ipc.handlers.get(IPC_CALL)!
    await call({ ...frame('pos-agent://app/index.html?view=customer'), sender: { id: 2 } }, 'listSales', {})
    // The page cannot talk its way out: the cashier's URL from the display's webContents is still the display.
    await call({ ...frame('pos-agent://app/index.html'), sender: { id: 2 } }, 'startSale', {})
    await call({ ...frame('pos-agent://app/index.html'), sender: { id: 1 } }, 'startSale', {})
    expect(dispatcher.callers).toEqual([
      { door: 'display', session: 'electron-display-2' },
      { door: 'display', session: 'electron-display-2' },
      { door: 'counter', session: 'electron-window-1' },
    ])
  })

  it('forwards events to the window and stops on unregister', () => {
    const ipc = fakeIpcMain()
    const dispatcher = new FakeDispatcher()
    const send = vi.fn()
    const off = registerIpc(ipc, dispatcher, send)
    const event: PosEvent = { type: 'alarm', alarm: { code: 'X', message: 'y' } }
    dispatcher.emit('event', event)
    off()
    dispatcher.emit('event', event)
    expect(send).toHaveBeenCalledTimes(1)
    expect(ipc.handlers.has(IPC_CALL)).toBe(false)
  })
})

describe('preload', () => {
  it('exposes exactly the PosBridge (call, subscribe) as window.pos over the two channels', async () => {
    const exposed: Record<string, unknown> = {}
    const ipcRenderer = { invoke: vi.fn(async () => ({ ok: true, value: 1 })), on: vi.fn(), removeListener: vi.fn() }
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
      ipcRenderer,
    }))
    await import('../../../src-main/preload/index')
    const pos = exposed.pos as { call: (o: string, r: unknown) => Promise<unknown>; subscribe: (l: (e: unknown) => void) => () => void }
    expect(Object.keys(pos).sort()).toEqual(['call', 'subscribe'])
    await pos.call('appInfo', {})
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('pos:call', 'appInfo', {})
    const unsubscribe = pos.subscribe(() => undefined)
    expect(ipcRenderer.on).toHaveBeenCalledWith('pos:event', expect.any(Function))
    unsubscribe()
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith('pos:event', expect.any(Function))
    vi.doUnmock('electron')
  })
})
