/**
 * Who works at this terminal, and the rules for them: cashier and manager accounts, each with an
 * operator number and a PIN (4 to 8 digits, kept as a scrypt hash: pin-hash.ts), signing in, and a
 * manager's approval. Five wrong PINs in a row lock the operator for fifteen minutes (a wrong PIN
 * while locked does not even get checked); a correct PIN clears the count. An unknown number and a
 * wrong PIN are refused with the same words, so the refusal does not tell which numbers exist. The
 * first operator of a terminal is a manager, made without approval; after that only a manager
 * adds, re-PINs or disables operators.
 */
import { PosError } from '../../src-shared/errors'
import type { OperatorRecord, OperatorRole, OperatorStore } from '../journal'
import { DEFAULT_PIN_COST, hashPin, pinMatches, type PinHashCost } from './pin-hash'

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
  constructor(
    private readonly store: OperatorStore,
    private readonly now: () => number = Date.now,
    private readonly cost: PinHashCost = DEFAULT_PIN_COST,
  ) {}

  list(): OperatorView[] {
    return this.store.list().map((record) => this.view(record))
  }

  /** Whether this terminal has a manager yet (until then, the first operator made is one, unapproved). */
  hasManager(): boolean {
    return this.store.activeManagerCount() > 0
  }

  async add(operator: NewOperator, approval?: Credential): Promise<OperatorView> {
    if (this.hasManager()) await this.approve(approval)
    else if (operator.role !== 'manager') throw new PosError('MANAGER_REQUIRED', 'the first operator of a terminal is a manager')
    if (!ID_SHAPE.test(operator.operatorId)) throw new PosError('INVALID_REQUEST', 'an operator number is 1 to 16 letters or digits')
    const name = operator.name.trim()
    if (name.length === 0 || name.length > 64) throw new PosError('INVALID_REQUEST', 'an operator name is 1 to 64 characters')
    if (!PIN_SHAPE.test(operator.pin)) throw new PosError('PIN_INVALID', 'a PIN is 4 to 8 digits')
    if (this.store.get(operator.operatorId)) throw new PosError('OPERATOR_EXISTS', `operator ${operator.operatorId} exists already`)
    const createdAt = this.now()
    this.store.add({ id: operator.operatorId, name, role: operator.role, pinHash: await hashPin(operator.pin, this.cost), createdAt })
    return this.view(this.store.get(operator.operatorId)!)
  }

  /** Signs in: the operator, when the PIN is theirs; counts a wrong one, and locks after too many. */
  async verify(credential: Credential | undefined): Promise<OperatorView> {
    const record = credential ? this.store.get(credential.operatorId) : undefined
    if (!credential || !record || record.disabledAt !== undefined) {
      // The same refusal as a wrong PIN; a PIN is still hashed so that the time does not tell either.
      await pinMatches(credential?.pin ?? '', await this.decoy())
      throw new PosError('PIN_WRONG', 'no such operator, or a wrong PIN')
    }
    const now = this.now()
    if (record.lockedUntil !== undefined && record.lockedUntil > now)
      throw new PosError('OPERATOR_LOCKED', `operator ${record.id} is locked until ${new Date(record.lockedUntil).toISOString()}`)
    if (!(await pinMatches(credential.pin, record.pinHash))) {
      const wrong = record.failedAttempts + 1
      const locks = wrong >= MAX_WRONG_PINS
      this.store.setAttempts(record.id, locks ? 0 : wrong, locks ? now + LOCKOUT_MS : undefined)
      if (locks) throw new PosError('OPERATOR_LOCKED', `operator ${record.id} is locked after ${MAX_WRONG_PINS} wrong PINs`)
      throw new PosError('PIN_WRONG', `wrong PIN for operator ${record.id} (${wrong} of ${MAX_WRONG_PINS})`)
    }
    if (record.failedAttempts > 0 || record.lockedUntil !== undefined) this.store.setAttempts(record.id, 0, undefined)
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
  async setPin(operatorId: string, pin: string, approval: Credential | undefined): Promise<OperatorView> {
    await this.approve(approval)
    const record = this.store.get(operatorId)
    if (!record) throw new PosError('NOT_FOUND', `no operator ${operatorId}`)
    if (!PIN_SHAPE.test(pin)) throw new PosError('PIN_INVALID', 'a PIN is 4 to 8 digits')
    this.store.setPin(operatorId, await hashPin(pin, this.cost))
    return this.view(this.store.get(operatorId)!)
  }

  /** An operator who no longer works here; the last manager stays (the terminal would have none). */
  async disable(operatorId: string, approval: Credential | undefined): Promise<OperatorView> {
    await this.approve(approval)
    const record = this.store.get(operatorId)
    if (!record) throw new PosError('NOT_FOUND', `no operator ${operatorId}`)
    if (record.role === 'manager' && record.disabledAt === undefined && this.store.activeManagerCount() === 1)
      throw new PosError('INVALID_REQUEST', 'the last manager cannot be disabled: add another manager first')
    this.store.disable(operatorId, this.now())
    return this.view(this.store.get(operatorId)!)
  }

  private decoyHash: Promise<string> | undefined
  private decoy(): Promise<string> {
    this.decoyHash ??= hashPin('decoy-pin', this.cost)
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
