/**
 * A cash register as the tests play it: real bytes over a real TCP socket to the agent's ZVT port.
 * It acknowledges what the terminal sends as PA00P015 asks (`80 00 00` for each `04 FF`, `04 0F`,
 * `06 0F`, `06 1E`; or what the test chooses) and records every byte either side sent, in order, for
 * the pcap that Wireshark's dissector reads afterwards.
 */
import { connect, type Socket } from 'node:net'
import {
  apdu,
  ApduReader,
  controlOf,
  decodeBcd,
  encodeAmount,
  encodeApdu,
  encodeBcd,
  encodeBmps,
  findBmp,
  type Apdu,
} from '../../../../src-main/zvt'
import { decodeBody } from '../../../../src-main/zvt/zvt-body'
import type { Chunk } from './pcap-writer'

/** Authorization `06 01` of `minor` cents in USD (BMP 04, BMP 49), as the tests' registers pay. */
export const authorization = (minor: number): Apdu =>
  apdu(
    0x06,
    0x01,
    encodeBmps([
      { bmp: 0x04, value: encodeAmount(minor) },
      { bmp: 0x49, value: encodeBcd(840, 2) },
    ]),
  )

/** What a register reads of a status information `04 0F`: result code (hex), amount and receipt number. */
export function statusOf(message: Apdu): { result: string; amount: number; receipt: number } {
  const body = decodeBody(message)
  if (!body.ok) throw new Error('a status information that does not parse')
  const field = (tag: number): string => {
    const value = findBmp(body.value.fields, tag)?.value
    if (!value) return ''
    const digits = decodeBcd(value, 'field')
    return digits.ok ? digits.value : Buffer.from(value).toString('hex')
  }
  return { result: field(0x27), amount: Number(field(0x04)), receipt: Number(field(0x87)) }
}

/** Messages of the terminal that a register acknowledges. */
const OWED = new Set([0x04ff, 0x040f, 0x060f, 0x061e, 0x06d1, 0x06d3])

export class ZvtRegister {
  readonly received: Apdu[] = []
  private readonly reader = new ApduReader()
  private waiters: (() => void)[] = []
  /** What the register answers the next status information with (then `80 00 00` again). */
  answerNextStatus: Apdu | undefined

  private constructor(
    private readonly socket: Socket,
    private readonly log: Chunk[],
    readonly localPort: number,
  ) {
    socket.on('data', (chunk) => {
      this.log.push({ from: 'terminal', bytes: Uint8Array.from(chunk) })
      for (const message of this.reader.push(chunk)) {
        this.received.push(message)
        if (OWED.has(controlOf(message))) {
          const answer = controlOf(message) === 0x040f && this.answerNextStatus ? this.answerNextStatus : apdu(0x80, 0x00)
          if (controlOf(message) === 0x040f) this.answerNextStatus = undefined
          this.write(answer)
        }
      }
      const waiting = this.waiters
      this.waiters = []
      for (const wake of waiting) wake()
    })
  }

  static open(port: number, log: Chunk[]): Promise<ZvtRegister> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new ZvtRegister(socket, log, socket.localPort ?? 0)))
      socket.once('error', reject)
    })
  }

  send(message: Apdu | Uint8Array): void {
    this.write(message instanceof Uint8Array ? message : message)
  }

  /** Sends a command and waits until the terminal has sent `until` (or an answer ending it). */
  async exchange(message: Apdu | Uint8Array, until: (got: Apdu[]) => boolean = ended, timeoutMs = 30_000): Promise<Apdu[]> {
    const from = this.received.length
    this.send(message)
    await this.waitFor(() => until(this.received.slice(from)), timeoutMs)
    return this.received.slice(from)
  }

  async waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs
    while (!condition()) {
      if (Date.now() > until) throw new Error(`the terminal did not answer in time; received ${this.received.map(show).join(' | ')}`)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      // Already closed by the terminal's side (an agent killed mid-payment): nothing to wait for.
      if (this.socket.closed) return resolve()
      this.socket.once('close', () => resolve())
      this.socket.end()
    })
  }

  private write(message: Apdu | Uint8Array): void {
    const bytes = message instanceof Uint8Array ? message : encodeApdu(message)
    this.log.push({ from: 'register', bytes })
    this.socket.write(bytes)
  }
}

/** A command has ended for the register: Completion, Abort, or a negative acknowledgement. */
export function ended(got: Apdu[]): boolean {
  return got.some((message) => [0x060f, 0x061e].includes(controlOf(message)) || message.cls === 0x84)
}

export const show = (message: Apdu): string => Buffer.from(encodeApdu(message)).toString('hex')
