/**
 * The people at the terminal: operators (added, re-PINned, unlocked, disabled by a manager), signing
 * in and out at a counter window, and a manager's approval of one request given ahead of it.
 */
import { isOperationName, OPERATIONS, type CounterOperatorView, type ManagerRule } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import type { Operators } from '../operators'
import { decide } from './access'
import { callerKey, type Caller } from './caller'
import type { Handlers, ServiceParts } from './service-parts'

type PeopleOperations =
  | 'listOperators'
  | 'addOperator'
  | 'signIn'
  | 'signOut'
  | 'counterOperator'
  | 'setOperatorPin'
  | 'disableOperator'
  | 'unlockOperator'
  | 'approve'

export function peopleHandlers(parts: ServiceParts): Handlers<PeopleOperations> {
  const { operators, sessions, guard } = parts
  const counterView = (caller: Caller): CounterOperatorView => {
    const operator = caller.door === 'counter' ? sessions.operatorAt(caller.session) : undefined
    return {
      required: operators.hasManager(),
      ...(operator ? { operator } : {}),
      voidWithoutManagerMinutes: parts.deps.voidWithoutManagerMinutes ?? 30,
    }
  }
  return {
    ...operatorHandlers(() => operators),
    signIn: async (r, { caller }) => {
      if (caller.door !== 'counter') throw new PosError('FORBIDDEN', 'signing in is at a cashier window')
      guard.take(parts.pinKey(caller))
      const operator = await operators.verify(r)
      // Signing in at this window replaces whoever was signed in here; other windows are theirs.
      sessions.signIn(caller.session, operator)
      return operator
    },
    signOut: (_r, { caller }) => {
      if (caller.door === 'counter') sessions.signOut(caller.session)
      return counterView(caller)
    },
    counterOperator: (_r, { caller }) => counterView(caller),
    approve: async (r, { caller }) => {
      const name = r.operation
      if (!isOperationName(name)) throw new PosError('UNKNOWN_OPERATION', `no operation "${name}"`)
      if (OPERATIONS[name].access.manager === 'never') throw new PosError('INVALID_REQUEST', `${name} needs no manager's approval`)
      const parsed = OPERATIONS[name].request.safeParse(r.request)
      if (!parsed.success)
        throw new PosError('INVALID_REQUEST', `the request to approve is not a valid ${name}: ${parsed.error.issues[0]?.message ?? ''}`)
      const approved = parsed.data as Record<string, unknown>
      // Only what this caller could ask for may be approved for it: an approval never widens a door or
      // a scope, also the wider scope a request may ask (an export with the audit trail). The scope
      // of asking, never `read`, was access.ts's (approvalScope).
      const reach = decide(caller, name, { operators: false, managerRuleApplies: false, request: approved })
      if (!reach.allowed) throw new PosError(reach.code, reach.reason)
      // A rule the request itself decides (a tip override, an export with the audit trail) that it
      // does not ask for: nothing to approve, and no PIN is tried for it.
      if (!requestMayNeedManager(OPERATIONS[name].access.manager, approved))
        throw new PosError('INVALID_REQUEST', `this ${name} needs no manager's approval`)
      const proof = await parts.approvals.issue(parts.pinKey(caller), callerKey(caller), name, approved, {
        operatorId: r.operatorId,
        pin: r.pin,
      })
      return { approval: proof.approval, operation: proof.operation, operatorId: proof.operatorId, expiresAt: proof.expiresAt }
    },
  }
}

type OperatorOperations = 'listOperators' | 'addOperator' | 'setOperatorPin' | 'disableOperator' | 'unlockOperator'

/**
 * The operator accounts' handlers, the same for the agent's doors and for the owner's service beside
 * it (owner-service.ts: the command line's unlock, the setup page's first manager).
 */
export function operatorHandlers(operators: () => Operators): Handlers<OperatorOperations> {
  return {
    listOperators: () => operators().list(),
    addOperator: (r) => operators().add({ operatorId: r.operatorId, name: r.name, role: r.role, pin: r.pin }),
    setOperatorPin: (r) => operators().setPin(r.operatorId, r.pin),
    disableOperator: (r) => operators().disable(r.operatorId),
    unlockOperator: (r) => operators().unlock(r.operatorId),
  }
}

/** Whether a manager may be needed for this request: not for a tip without its override, nor an export without the audit trail. */
function requestMayNeedManager(rule: ManagerRule, request: Record<string, unknown>): boolean {
  if (rule === 'tipOverride') return request.managerOverride === true
  if (rule === 'auditIncluded') return request.audit === true
  return rule !== 'never'
}
