/**
 * PosBridge: the one interface the renderer uses. Two adapters implement it: `window.pos` from the
 * Electron preload (IPC), and an HTTP + server-sent-events client for browser mode.
 */
import type { PosEvent, PosResult } from './dto'
import type { OperationName, OperationRequest, OperationResults } from './operations'

export interface PosBridge {
  call<K extends OperationName>(operation: K, request: OperationRequest<K>): Promise<PosResult<OperationResults[K]>>
  /** Live updates; returns the unsubscribe function. */
  subscribe(listener: (event: PosEvent) => void): () => void
}
