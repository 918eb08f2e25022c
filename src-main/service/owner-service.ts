/**
 * The application layer for the machine's owner, in a process of its own beside the agent (which may
 * be running): the command line calls it as the `cli` door and the first-run setup page as the
 * `setup` door, as the agent's doors call AgentService. A call runs the same way (operation-run.ts:
 * the contract's schema, the operation's access row, the audit trail's one writer) with the same
 * handler. It serves what the owner does without the running engine. There is no manager at a
 * command line to approve a request, so what would need one is refused unless the access row lets the
 * owner stand for the manager (`posApproves`); on the setup page a manager types their number and PIN
 * (access.ts PIN_APPROVAL_DOORS), checked as at the counter.
 */
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'
import type { OperationRequest, OperationResults } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import { toPosError } from '../errors'
import type { Operators } from '../operators'
import { decide } from './access'
import { Approvals } from './approvals'
import type { AuditTrail } from './audit-trail'
import { callerKey, type Caller } from './caller'
import { runOperation, type OperationPipeline } from './operation-run'
import { operatorHandlers } from './people'
import { PinGuard } from './pin-guard'
import { signingKeyHandler } from './terminal'
import type { CallContext } from './service-parts'
import type { SecretStore } from '../keychain'

/** What the owner's service serves. */
export type OwnerOperation = 'setSigningKey' | 'listOperators' | 'addOperator' | 'unlockOperator'

/** What the audit record of the command line's call says of who made it (the trail names no person for it). */
export const BY_THE_OWNER = "by the machine's owner from the command line"

export interface OwnerServiceDeps {
  secrets: SecretStore
  /** The acquirer id whose signing key this terminal keeps (the configuration's); without one, setSigningKey is refused. */
  aid?: string | undefined
  /** The terminal's operators (absent before its journal exists: no operator yet, none to approve). */
  operators?: Operators | undefined
  /** The journal's audit trail (absent before the journal exists: nothing of this terminal to audit yet). */
  audit?: Pick<AuditTrail, 'record'> | undefined
  /** What PIN tries are counted by (src-shared/clock.ts). */
  clock?: Clock
}

export class OwnerService {
  private readonly pipeline: OperationPipeline

  constructor(deps: OwnerServiceDeps) {
    const audit = deps.audit ?? { record: () => {} }
    const clock = deps.clock ?? SYSTEM_CLOCK
    const now = () => clock.now()
    const operators = (): Operators => {
      if (!deps.operators) throw new PosError('NOT_FOUND', 'this terminal has no operators yet (it has no journal)')
      return deps.operators
    }
    const approvals = deps.operators ? new Approvals(deps.operators, new PinGuard(now), now) : undefined
    const people = operatorHandlers(operators)
    const setSigningKey = deps.aid === undefined ? undefined : signingKeyHandler(deps.secrets, deps.aid)
    this.pipeline = {
      audit,
      handlers: {
        setSigningKey: (request, context) => {
          if (!setSigningKey) throw new PosError('NOT_FOUND', 'no acquirer id is configured for a signing key')
          return setSigningKey(request, context)
        },
        listOperators: people.listOperators,
        addOperator: people.addOperator,
        unlockOperator: people.unlockOperator,
      },
      authorise: async (caller, operation, request): Promise<CallContext> => {
        const hasManager = deps.operators?.hasManager() ?? false
        const decision = decide(caller, operation, { operators: hasManager, managerRuleApplies: true, request })
        if (!decision.allowed) throw new PosError(decision.code, decision.reason)
        if (decision.manager === 'notNeeded') return { caller, ...(caller.door === 'cli' ? { detail: BY_THE_OWNER } : {}) }
        if (decision.manager !== 'approvalNeeded' || !decision.pinApproves || !approvals)
          throw new PosError('MANAGER_REQUIRED', `${operation} needs a manager's approval, which cannot be given at the command line`)
        const approver = typeof request.approval === 'object' ? (request.approval as { operatorId?: string }).operatorId : undefined
        try {
          const granted = await approvals.grant(callerKey(caller), callerKey(caller), operation, request, true)
          audit.record(caller, { action: 'approval', actor: granted.manager.id, subject: operation, ok: true, detail: 'number and PIN' })
          return { caller, actor: granted.manager.id }
        } catch (thrown) {
          if (request.approval !== undefined)
            audit.record(caller, { action: 'approval', actor: approver, subject: operation, ok: false, detail: toPosError(thrown).code })
          throw thrown
        }
      },
    }
  }

  /** One operation as the owner; a refusal is thrown as a PosError. */
  async call<K extends OwnerOperation>(caller: Caller, operation: K, request: OperationRequest<K>): Promise<OperationResults[K]> {
    try {
      return await runOperation(this.pipeline, caller, operation, request)
    } catch (thrown) {
      throw toPosError(thrown)
    }
  }
}
