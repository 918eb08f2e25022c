/**
 * One register's connection, whatever carries it (TCP or the serial line): APDUs in, APDUs out, and the
 * acknowledgement each message the terminal sends is owed (PA00P015 §2.2: the register answers every
 * `04 FF`, `04 0F`, `06 0F` and `06 1E` with `80 00 00`, or `84 9C 00` to have status information sent
 * again). While the terminal waits for an acknowledgement, an APDU that is one settles it; anything
 * else is a command, so a register can ask the status or abort while a payment runs.
 */
import { controlOf, encodeApdu, type Apdu } from './zvt-apdu'

/** The transport under a session: sends one APDU's bytes, closes the connection. */
export interface ZvtLink {
  send(bytes: Uint8Array): void
  close(): void
}

export type Acknowledgement = 'ok' | 'repeat' | 'refused' | 'none'

/** How long a register may take to acknowledge (PA00P016's T3, 5 s); then the terminal goes on without it. */
export const ACK_TIMEOUT_MS = 5_000

/** Sending the same status information again when asked: at most this many times. */
const REPEATS = 3

export class ZvtSession {
  private waiting: ((answer: Acknowledgement) => void) | undefined
  private outbox: Promise<unknown> = Promise.resolve()
  private open = true

  constructor(
    private readonly link: ZvtLink,
    /** The register's address, for the log and the password lockout. */
    readonly register: string,
    private readonly ackTimeoutMs = ACK_TIMEOUT_MS,
  ) {}

  get connected(): boolean {
    return this.open
  }

  /** An APDU from the register: an acknowledgement awaited (true), or a command for the terminal (false). */
  settles(message: Apdu): boolean {
    if (this.waiting === undefined || (message.cls !== 0x80 && message.cls !== 0x84)) return false
    const resolve = this.waiting
    this.waiting = undefined
    const control = controlOf(message)
    resolve(control === 0x8000 ? 'ok' : control === 0x849c ? 'repeat' : 'refused')
    return true
  }

  /** An acknowledgement of the register's command (`80 00 00`, `84 xx 00`): owed no answer. */
  reply(message: Apdu): void {
    this.write(message)
  }

  /**
   * A message the register acknowledges, in order after those before it; status information is sent
   * again while the register asks (`84 9C`). Resolves with how the register answered.
   */
  deliver(message: Apdu): Promise<Acknowledgement> {
    const next = this.outbox.then(async () => {
      for (let round = 0; round <= REPEATS; round++) {
        if (!this.open) return 'none' as const
        const answer = new Promise<Acknowledgement>((resolve) => {
          const timer = setTimeout(() => {
            if (this.waiting === settle) this.waiting = undefined
            resolve('none')
          }, this.ackTimeoutMs)
          const settle = (value: Acknowledgement): void => {
            clearTimeout(timer)
            resolve(value)
          }
          this.waiting = settle
        })
        this.write(message)
        const got = await answer
        if (got !== 'repeat' || controlOf(message) !== 0x040f) return got
      }
      return 'refused' as const
    })
    this.outbox = next.catch(() => undefined)
    return next
  }

  closed(): void {
    this.open = false
    const resolve = this.waiting
    this.waiting = undefined
    resolve?.('none')
  }

  private write(message: Apdu): void {
    if (this.open) this.link.send(encodeApdu(message))
  }
}
