/**
 * The terminal's ZVT password (PA00P015: three BCD bytes, six digits, on Registration, Reversal,
 * Refund, End-of-Day and the other administrative commands). It crosses the store's network in clear,
 * so it guards against a wrong button on a register, not an attacker; still, it is compared in constant
 * time and a register that keeps sending wrong ones is locked out as a POS that guesses a manager's
 * PIN is (the service's PIN rule: ten tries in fifteen minutes), before its password is looked at.
 */
import { timingSafeEqual } from 'node:crypto'
import { PIN_TOKEN_WINDOW_MS, PIN_TRIES_PER_TOKEN } from '../service'
import { encodeBcd } from './zvt-bcd'

/** Registers remembered at once (the oldest forgotten first). */
const REGISTERS_KEPT = 1_000

export type PasswordCheck = 'ok' | 'wrong' | 'lockedOut'

export class ZvtPasswordGuard {
  private readonly expected: Uint8Array
  private readonly wrong = new Map<string, number[]>()

  /** `password`: six digits, as the keychain keeps it. */
  constructor(
    password: string,
    private readonly now: () => number = Date.now,
  ) {
    if (!/^\d{6}$/.test(password)) throw new RangeError('the ZVT password is six digits')
    this.expected = encodeBcd(password, 3)
  }

  /** The three password bytes a `register` sent. A wrong one counts against it; a locked-out register is refused unread. */
  check(register: string, sent: Uint8Array): PasswordCheck {
    const now = this.now()
    const recent = (this.wrong.get(register) ?? []).filter((at) => at > now - PIN_TOKEN_WINDOW_MS)
    if (recent.length >= PIN_TRIES_PER_TOKEN) return 'lockedOut'
    if (sent.length === 3 && timingSafeEqual(sent, this.expected)) return 'ok'
    recent.push(now)
    this.wrong.delete(register)
    if (this.wrong.size >= REGISTERS_KEPT) this.wrong.delete(this.wrong.keys().next().value!)
    this.wrong.set(register, recent)
    return 'wrong'
  }
}

/** A new password for a terminal that has none yet: six random digits. */
export function newZvtPassword(random: (max: number) => number): string {
  return String(random(1_000_000)).padStart(6, '0')
}
