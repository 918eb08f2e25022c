/**
 * Errors the renderer itself produces when it cannot learn an answer from the agent. They travel as
 * the same `{ ok: false, error }` data as the agent's own errors (docs/architecture.md: errors cross as data).
 */
import type { PosErrorView, PosResult } from '../../../src-shared/contract'

/** The agent did not answer at all: network down, agent stopped, IPC channel gone. */
export const AGENT_UNREACHABLE = 'AGENT_UNREACHABLE'
/** The agent answered, but not with a PosResult. */
export const AGENT_BAD_RESPONSE = 'AGENT_BAD_RESPONSE'

export function failure(code: string, message: string, retryable: boolean): { ok: false; error: PosErrorView } {
  return { ok: false, error: { code, message, retryable } }
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
