/**
 * The one access check: caller × scope × operation × who is signed in, read from each operation's
 * row in the contract (src-shared/contract/operations.ts). Pure: the service hands it what it knows
 * (whether the terminal has a manager, who is signed in at the caller's counter, whether the
 * operation's manager rule applies to this request) and acts on the decision. Nothing else in the
 * agent decides who may do what.
 */
import {
  accessOf,
  approvalScope,
  isOperationName,
  PIN_APPROVAL_DOORS,
  scopeAllows,
  scopeFor,
  type OperationAccess,
  type OperationName,
  type TokenScope,
} from '../../src-shared/contract'
import type { ErrorCode } from '../../src-shared/errors'
import type { Caller } from './caller'

export interface AccessFacts {
  /** The terminal has an active manager: the operator rules apply (without one it is open, as before operators existed). */
  operators: boolean
  /** Who is signed in at the caller's own counter window (never another window's). */
  signedIn?: { id: string; role: 'cashier' | 'manager' } | undefined
  /** The operation's manager rule holds for this request (a void past its age, a tip past the tolerance…). */
  managerRuleApplies: boolean
  /** The request, once read: a row may ask a wider scope of some requests (`scopeWhen`). */
  request?: Record<string, unknown>
}

export type AccessDecision =
  | { allowed: false; code: Extract<ErrorCode, 'FORBIDDEN' | 'SIGN_IN_REQUIRED'>; reason: string }
  /**
   * How a manager comes in: not needed; approving by being signed in at this counter; or to be shown
   * by the request's `approval`: a proof from `approve` for this request and this caller, or, at a
   * door of PIN_APPROVAL_DOORS only, a manager's number and PIN (`pinApproves`).
   */
  | { allowed: true; manager: 'notNeeded' }
  | { allowed: true; manager: 'signedIn' }
  | { allowed: true; manager: 'approvalNeeded'; pinApproves: boolean }

export function decide(caller: Caller, operation: OperationName, facts: AccessFacts): AccessDecision {
  const access = accessOf(operation)
  if (!access.doors.includes(caller.door)) return { allowed: false, code: 'FORBIDDEN', reason: doorRefusal(caller, operation) }
  if (caller.door === 'pos' || caller.door === 'nexo' || caller.door === 'zvt') {
    const scopes = caller.token.scopes
    const needed = neededScope(operation, access, facts.request)
    const granted = needed.scope === 'anyButRead' ? scopes.some((scope) => scope !== 'read') : scopeAllows(scopes, needed.scope)
    if (!granted) {
      const scopeWords = needed.scope === 'anyButRead' ? 'more than the "read" scope' : `the "${needed.scope}" scope`
      return {
        allowed: false,
        code: 'FORBIDDEN',
        reason: `${needed.what} needs a token with ${scopeWords}; this token (${caller.token.name}) has ${scopes.join(', ')}`,
      }
    }
  }
  // The POS approves with its own staff rules where the row says so; its token's scope was checked above.
  if (access.posApproves?.includes(caller.door)) return { allowed: true, manager: 'notNeeded' }
  if (!facts.operators) return { allowed: true, manager: 'notNeeded' }
  const atCounter = caller.door === 'counter'
  if (atCounter && access.signIn && !facts.signedIn)
    return { allowed: false, code: 'SIGN_IN_REQUIRED', reason: `${operation} needs an operator signed in at this counter` }
  if (!managerNeeded(access.manager, facts)) return { allowed: true, manager: 'notNeeded' }
  if (atCounter && facts.signedIn?.role === 'manager') return { allowed: true, manager: 'signedIn' }
  return { allowed: true, manager: 'approvalNeeded', pinApproves: PIN_APPROVAL_DOORS.includes(caller.door) }
}

/**
 * The scope a token needs: the row's (or `scopeWhen`'s, for this request); for `approve`, the
 * approved request's (approvalScope; an operation that is none, `admin`), and before its request is
 * read, any scope but `read`.
 */
function neededScope(
  operation: OperationName,
  access: OperationAccess,
  request: Record<string, unknown> | undefined,
): { scope: TokenScope | 'anyButRead'; what: string } {
  if (!access.scopeOfApproved) return { scope: scopeFor(access, request), what: operation }
  if (request === undefined) return { scope: 'anyButRead', what: operation }
  const approved = request.operation
  if (typeof approved !== 'string' || !isOperationName(approved)) return { scope: 'admin', what: `${operation} of an unknown operation` }
  const inner = request.request
  const scope = approvalScope(
    accessOf(approved),
    inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>) : undefined,
  )
  return { scope, what: `approving ${approved}` }
}

function managerNeeded(rule: ReturnType<typeof accessOf>['manager'], facts: AccessFacts): boolean {
  if (rule === 'never') return false
  if (rule === 'always') return true
  return facts.managerRuleApplies
}

function doorRefusal(caller: Caller, operation: OperationName): string {
  switch (caller.door) {
    case 'display':
      return `the customer display only reads; ${operation} is refused there`
    case 'pos':
    case 'nexo':
      return `${operation} is for the cashier window, not for a POS with its token`
    case 'zvt':
      return `${operation} is not one of the commands a register can send over ZVT`
    default:
      return `${operation} cannot be asked through the ${caller.door}`
  }
}
