/**
 * IPC between the app's windows and the agent. Two channels only: `pos:call` (one contract operation,
 * handed to the application layer as this window's Caller) and `pos:event` (live updates pushed to the
 * windows). Every call checks that it comes from the app's own top-level frame; anything else is
 * refused. Which window is the customer display, main.ts knows by its webContents, not by what the
 * page says of itself; what a display may do is the service's rule (access.ts), not this file's.
 * Takes the ipcMain object as a parameter, so it is tested without Electron.
 */
import { ELECTRON_APP_ORIGIN, IPC_CALL, IPC_EVENT, type PosEvent, type PosResult } from '../../src-shared/contract'
import { errorView, failed } from '../../src-shared/errors'
import { toPosError } from '../errors'

export { IPC_CALL, IPC_EVENT }

/** The parts of Electron's IpcMainInvokeEvent this module reads. */
export interface InvokeEvent {
  senderFrame: { url: string; parent: unknown } | null
  /** The webContents that sent the call: its id tells the customer display's window from the cashier's. */
  sender?: { id: number }
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void
  removeHandler(channel: string): void
}

/** Who an app window is to the service: the cashier's window, or the customer display (one session each). */
export type WindowCaller = { door: 'counter'; session: string } | { door: 'display'; session: string }

export interface Dispatcher {
  dispatch(caller: WindowCaller, operation: string, request: unknown): Promise<PosResult<unknown>>
  on(event: 'event', listener: (event: PosEvent) => void): unknown
  off(event: 'event', listener: (event: PosEvent) => void): unknown
}

/** The app's pages are served from this origin by the custom protocol (main.ts). */
export const APP_ORIGIN = ELECTRON_APP_ORIGIN

export function isTrustedSender(event: InvokeEvent): boolean {
  const frame = event.senderFrame
  // Node's URL gives every non-special scheme the origin "null", so compare the prefix itself.
  return frame !== null && frame.parent === null && frame.url.startsWith(`${APP_ORIGIN}/`)
}

export interface IpcOptions {
  /** True for a call from a window that shows the customer display: it may only read. */
  isDisplayWindow?: (event: InvokeEvent) => boolean
}

export function registerIpc(
  ipcMain: IpcMainLike,
  dispatcher: Dispatcher,
  send: (event: PosEvent) => void,
  options: IpcOptions = {},
): () => void {
  ipcMain.handle(IPC_CALL, async (event, operation, request) => {
    if (!isTrustedSender(event)) return failed('FORBIDDEN', 'calls are accepted from the app window only')
    if (typeof operation !== 'string') return failed('INVALID_REQUEST', 'operation must be a string')
    const id = event.sender?.id ?? 0
    const caller: WindowCaller = options.isDisplayWindow?.(event)
      ? { door: 'display', session: `electron-display-${id}` }
      : { door: 'counter', session: `electron-window-${id}` }
    try {
      return await dispatcher.dispatch(caller, operation, request)
    } catch (error) {
      // A dispatcher never throws; should one, the window still gets an answer it can show.
      return { ok: false, error: errorView(toPosError(error)) }
    }
  })
  dispatcher.on('event', send)
  return () => {
    ipcMain.removeHandler(IPC_CALL)
    dispatcher.off('event', send)
  }
}
