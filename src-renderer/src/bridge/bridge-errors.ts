/**
 * Errors the renderer itself produces when it cannot learn an answer from the agent. They are
 * catalogue errors (src-shared/errors: AGENT_UNREACHABLE, AGENT_FAILED, AGENT_BAD_RESPONSE) and
 * travel as the same `{ ok: false, error }` data as the agent's own (docs/architecture.md: errors
 * cross as data).
 */
import type { PosErrorView, PosResult } from '../../../src-shared/contract'
import { failed } from '../../../src-shared/errors'

/** The renderer's own failures to get an answer. */
export type BridgeFailureCode = 'AGENT_UNREACHABLE' | 'AGENT_FAILED' | 'AGENT_BAD_RESPONSE'

export function failure(code: BridgeFailureCode, message: string): { ok: false; error: PosErrorView } {
  return failed(code, message)
}

export function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}

/** A structural check of an answer: `{ ok: true, value }` or `{ ok: false, error: { code, message, retryable } }`. */
export function isPosResult(value: unknown): value is PosResult<unknown> {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as { ok?: unknown; value?: unknown; error?: unknown }
  if (candidate.ok === true) return 'value' in candidate
  if (candidate.ok !== false || typeof candidate.error !== 'object' || candidate.error === null) return false
  const error = candidate.error as Partial<PosErrorView>
  return typeof error.code === 'string' && typeof error.message === 'string' && typeof error.retryable === 'boolean'
}
