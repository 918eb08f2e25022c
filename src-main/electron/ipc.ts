/**
 * IPC between the cashier window and the agent. Two channels only: `pos:call` (one contract
 * operation, validated by AgentOperations.dispatch with the zod schemas of src-shared/contract) and
 * `pos:event` (live updates pushed to the window). Every call checks that it comes from the app's own
 * top-level frame; anything else is refused. A window showing the customer display may only read
 * (DISPLAY_OPERATIONS): which window that is, main.ts knows by its webContents, not by what the page
 * says of itself. Takes the ipcMain object as a parameter, so it is tested without Electron.
 */
import { DISPLAY_OPERATIONS, ELECTRON_APP_ORIGIN, type OperationName, type PosEvent, type PosResult } from '../../src-shared/contract'
import { errorView, failed } from '../../src-shared/errors'
import { toPosError } from '../errors'

export const IPC_CALL = 'pos:call'
export const IPC_EVENT = 'pos:event'

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

export interface Dispatcher {
  dispatch(operation: string, request: unknown): Promise<PosResult<unknown>>
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
    if (options.isDisplayWindow?.(event) && !DISPLAY_OPERATIONS.includes(operation as OperationName))
      return failed('FORBIDDEN', `the customer display only reads; ${operation} is refused there`)
    try {
      return await dispatcher.dispatch(operation, request)
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
