/**
 * The Electron adapter: the preload exposes `window.pos`, an object implementing PosBridge over IPC.
 * This wrapper only makes sure a failed IPC call becomes data (`ok: false`) rather than a thrown
 * error, and that one faulty listener cannot stop the others.
 */
import type { OperationName, OperationRequest, OperationResults, PosBridge, PosEvent, PosResult } from '../../../src-shared/contract'
import { describeCause, failure, isPosResult } from './bridge-errors'

/** Whether a value (normally `window.pos`) implements PosBridge. */
export function isPosBridge(value: unknown): value is PosBridge {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Partial<PosBridge>
  return typeof candidate.call === 'function' && typeof candidate.subscribe === 'function'
}

export function createElectronBridge(pos: PosBridge): PosBridge {
  return {
    async call<K extends OperationName>(operation: K, request: OperationRequest<K>): Promise<PosResult<OperationResults[K]>> {
      try {
        const answer: unknown = await pos.call(operation, request)
        if (isPosResult(answer)) return answer as PosResult<OperationResults[K]>
        return failure('AGENT_BAD_RESPONSE', `The agent answered "${operation}" with something that is not a result`)
      } catch (cause) {
        return failure('AGENT_UNREACHABLE', `Could not reach the agent for "${operation}": ${describeCause(cause)}`)
      }
    },
    subscribe(listener) {
      return pos.subscribe((event: PosEvent) => {
        try {
          listener(event)
        } catch (cause) {
          console.error('pos event listener failed', cause)
        }
      })
    },
  }
}
