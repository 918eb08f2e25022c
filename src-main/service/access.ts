/**
 * The one access check: caller × scope × operation × who is signed in, read from each operation's
 * row in the contract (src-shared/contract/operations.ts). Pure: the service hands it what it knows
 * (whether the terminal has a manager, who is signed in at the caller's counter, whether the
 * operation's manager rule applies to this request) and acts on the decision. Nothing else in the
 * agent decides who may do what.
 */
import { accessOf, scopeAllows, scopeFor, type OperationName } from '../../src-shared/contract'
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
  | {
      allowed: true
      /**
       * How a manager comes in: not needed; approving by being signed in at this counter; or to be
       * shown by the request's `approval` (a manager's number and PIN, or a proof for this request).
       */
      manager: 'notNeeded' | 'signedIn' | 'approvalNeeded'
    }

export function decide(caller: Caller, operation: OperationName, facts: AccessFacts): AccessDecision {
  const access = accessOf(operation)
  if (!access.doors.includes(caller.door)) return { allowed: false, code: 'FORBIDDEN', reason: doorRefusal(caller, operation) }
  const scope = scopeFor(access, facts.request)
  if ((caller.door === 'pos' || caller.door === 'nexo') && !scopeAllows(caller.token.scopes, scope))
    return {
      allowed: false,
      code: 'FORBIDDEN',
      reason: `${operation} needs a token with the "${scope}" scope; this token (${caller.token.name}) has ${caller.token.scopes.join(', ')}`,
    }
  // The POS approves with its own staff rules where the row says so; its token's scope was checked above.
  if (access.posApproves?.includes(caller.door)) return { allowed: true, manager: 'notNeeded' }
  if (!facts.operators) return { allowed: true, manager: 'notNeeded' }
  const atCounter = caller.door === 'counter'
  if (atCounter && access.signIn && !facts.signedIn)
    return { allowed: false, code: 'SIGN_IN_REQUIRED', reason: `${operation} needs an operator signed in at this counter` }
  if (!managerNeeded(access.manager, facts)) return { allowed: true, manager: 'notNeeded' }
  if (atCounter && facts.signedIn?.role === 'manager') return { allowed: true, manager: 'signedIn' }
  return { allowed: true, manager: 'approvalNeeded' }
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
    default:
      return `${operation} cannot be asked through the ${caller.door}`
  }
}
