/**
 * The terminal's rules that a whole agent makes hard to time: an Abort while the card is awaited, the
 * Status Enquiry answered in the middle of a payment, the password lockout. The service is a fake
 * that holds the sale at the card prompt until the test moves it on; the bytes are real.
 */
import { EventEmitter } from 'node:events'
import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SaleView } from '../../../src-shared/contract'
import { PosError } from '../../../src-shared/errors'
import { apdu, controlOf, encodeAmount, encodeApdu, encodeBcd, encodeBmps, type Apdu } from '../../../src-main/zvt'
import { ZvtSession } from '../../../src-main/zvt/zvt-session'
import { ZvtTerminal, type ZvtService } from '../../../src-main/zvt/zvt-terminal'

const show = (message: Apdu): string => Buffer.from(encodeApdu(message)).toString('hex')

function sale(state: SaleView['state'], extra: Partial<SaleView> = {}): SaleView {
  return {
    id: 'sale-1',
    state,
    amountMinor: 1000,
    currency: 'EUR',
    tipMinor: 0,
    tipState: 'none',
    autoCapture: true,
    offline: false,
    reference: 'zvt:1',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    businessDay: '2026-11-28',
    ...extra,
  }
}

/** The agent as far as the terminal sees it: one sale, moved by the test. */
class FakeService extends EventEmitter implements ZvtService {
  current: SaleView | undefined
  readonly calls: string[] = []

  async call(_caller: unknown, operation: string, request: unknown): Promise<never> {
    this.calls.push(operation)
    const answer = ((): unknown => {
      switch (operation) {
        case 'dayReport':
          return { batch: { number: 1 } }
        case 'listSales':
          return this.current ? [this.current] : []
        case 'deviceStatus':
          return { connected: true, busy: false }
        case 'startSale':
          this.current = sale('readingCard', { amountMinor: (request as { amountMinor: number }).amountMinor })
          return this.current
        case 'getSale':
          return this.current
        case 'getSaleByReference':
          if (this.current?.reference === (request as { reference: string }).reference) return this.current
          throw new PosError('NO_SUCH_SALE', 'no such sale')
        case 'cancelSale':
          if (this.current?.state !== 'readingCard') throw new PosError('CANNOT_CANCEL', 'too late')
          this.move('abandoned')
          return this.current
        default:
          throw new PosError('FORBIDDEN', `${operation} is not faked`)
      }
    })()
    return answer as never
  }

  move(state: SaleView['state'], extra: Partial<SaleView> = {}): void {
    this.current = { ...this.current!, state, ...extra }
    this.emit('event', { type: 'sale', sale: this.current })
  }
}

function setUp(now = { at: 0 }, onSent?: (message: Apdu) => void) {
  const service = new FakeService()
  const terminal = new ZvtTerminal({
    service,
    password: '123456',
    grant: { id: 'zvt', name: 'ZVT registers', scopes: ['read', 'sell'] },
    terminalId: '52523535',
    merchantId: 'M1',
    currency: 'EUR',
    training: false,
    version: 'test',
    logger: pino({ level: 'silent' }),
    now: () => now.at,
  })
  const sent: Apdu[] = []
  const session = new ZvtSession(
    {
      send: (bytes) => {
        sent.push(decodeSent(bytes))
        onSent?.(sent.at(-1)!)
      },
      close: () => undefined,
    },
    '10.0.0.9:4000',
    1_000,
  )
  // The register acknowledges what it is owed, as a register does.
  const receive = (message: Apdu): Promise<void> => terminal.receive(session, message)
  return { service, terminal, session, sent, receive }
}

function decodeSent(bytes: Uint8Array): Apdu {
  const long = bytes[2] === 0xff
  return apdu(bytes[0]!, bytes[1]!, bytes.subarray(long ? 5 : 3))
}

const EUR = encodeBcd(978, 2)
const pay = (minor: number): Apdu =>
  apdu(
    0x06,
    0x01,
    encodeBmps([
      { bmp: 0x04, value: encodeAmount(minor) },
      { bmp: 0x49, value: EUR },
    ]),
  )
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(check()).toBe(true)
}

describe('the ZVT terminal', () => {
  afterEach(() => vi.useRealTimers())

  it('says its prompt (04 FF) again while the customer is slow at the reader, so the register’s T4 never runs out', async () => {
    // Only the interval and the clock are the test's; the session's own timers stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    // The register: acknowledges what it is owed, and keeps a T4 timer that every message restarts
    // (PA00P016 §5.2.6). Ten seconds here; the terminal's repeat must come within it.
    const T4_MS = 10_000
    let heard: number
    let longestSilence = 0
    const owed = new Set([0x04ff, 0x040f, 0x060f])
    const link: { terminal?: ZvtTerminal; session?: ZvtSession } = {}
    const { service, sent, terminal, session } = setUp({ at: 0 }, (message) => {
      heard = Date.now()
      if (owed.has(controlOf(message))) queueMicrotask(() => void link.terminal!.receive(link.session!, apdu(0x80, 0x00)))
    })
    link.terminal = terminal
    link.session = session
    // Registration with config byte 08: the register wants intermediate statuses.
    await terminal.receive(session, apdu(0x06, 0x00, [...encodeBcd(123456, 3), 0x08, ...EUR]))
    const paying = terminal.receive(session, pay(1000))
    await until(() => sent.some((m) => controlOf(m) === 0x04ff))
    heard = Date.now()
    // A minute at the card prompt, a second at a time, as the register's clock sees it.
    for (let second = 0; second < 60; second++) {
      vi.advanceTimersByTime(1_000)
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
      longestSilence = Math.max(longestSilence, Date.now() - heard)
    }
    expect(longestSilence).toBeLessThan(T4_MS)
    const prompts = sent.filter((m) => controlOf(m) === 0x04ff)
    expect(prompts.length).toBeGreaterThan(6)
    expect(new Set(prompts.map(show))).toEqual(new Set(['04ff010a']))
    service.move('approved', { authCode: 'A1B2C3' })
    await paying
    // Once the payment has ended the prompt is not said again.
    const before = sent.length
    vi.advanceTimersByTime(30_000)
    await new Promise((resolve) => setImmediate(resolve))
    expect(sent.length).toBe(before)
    expect(controlOf(sent.at(-1)!)).toBe(0x060f)
  })

  it('an Abort (06 B0) while the card is awaited stops the payment: 04 0F with 6C, then 06 1E 6C', async () => {
    const { service, sent, receive } = setUp()
    const paying = receive(pay(1000))
    await until(() => sent.some((m) => show(m) === '800000'))
    // Mid-payment, the Status Enquiry is answered too: 9C, a payment is running.
    void receive(apdu(0x05, 0x01))
    await until(() => sent.some((m) => controlOf(m) === 0x060f))
    const status = sent.find((m) => controlOf(m) === 0x060f)!
    expect(status.data.at(-1)).toBe(0x9c)
    await receive(apdu(0x80, 0x00))
    void receive(apdu(0x06, 0xb0))
    await until(() => sent.some((m) => controlOf(m) === 0x040f))
    expect(service.calls).toContain('cancelSale')
    const info = sent.find((m) => controlOf(m) === 0x040f)!
    expect(show(info).slice(0, 10)).toMatch(/^040f..276c$/)
    await receive(apdu(0x80, 0x00))
    await until(() => sent.some((m) => controlOf(m) === 0x061e))
    await receive(apdu(0x80, 0x00))
    await paying
    expect(show(sent.find((m) => controlOf(m) === 0x061e)!)).toBe('061e016c')
  })

  it('an Abort with nothing running, and one too late, change nothing', async () => {
    const { service, sent, receive } = setUp()
    await receive(apdu(0x06, 0xb0))
    expect(sent.map(show)).toEqual(['848300'])
    const paying = receive(pay(1000))
    await until(() => sent.some((m) => show(m) === '800000'))
    service.move('sending')
    void receive(apdu(0x06, 0xb0))
    await until(() => service.calls.includes('cancelSale'))
    service.move('approved', { authCode: 'A1B2C3' })
    await until(() => sent.some((m) => controlOf(m) === 0x040f))
    await receive(apdu(0x80, 0x00))
    await until(() => sent.some((m) => controlOf(m) === 0x060f))
    await receive(apdu(0x80, 0x00))
    await paying
    expect(service.current?.state).toBe('approved')
  })

  it('locks a register out after ten wrong passwords in fifteen minutes, the right one included, then lets it in again', async () => {
    const now = { at: 1_000_000 }
    const { sent, receive } = setUp(now)
    const registration = (password: number): Apdu => apdu(0x06, 0x00, [...encodeBcd(password, 3), 0x00, ...EUR])
    for (let i = 0; i < 10; i++) await receive(registration(654321))
    expect(sent.map(show)).toEqual(Array(10).fill('848300'))
    sent.length = 0
    await receive(registration(123456))
    expect(sent.map(show)).toEqual(['848300'])
    now.at += 15 * 60_000 + 1
    sent.length = 0
    const done = receive(registration(123456))
    await until(() => sent.some((m) => controlOf(m) === 0x060f))
    await receive(apdu(0x80, 0x00))
    await done
    expect(sent.map((m) => controlOf(m).toString(16))).toEqual(['8000', '60f'])
  })

  it('an End-of-Day the service refuses (06 50) ends with 06 1E 77, "end-of-day batch not possible"', async () => {
    const { sent, receive } = setUp()
    const closing = receive(apdu(0x06, 0x50, [...encodeBcd(123456, 3)]))
    await until(() => sent.some((m) => controlOf(m) === 0x061e))
    await receive(apdu(0x80, 0x00))
    await closing
    expect(sent.map(show)).toEqual(['800000', '061e0177'])
  })

  it('refuses a currency that is not the terminal’s (84 6F) and an unknown command (84 83)', async () => {
    const { sent, receive } = setUp()
    await receive(
      apdu(
        0x06,
        0x01,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(100) },
          { bmp: 0x49, value: encodeBcd(840, 2) },
        ]),
      ),
    )
    await receive(apdu(0x06, 0x70))
    expect(sent.map(show)).toEqual(['846f00', '848300'])
  })
})
