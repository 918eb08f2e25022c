/**
 * Who works at this terminal, and the rules for them: cashier and manager accounts, each with an
 * operator number and a PIN (4 to 8 digits, kept as a scrypt hash: pin-hash.ts), signing in, and a
 * manager's approval. Five wrong PINs in a row lock the operator for fifteen minutes, however many
 * guesses come at once: each attempt is counted in the journal, atomically, before its PIN is
 * checked, and a PIN while locked is not even checked; a correct PIN clears the count. An unknown
 * number reads exactly as a known one with a wrong PIN, lockout included (it is counted in memory),
 * and takes as long: every refusal costs one PIN check, a locked operator's and an unknown number's
 * against a decoy hash, so neither the words nor the time of an answer tell which numbers exist. The first operator of a terminal is a manager; who may
 * add, re-PIN, unlock or disable operators is src-main/service's rule (a manager's).
 */
import { PosError } from '../../src-shared/errors'
import type { OperatorRecord, OperatorRole, OperatorStore } from '../journal'
import { DEFAULT_PIN_COST, scryptPinHasher, type PinHashCost, type PinHasher } from './pin-hash'

export const MAX_WRONG_PINS = 5
export const LOCKOUT_MS = 15 * 60_000

const PIN_SHAPE = /^\d{4,8}$/
const ID_SHAPE = /^[A-Za-z0-9]{1,16}$/

/** An operator as the screens and the API show one: never the PIN or its hash. */
export interface OperatorView {
  id: string
  name: string
  role: OperatorRole
  createdAt: number
  lockedUntil?: number
  disabled: boolean
}

/** What an operator types: their number and PIN. */
export interface Credential {
  operatorId: string
  pin: string
}

export interface NewOperator extends Credential {
  name: string
  role: OperatorRole
}

export class Operators {
  /** Wrong tries of numbers that are no operator, counted as a real one's would be (bounded). */
  private readonly unknown = new Map<string, { attempt: number; lockedUntil?: number }>()

  private readonly hasher: PinHasher

  constructor(
    private readonly store: OperatorStore,
    private readonly now: () => number = Date.now,
    cost: PinHashCost = DEFAULT_PIN_COST,
    hasher?: PinHasher,
  ) {
    this.hasher = hasher ?? scryptPinHasher(cost)
  }

  list(): OperatorView[] {
    return this.store.list().map((record) => this.view(record))
  }

  /** Whether this terminal has a manager yet (until then, the first operator made is one, unapproved). */
  hasManager(): boolean {
    return this.store.activeManagerCount() > 0
  }

  /** A new operator; the terminal's first is a manager. Whether the caller may is the service's rule. */
  async add(operator: NewOperator): Promise<OperatorView> {
    if (!this.hasManager() && operator.role !== 'manager')
      throw new PosError('MANAGER_REQUIRED', 'the first operator of a terminal is a manager')
    if (!ID_SHAPE.test(operator.operatorId)) throw new PosError('INVALID_REQUEST', 'an operator number is 1 to 16 letters or digits')
    const name = operator.name.trim()
    if (name.length === 0 || name.length > 64) throw new PosError('INVALID_REQUEST', 'an operator name is 1 to 64 characters')
    if (!PIN_SHAPE.test(operator.pin)) throw new PosError('PIN_INVALID', 'a PIN is 4 to 8 digits')
    if (this.store.get(operator.operatorId)) throw new PosError('OPERATOR_EXISTS', `operator ${operator.operatorId} exists already`)
    const createdAt = this.now()
    this.store.add({ id: operator.operatorId, name, role: operator.role, pinHash: await this.hasher.hash(operator.pin), createdAt })
    return this.view(this.store.get(operator.operatorId)!)
  }

  /**
   * Signs in: the operator, when the PIN is theirs. The attempt is counted before the PIN is checked
   * (OperatorStore.claimAttempt), so parallel guesses each take one of the five tries.
   */
  async verify(credential: Credential | undefined): Promise<OperatorView> {
    const now = this.now()
    const operatorId = credential?.operatorId ?? ''
    const claimed = this.store.claimAttempt(operatorId, now, MAX_WRONG_PINS, now + LOCKOUT_MS)
    const record = claimed ? this.store.get(operatorId) : undefined
    if (!claimed || !record) {
      // A locked operator, or no such operator (or a disabled one): the PIN is not looked at, but the
      // same one check is made, against the decoy, before either answer (a locked number that
      // answered at once would tell itself from an unknown one, which pays for its check).
      await this.hasher.matches(credential?.pin ?? '', await this.decoy())
      const known = this.store.get(operatorId)
      if (known?.disabledAt === undefined && known?.lockedUntil !== undefined && known.lockedUntil > now) throw locked()
      return this.refuseUnknown(operatorId, now)
    }
    if (!(await this.hasher.matches(credential!.pin, record.pinHash))) {
      if (claimed.lockedUntil !== undefined) throw locked()
      throw wrongPin(claimed.attempt)
    }
    this.store.clearAttempts(record.id)
    return this.view(this.store.get(record.id)!)
  }

  /** A manager's approval: their number and PIN, checked as a sign-in is, and their role. */
  async approve(credential: Credential | undefined): Promise<OperatorView> {
    if (!credential) throw new PosError('MANAGER_REQUIRED', "this needs a manager's number and PIN")
    const approver = await this.verify(credential)
    if (approver.role !== 'manager') throw new PosError('MANAGER_REQUIRED', `operator ${approver.id} is not a manager`)
    return approver
  }

  /** A new PIN, set by a manager (it also lifts a lockout). */
  async setPin(operatorId: string, pin: string): Promise<OperatorView> {
    this.existing(operatorId)
    if (!PIN_SHAPE.test(pin)) throw new PosError('PIN_INVALID', 'a PIN is 4 to 8 digits')
    this.store.setPin(operatorId, await this.hasher.hash(pin))
    return this.view(this.store.get(operatorId)!)
  }

  /** Lifts a lockout (and the count of wrong PINs) without changing the PIN, and says whether there was one. */
  unlock(operatorId: string): OperatorView & { wasLocked: boolean } {
    const record = this.existing(operatorId)
    const wasLocked = record.lockedUntil !== undefined && record.lockedUntil > this.now()
    this.store.clearAttempts(operatorId)
    return { ...this.view(this.store.get(operatorId)!), wasLocked }
  }

  /** An operator who no longer works here; the last manager stays (the terminal would have none). */
  disable(operatorId: string): OperatorView {
    const record = this.existing(operatorId)
    if (record.role === 'manager' && record.disabledAt === undefined && this.store.activeManagerCount() === 1)
      throw new PosError('LAST_MANAGER', 'the last manager cannot be disabled: add another manager first')
    this.store.disable(operatorId, this.now())
    return this.view(this.store.get(operatorId)!)
  }

  private existing(operatorId: string): OperatorRecord {
    const record = this.store.get(operatorId)
    if (!record) throw new PosError('NOT_FOUND', `no operator ${operatorId}`)
    return record
  }

  /** A number that is no operator: counted and locked in memory exactly as a wrong PIN would be. */
  private refuseUnknown(operatorId: string, now: number): never {
    const previous = this.unknown.get(operatorId)
    if (previous?.lockedUntil !== undefined && previous.lockedUntil > now) throw locked()
    const attempt = previous?.lockedUntil !== undefined ? 1 : (previous?.attempt ?? 0) + 1
    // Forget the oldest first: an attacker cycling through numbers must not grow this without bound.
    if (this.unknown.size >= UNKNOWN_KEPT && !this.unknown.has(operatorId)) this.unknown.delete(this.unknown.keys().next().value!)
    this.unknown.delete(operatorId)
    this.unknown.set(operatorId, attempt >= MAX_WRONG_PINS ? { attempt, lockedUntil: now + LOCKOUT_MS } : { attempt })
    if (attempt >= MAX_WRONG_PINS) throw locked()
    throw wrongPin(attempt)
  }

  private decoyHash: Promise<string> | undefined
  /** Made once, at the first refusal that needs it; every later one checks against it, like a real hash. */
  private decoy(): Promise<string> {
    this.decoyHash ??= this.hasher.hash('decoy-pin')
    return this.decoyHash
  }

  private view(record: OperatorRecord): OperatorView {
    const locked = record.lockedUntil !== undefined && record.lockedUntil > this.now()
    return {
      id: record.id,
      name: record.name,
      role: record.role,
      createdAt: record.createdAt,
      disabled: record.disabledAt !== undefined,
      ...(locked ? { lockedUntil: record.lockedUntil } : {}),
    }
  }
}

/** How many unknown numbers' tries are remembered. */
const UNKNOWN_KEPT = 10_000

/**
 * The same words whether the number exists or not, with the tries left before the lock: a number that
 * is nobody's counts down exactly as a real one does (refuseUnknown), and the one manager of a shop
 * must see the lock coming rather than lock the counter for fifteen minutes unwarned.
 */
function wrongPin(attempt: number): PosError {
  const left = Math.max(0, MAX_WRONG_PINS - attempt)
  return new PosError(
    'PIN_WRONG',
    `no such operator, or a wrong PIN: ${left} ${left === 1 ? 'try' : 'tries'} left before this number is locked for ${LOCKOUT_MS / 60_000} minutes`,
  )
}

function locked(): PosError {
  return new PosError('OPERATOR_LOCKED', `locked for ${LOCKOUT_MS / 60_000} minutes after ${MAX_WRONG_PINS} wrong PINs in a row`)
}
