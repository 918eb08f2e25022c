/**
 * Who acts on a call, once its door and scope are let in: access.ts decides from the operation's row,
 * the operator signed in at the caller's own window (signed out here when idle), and the operation's
 * manager rule; a manager signed in at that window approves by being there, otherwise the request's
 * own approval is checked (approvals.ts): a proof this caller asked for, or at the cashier window a
 * manager's number and PIN. Every approval, given or refused, goes to the audit trail.
 */
import { accessOf, type OperationName } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import { toPosError } from '../errors'
import { decide, type AccessFacts } from './access'
import { callerKey, type Caller } from './caller'
import { approvalWords } from './approval-words'
import type { CallContext, ServiceParts } from './service-parts'

/** Who acts, once access.ts has decided: the operator signed in at this window, or the manager who approved. */
export async function authorise(
  parts: ServiceParts,
  caller: Caller,
  operation: OperationName,
  request: Record<string, unknown>,
): Promise<CallContext> {
  const { operators, sessions, audit, approvals } = parts
  const signedIn =
    caller.door === 'counter'
      ? sessions.operatorAt(caller.session, acts(operation), (left) =>
          audit.record(caller, { action: 'signOut', actor: left.id, subject: left.id, ok: true, detail: 'idle' }),
        )
      : undefined
  const facts: AccessFacts = {
    operators: operators.hasManager(),
    signedIn,
    managerRuleApplies: managerRuleApplies(parts, operation, request),
    request,
  }
  const decision = decide(caller, operation, facts)
  if (!decision.allowed) throw new PosError(decision.code, decision.reason)
  // A tip override on a terminal without staff: nobody can approve it, so the counter asked the
  // cashier first and the trail keeps that it went through without a manager.
  if (decision.manager === 'notNeeded' && !facts.operators && facts.managerRuleApplies && accessOf(operation).manager === 'tipOverride')
    audit.record(caller, {
      action: 'approval',
      subject: operation,
      ok: true,
      detail: `no staff on this terminal: allowed without a manager${wordsOf(parts, operation, request)}`,
    })
  if (decision.manager === 'notNeeded') return { caller, actor: signedIn?.id }
  if (decision.manager === 'signedIn') {
    audit.record(caller, {
      action: 'approval',
      actor: signedIn!.id,
      subject: operation,
      ok: true,
      detail: 'manager signed in at this window',
    })
    return { caller, actor: signedIn!.id }
  }
  try {
    const granted = await approvals.grant(parts.pinKey(caller), callerKey(caller), operation, request, decision.pinApproves)
    audit.record(caller, {
      action: 'approval',
      actor: granted.manager.id,
      subject: operation,
      ok: true,
      // What the manager was shown (describeApproval), in the same words.
      detail: `${granted.how === 'pin' ? 'number and PIN' : 'approval given ahead'}, request ${granted.requestHash.slice(0, 16)}${wordsOf(parts, operation, request)}`,
    })
    // The manager who approved answers for the step: their number is the one kept on it.
    return { caller, actor: granted.manager.id }
  } catch (thrown) {
    const code = toPosError(thrown).code
    const approver = typeof request.approval === 'object' ? (request.approval as { operatorId?: string }).operatorId : undefined
    if (request.approval !== undefined)
      audit.record(caller, { action: 'approval', actor: approver, subject: operation, ok: false, detail: code })
    throw thrown
  }
}

/** ": " and what the manager was shown for this request; nothing when it cannot be said (it never blocks an approval). */
function wordsOf(parts: ServiceParts, operation: OperationName, request: Record<string, unknown>): string {
  try {
    return `: ${approvalWords(parts, operation, request).words}`
  } catch {
    return ''
  }
}

/**
 * Whether a call is someone working at the window (it keeps their sign-in alive): what needs a sign-in
 * or a manager; the reads a screen makes by itself (a list refreshed after an event) do not.
 */
function acts(operation: OperationName): boolean {
  const access = accessOf(operation)
  return access.signIn || access.manager !== 'never'
}

/** Whether the operation's manager rule holds for this request (the rule's name is in its access row). */
function managerRuleApplies(parts: ServiceParts, operation: OperationName, request: Record<string, unknown>): boolean {
  switch (accessOf(operation).manager) {
    case 'never':
      return false
    case 'always':
    case 'notFirstOperator':
      return true
    case 'tipOverride':
      return request.managerOverride === true
    case 'auditIncluded':
      return request.audit === true
    case 'voidAge': {
      const sale = parts.deps.engine.txn.reads.get(String(request.id))
      const minutes = parts.deps.voidWithoutManagerMinutes ?? 30
      return sale !== undefined && parts.now() - sale.createdAt > minutes * 60_000
    }
  }
}
