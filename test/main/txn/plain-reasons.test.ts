/**
 * A sale's reason is read by a cashier or a manager, on a screen, a receipt or an export. Every
 * reason the machine can write is built here from what its real sources produce (the offline policy,
 * the retry policy, the reader's advice tables, the gateway's classification and the forwarder's
 * give-up words), driven through every state × event, and held to the plain-words rule: no "host",
 * no result code, no state, event or message name, no technical token. A new reason written the
 * engineer's way fails here, not in front of a customer.
 */
import { describe, expect, it } from 'vitest'
import { transition } from '../../../src-main/txn/txn-machine'
import { decideOffline, DEFAULT_OFFLINE_LIMITS, type OfflineCandidate, type StoredTotals } from '../../../src-main/txn/offline-policy'
import { afterFailedAttempt, DEFAULT_RETRY_POLICY } from '../../../src-main/txn/retry-policy'
import { TXN_STATES, type Sale, type TxnEvent, type TxnState } from '../../../src-main/txn/txn-types'
import { classifyResponse, NOT_ANSWERED_WORDS } from '../../../src-main/gateway/outcome'
import { describeNeo2Status, describeNeo2TransactionError } from '../../../src-main/device/neo2'
import { READER_ERROR_CODES, ReaderError } from '../../../src-main/device'
import { QUEUE_OPERATIONS, plainReason, saleWords } from '../../../src-shared/sale'
import { INTERNAL_WORDS, internalWordsIn } from '../../support/internal-words'
import type { ReadMethod } from '../../../src-main/device'

/** The words no screen shows, and those a reason in particular must not use. */
const INTERNAL: ReadonlyArray<[string, RegExp]> = [
  ...INTERNAL_WORDS,
  ['"agent" for the terminal', /\bagent\b/i],
  ['a queue operation name', /\b(tips|capture|cancel)\b/],
  ['a technical token', /\b(MsgID|KeyID|SignType|DateTime|JSON|null|undefined|NaN|0x[0-9A-F]+)\b/],
  ['a unit abbreviation', /\d+ ?(h|ms|s)\b/],
  ['a count that does not agree', /\b1 (attempts|tries|hours)\b/],
]

const internalWordsInReason = (text: string): string[] => internalWordsIn(text, INTERNAL)

const currency = 'USD'
const limits = DEFAULT_OFFLINE_LIMITS(currency, 100)
const METHODS: ReadMethod[] = ['chip', 'contactlessChip', 'contactlessMagstripe', 'swipe', 'fallbackSwipe', 'keyed']

/** Every refusal the offline policy can give. */
function offlineReasons(): string[] {
  const reasons = new Set<string>()
  const base: OfflineCandidate = { policy: 'preferOnline', amountMinor: 1000, currency, method: 'chip', onlinePin: false, expired: false }
  const empty: StoredTotals = { count: 0, amountMinor: {}, oldestStoredAt: undefined }
  const candidates: Array<[OfflineCandidate, typeof limits, StoredTotals]> = [
    [{ ...base, policy: 'requireOnline' }, limits, empty],
    [base, { ...limits, enabled: false }, empty],
    [{ ...base, expired: true }, limits, empty],
    ...METHODS.map((method): [OfflineCandidate, typeof limits, StoredTotals] => [{ ...base, method }, limits, empty]),
    [{ ...base, onlinePin: true }, limits, empty],
    [{ ...base, currency: 'EUR' }, limits, empty],
    [{ ...base, amountMinor: 10_000_000 }, limits, empty],
    [base, limits, { count: 1, amountMinor: { [currency]: 499_900 }, oldestStoredAt: undefined }],
    [base, limits, { count: 500, amountMinor: {}, oldestStoredAt: undefined }],
    [base, limits, { count: 1, amountMinor: {}, oldestStoredAt: 0 }],
  ]
  for (const [candidate, withLimits, stored] of candidates) {
    const decision = decideOffline(candidate, withLimits, stored, 100 * 3_600_000)
    if (!decision.eligible) reasons.add(decision.reason)
  }
  return [...reasons]
}

/** Every give-up the retry policy can give, for every queued operation, after one try and after many. */
function retryReasons(): string[] {
  const reasons: string[] = []
  for (const operation of QUEUE_OPERATIONS) {
    for (const maxAttempts of [1, 5]) {
      const verdict = afterFailedAttempt({ ...DEFAULT_RETRY_POLICY, maxAttempts }, operation, maxAttempts, 0, 1, 0.5)
      if (!verdict.retry) reasons.push(verdict.reason)
    }
    const old = afterFailedAttempt(DEFAULT_RETRY_POLICY, operation, 1, 0, 1000 * 3_600_000, 0.5)
    if (!old.retry) reasons.push(old.reason)
  }
  return reasons
}

/** What the reader tells the cashier, from every advice table it has. */
function readerReasons(): string[] {
  const reasons = new Set<string>(['cancelled at the counter', 'no card was presented in time', 'the card reader had a problem'])
  for (let byte = 0; byte < 256; byte++) {
    for (const info of [describeNeo2Status(byte), describeNeo2TransactionError(byte)]) if (info.message) reasons.add(info.message)
  }
  for (const code of READER_ERROR_CODES) reasons.add(new ReaderError(code, 'detail for the log').cashierMessage)
  return [...reasons]
}

/** A decline's words come from the bank (its failure reason, the issuer's), or the agent's default. */
function declineReasons(): string[] {
  const base = { operation: 'payment' as const, merchantTransID: 'M1', msgId: 'X', elapsedMs: 1 }
  const reasons: string[] = []
  for (const record of [{ status: 'Failed' }, { status: 'Failed', failureReason: 'Declined', pspFailureReason: 'insufficient funds' }]) {
    const outcome = classifyResponse(base as never, 200, {
      result: { code: 'S0000' },
      payment: record,
    })
    if (outcome.kind === 'declined') reasons.push(outcome.reason)
  }
  expect(reasons).toHaveLength(2)
  return reasons
}

function eventsFrom(offline: string[], retries: string[], reader: string[], declines: string[]): TxnEvent[] {
  const events: TxnEvent[] = [
    { type: 'readCard' },
    { type: 'cardRead', chip: true, duplicate: true },
    { type: 'cardRead', chip: false, duplicate: false },
    { type: 'duplicateConfirmed' },
    { type: 'duplicateRefused' },
    { type: 'paymentAnswered', answer: { kind: 'approved', authCode: 'A1B2C3' } },
    { type: 'paymentAnswered', answer: { kind: 'rejected', code: 'V0008', message: 'merchantTransID exceeds 32 bytes' } },
    { type: 'paymentAnswered', answer: { kind: 'notDelivered', offline: { eligible: true } } },
    { type: 'paymentAnswered', answer: { kind: 'unknown', reason: 'the response does not echo our MsgID' } },
    { type: 'cardCompleted', decision: 'approved' },
    { type: 'cardCompleted', decision: 'declined' },
    { type: 'managerRetry' },
    { type: 'attentionAcknowledged' },
    { type: 'closeOverridden' },
    { type: 'voidRequested', paymentQueue: 'neverSent' },
    { type: 'voidRequested', paymentQueue: 'maybeSent' },
    { type: 'voidRequested', paymentQueue: 'inflight' },
    { type: 'voidRequested', paymentQueue: 'none' },
    { type: 'voidCardRead' },
    { type: 'tipRequested', tipMinor: 100, maxTotalMinor: 1_000_000 },
    { type: 'tipRequested', tipMinor: -1, maxTotalMinor: 1_000_000 },
    { type: 'captureRequested' },
    { type: 'recovered' },
  ]
  for (const reason of offline)
    events.push({ type: 'paymentAnswered', answer: { kind: 'notDelivered', offline: { eligible: false, reason } } })
  for (const reason of declines) events.push({ type: 'paymentAnswered', answer: { kind: 'declined', reason } })
  for (const reason of reader) events.push({ type: 'cardNotRead', reason }, { type: 'voidCardNotRead', reason })
  for (const operation of QUEUE_OPERATIONS) {
    events.push({ type: 'forwardAnswered', operation, answer: { kind: 'approved' } })
    events.push({ type: 'forwardAnswered', operation, answer: { kind: 'rejected', code: 'V0007', message: 'svcTransID is missing' } })
    for (const reason of declines) events.push({ type: 'forwardAnswered', operation, answer: { kind: 'declined', reason } })
  }
  // The forwarder gives up with the retry policy's words and the last failure's (gateway/outcome.ts).
  for (const reason of retries)
    for (const last of Object.values(NOT_ANSWERED_WORDS))
      for (const operation of QUEUE_OPERATIONS) events.push({ type: 'forwardGaveUp', operation, reason: `${reason}: ${last}` })
  return events
}

function saleIn(state: TxnState, variant: { offline: boolean; autoCapture: boolean; attention: boolean }): Sale {
  return {
    id: 'T1-00000001',
    state,
    amountMinor: 1000,
    currency,
    autoCapture: variant.autoCapture,
    offline: variant.offline,
    chip: true,
    tipMinor: 0,
    tipState: 'pending',
    ...(state === 'needsAttention' && variant.attention ? { attentionFrom: 'storedOffline' as const } : {}),
  }
}

describe('every reason a sale can be given reads plainly', () => {
  const offline = offlineReasons()
  const retries = retryReasons()
  const reader = readerReasons()
  const declines = declineReasons()
  const events = eventsFrom(offline, retries, reader, declines)

  it('the sources give a reason for every way they refuse', () => {
    // Ten distinct offline refusals, three give-ups per operation, the reader's tables: if a source
    // stops producing, this test would prove nothing.
    expect(offline.length).toBeGreaterThanOrEqual(10)
    expect(retries).toHaveLength(QUEUE_OPERATIONS.length * 3)
    expect(reader.length).toBeGreaterThan(10)
  })

  it('as the sources write them', () => {
    const found = [...offline, ...retries, ...reader, ...declines].flatMap(internalWordsInReason)
    expect(found).toEqual([])
  })

  it('as the machine records them, in every state, after every event', () => {
    const found = new Set<string>()
    let reasons = 0
    for (const state of TXN_STATES) {
      for (const offlineSale of [false, true])
        for (const autoCapture of [false, true])
          for (const attention of [false, true]) {
            const sale = saleIn(state, { offline: offlineSale, autoCapture, attention })
            for (const event of events) {
              const result = transition(sale, event)
              // A refusal marked plain is shown to the cashier as it is; others get the catalogue's words.
              const text = result.ok ? result.sale.reason : result.plain ? result.reason : undefined
              if (!text || text === sale.reason) continue
              reasons++
              for (const problem of internalWordsInReason(text)) found.add(`${state} + ${event.type}: ${problem}`)
            }
          }
    }
    expect(reasons).toBeGreaterThan(100)
    expect([...found]).toEqual([])
  })

  it('and none starts by repeating the heading it is shown under', () => {
    // The sale screen shows the heading ("Not completed (being reversed)", "Declined") and then the
    // reason: "Not completed: …" under "Not completed" says the same thing twice.
    const bankWords = [...declines, 'declined by the issuer: Insufficient funds', 'declined by the bank']
    const withBank = [
      ...events,
      ...bankWords.map((reason): TxnEvent => ({ type: 'paymentAnswered', answer: { kind: 'declined', reason } })),
    ]
    const repeated = new Set<string>()
    let pairs = 0
    for (const state of TXN_STATES)
      for (const offlineSale of [false, true])
        for (const autoCapture of [false, true])
          for (const attention of [false, true]) {
            const sale = saleIn(state, { offline: offlineSale, autoCapture, attention })
            for (const event of withBank) {
              const result = transition(sale, event)
              if (!result.ok || !result.sale.reason || result.sale.reason === sale.reason) continue
              const heading = saleWords(result.sale).title
              const reason = plainReason(result.sale.reason)
              pairs++
              const lead = heading.replace(/\s*\(.*\)$/, '').toLowerCase()
              if (reason.toLowerCase().startsWith(lead)) repeated.add(`${heading} / ${reason}`)
            }
          }
    expect(pairs).toBeGreaterThan(100)
    expect([...repeated]).toEqual([])
  })

  it("and the screens' rewriting leaves them as they are", () => {
    // Reasons written for people need no rewriting; plainReason exists for journals of earlier versions.
    for (const reason of [...offline, ...retries])
      expect(plainReason(reason).toLowerCase()).toBe(reason.toLowerCase().replace(/:\s*$/, '.'))
  })
})
