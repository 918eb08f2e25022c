/**
 * One operation for one caller, the same way whoever serves it: the request validated with the
 * contract's schema, access decided from the operation's row (access.ts) before the body is read and
 * again with who acts (the pipeline's `authorise`), the use-case handler run, and what must be kept in
 * the audit trail written by its one writer (audit-trail.ts), done or refused. The agent's service
 * (agent-service.ts) and the owner's service beside a running agent (owner-service.ts) both run their
 * calls here.
 */
import { accessOf, OPERATIONS, type OperationName, type OperationResults, type OperationRequest } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import { toPosError } from '../errors'
import { decide } from './access'
import type { AuditTrail } from './audit-trail'
import type { Caller } from './caller'
import type { CallContext, Handlers } from './service-parts'

export interface OperationPipeline {
  /** The audit trail's one writer. */
  audit: Pick<AuditTrail, 'record'>
  /** The handlers of the operations served (an operation without one is refused). */
  handlers: Partial<Handlers<OperationName>>
  /** Who acts, once the door and scope are let in: decided from the row with what the service knows, or a refusal thrown. */
  authorise(caller: Caller, operation: OperationName, request: Record<string, unknown>): Promise<CallContext>
}

export async function runOperation<K extends OperationName>(
  pipeline: OperationPipeline,
  caller: Caller,
  operation: K,
  request: unknown,
): Promise<OperationResults[K]> {
  const { audit, handlers } = pipeline
  const access = accessOf(operation)
  // Door and scope before the body is even read: a display or a narrow token learns nothing more.
  const reach = decide(caller, operation, { operators: false, managerRuleApplies: false })
  if (!reach.allowed) {
    if (access.audited) audit.record(caller, { action: operation, ok: false, detail: reach.code })
    throw new PosError(reach.code, reach.reason)
  }
  const parsed = OPERATIONS[operation].request.safeParse(request ?? {})
  if (!parsed.success) {
    // A malformed try at an audited operation is a try all the same: it is kept, with what it named.
    const named = request !== null && typeof request === 'object' ? subjectOf(request as Record<string, unknown>) : undefined
    if (access.audited) audit.record(caller, { action: operation, subject: named, ok: false, detail: 'INVALID_REQUEST' })
    throw toPosError(parsed.error)
  }
  const valid = parsed.data as OperationRequest<K> & Record<string, unknown>
  let context: CallContext | undefined
  try {
    context = await pipeline.authorise(caller, operation, valid)
    const handler = handlers[operation]
    if (!handler) throw new PosError('UNKNOWN_OPERATION', `${operation} is not served here`)
    const value = await handler(valid, context)
    if (access.audited)
      audit.record(caller, {
        action: operation,
        actor: actorOf(operation, valid, context),
        subject: subjectOf(valid),
        ok: true,
        ...(context.detail ? { detail: context.detail } : {}),
      })
    return value
  } catch (thrown) {
    if (access.audited)
      audit.record(caller, {
        action: operation,
        actor: actorOf(operation, valid, context),
        subject: subjectOf(valid),
        ok: false,
        detail: toPosError(thrown).code,
      })
    throw thrown
  }
}

/**
 * What an audited request is about, for its record: never a PIN or a key. An approval asked ahead
 * (`approve`) is about the operation it approves; its manager is its actor (actorOf).
 */
function subjectOf(request: Record<string, unknown>): string | undefined {
  for (const field of ['operation', 'operatorId', 'id', 'name'] as const) {
    const value = request[field]
    if (typeof value === 'string') return value
  }
  return undefined
}

/** Who acts: the operator signed in or the manager who approved; for `approve`, the manager whose PIN was given. */
function actorOf(operation: OperationName, request: Record<string, unknown>, context: CallContext | undefined): string | undefined {
  if (operation === 'approve' && typeof request.operatorId === 'string') return request.operatorId
  return context?.actor
}
