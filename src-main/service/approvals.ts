/**
 * A manager's approval, bound to what it approves. It is given for one request: a manager's number
 * and PIN sent with that request (at the cashier window only: access.ts `pinApproves`), or a proof
 * the `approve` operation gave for exactly that operation and request (its SHA-256 over the request's
 * canonical JSON, `approval` left out) and for the caller that asked it, good once and for two
 * minutes. A proof approves no other request, nor the same one twice, nor anyone else's: one seen by
 * another component (a log, a proxy, another POS) is worth nothing there. Every PIN tried counts
 * against the caller's limit (pin-guard.ts) before it is checked.
 */
import { createHash, randomBytes } from 'node:crypto'
import { PosError } from '../../src-shared/errors'
import type { Credential, OperatorView, Operators } from '../operators'
import type { PinGuard } from './pin-guard'

/** How long a proof from `approve` is good for. */
export const APPROVAL_TTL_MS = 2 * 60_000
/** At most this many proofs wait to be used (the oldest is dropped first). */
const PROOFS_KEPT = 1_000

interface Proof {
  operation: string
  requestHash: string
  managerId: string
  /** Who asked for it (caller.ts callerKey): only that caller's request is approved by it. */
  holder: string
  expiresAt: number
}

export interface GrantedApproval {
  manager: OperatorView
  /** How it was given: a PIN with the request, or a proof from approve. */
  how: 'pin' | 'proof'
  requestHash: string
}

export class Approvals {
  private readonly proofs = new Map<string, Proof>()

  constructor(
    private readonly operators: Operators,
    private readonly guard: PinGuard,
    private readonly now: () => number,
  ) {}

  /**
   * A proof that approves `operation` with `request` once, for `holder` (the asking caller's
   * callerKey) only: the manager's PIN is checked here.
   */
  async issue(limitKey: string, holder: string, operation: string, request: Record<string, unknown>, credential: Credential) {
    const manager = await this.checkManager(limitKey, credential)
    const approval = `apv_${randomBytes(32).toString('base64url')}`
    const expiresAt = this.now() + APPROVAL_TTL_MS
    const hash = requestHash(operation, request)
    this.forgetExpired()
    if (this.proofs.size >= PROOFS_KEPT) this.proofs.delete(this.proofs.keys().next().value!)
    this.proofs.set(approval, { operation, requestHash: hash, managerId: manager.id, holder, expiresAt })
    return { approval, operation, operatorId: manager.id, expiresAt, requestHash: hash }
  }

  /**
   * The manager who approved this one request of `holder`, or a refusal (MANAGER_REQUIRED, PIN_WRONG,
   * OPERATOR_LOCKED…). `pinApproves`: a number and PIN in the request is an approval at this door.
   */
  async grant(
    limitKey: string,
    holder: string,
    operation: string,
    request: Record<string, unknown>,
    pinApproves: boolean,
  ): Promise<GrantedApproval> {
    const given = request.approval as Credential | string | undefined
    const hash = requestHash(operation, request)
    if (given === undefined) throw new PosError('MANAGER_REQUIRED', `${operation} needs a manager's approval`)
    if (typeof given === 'object') {
      // Refused before the PIN is looked at: no try is counted, no operator locked from here.
      if (!pinApproves)
        throw new PosError(
          'MANAGER_REQUIRED',
          `a manager's number and PIN approve only at the cashier window: ask approve for a proof of this ${operation} and send it as its approval`,
        )
      return { manager: await this.checkManager(limitKey, given), how: 'pin', requestHash: hash }
    }
    const proof = this.proofs.get(given)
    // Used once, whatever comes of it: a proof is never tried twice (one shown by another caller was seen where it should not be).
    this.proofs.delete(given)
    if (!proof || proof.expiresAt <= this.now())
      throw new PosError('MANAGER_REQUIRED', 'this approval is unknown, used or expired: ask the manager again')
    if (proof.holder !== holder)
      throw new PosError('MANAGER_REQUIRED', 'this approval was given to another caller: ask the manager to approve it here')
    if (proof.operation !== operation || proof.requestHash !== hash)
      throw new PosError('MANAGER_REQUIRED', 'this approval was given for another request: ask the manager to approve this one')
    const manager = this.operators.list().find((o) => o.id === proof.managerId && o.role === 'manager' && !o.disabled)
    if (!manager) throw new PosError('MANAGER_REQUIRED', 'the manager who approved this can no longer approve')
    return { manager, how: 'proof', requestHash: hash }
  }

  private async checkManager(limitKey: string, credential: Credential): Promise<OperatorView> {
    this.guard.take(limitKey)
    return this.operators.approve(credential)
  }

  private forgetExpired(): void {
    const now = this.now()
    for (const [key, proof] of this.proofs) if (proof.expiresAt <= now) this.proofs.delete(key)
  }
}

/** SHA-256 over the operation and its request's canonical JSON (keys sorted, `approval` left out). */
export function requestHash(operation: string, request: Record<string, unknown>): string {
  const { approval: _approval, ...rest } = request
  return createHash('sha256').update(operation).update('\n').update(canonicalJson(rest)).digest('hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}
