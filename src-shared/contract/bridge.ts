/**
 * PosBridge: the one interface the renderer uses. Two adapters implement it: `window.pos` from the
 * Electron preload (IPC), and an HTTP + server-sent-events client for browser mode.
 */
import type { PosEvent, PosResult } from './dto'
import type { OperationName, OperationRequest, OperationResults } from './operations'

/**
 * The two IPC channels of the Electron adapter, named once for both ends (the preload's `window.pos`
 * and src-main/electron): one contract operation in, live events out.
 */
export const IPC_CALL = 'pos:call'
export const IPC_EVENT = 'pos:event'

export interface PosBridge {
  call<K extends OperationName>(operation: K, request: OperationRequest<K>): Promise<PosResult<OperationResults[K]>>
  /** Live updates; returns the unsubscribe function. */
  subscribe(listener: (event: PosEvent) => void): () => void
}
