/**
 * The application layer for the machine's owner, in a process of its own beside the agent (which may
 * be running): the command line calls it as the `cli` door, as the agent's doors call AgentService.
 * A call runs the same way (operation-run.ts: the contract's schema, the operation's access row, the
 * audit trail's one writer) with the same handler. It serves what the owner does without the running
 * engine; there is no manager at a command line to approve a request, so what would need one is
 * refused unless the access row lets the owner stand for the manager (`posApproves`).
 */
import type { OperationRequest, OperationResults } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import { toPosError } from '../errors'
import type { SecretStore } from '../keychain'
import { decide } from './access'
import type { AuditTrail } from './audit-trail'
import type { Caller } from './caller'
import { runOperation, type OperationPipeline } from './operation-run'
import { signingKeyHandler } from './terminal'

/** What the owner's service serves. */
export type OwnerOperation = 'setSigningKey'

export interface OwnerServiceDeps {
  secrets: SecretStore
  /** The acquirer id whose signing key this terminal keeps (the configuration's). */
  aid: string
  /** Whether the terminal has an active manager (the operator rules apply); false before its journal exists. */
  hasManager: () => boolean
  /** The journal's audit trail (absent before the journal exists: nothing of this terminal to audit yet). */
  audit?: Pick<AuditTrail, 'record'> | undefined
}

export class OwnerService {
  private readonly pipeline: OperationPipeline

  constructor(deps: OwnerServiceDeps) {
    this.pipeline = {
      audit: deps.audit ?? { record: () => {} },
      handlers: { setSigningKey: signingKeyHandler(deps.secrets, deps.aid) },
      authorise: async (caller, operation, request) => {
        const decision = decide(caller, operation, { operators: deps.hasManager(), managerRuleApplies: true, request })
        if (!decision.allowed) throw new PosError(decision.code, decision.reason)
        if (decision.manager !== 'notNeeded')
          throw new PosError('FORBIDDEN', `${operation} needs a manager's approval, which cannot be given at the command line`)
        return { caller }
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
