/**
 * Every state × every event of the transaction machine. The allowed transitions are listed here by
 * hand (they are the table in docs/transactions.md); every pair not listed must be refused.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { transition } from '../../../src-main/txn/txn-machine'
import { TXN_STATES, type Sale, type TxnEvent, type TxnState } from '../../../src-main/txn/txn-types'

const EVENTS: Record<string, TxnEvent> = {
  readCard: { type: 'readCard' },
  returnRequested: { type: 'returnRequested' },
  'cardRead(chip)': { type: 'cardRead', chip: true, duplicate: false },
  'cardRead(duplicate)': { type: 'cardRead', chip: true, duplicate: true },
  cardNotRead: { type: 'cardNotRead', reason: 'timeout' },
  duplicateConfirmed: { type: 'duplicateConfirmed' },
  duplicateRefused: { type: 'duplicateRefused' },
  'paymentAnswered(approved)': { type: 'paymentAnswered', answer: { kind: 'approved', authCode: 'A1B2C3' } },
  'paymentAnswered(declined)': { type: 'paymentAnswered', answer: { kind: 'declined', reason: 'insufficient funds' } },
  'paymentAnswered(rejected)': { type: 'paymentAnswered', answer: { kind: 'rejected', code: 'V0008', message: 'x' } },
  'paymentAnswered(notDelivered, eligible)': { type: 'paymentAnswered', answer: { kind: 'notDelivered', offline: { eligible: true } } },
  'paymentAnswered(notDelivered, not eligible)': {
    type: 'paymentAnswered',
    answer: { kind: 'notDelivered', offline: { eligible: false, reason: 'swipe' } },
  },
  'paymentAnswered(unknown)': { type: 'paymentAnswered', answer: { kind: 'unknown', reason: 'timeout' } },
  'cardCompleted(TC)': { type: 'cardCompleted', decision: 'approved' },
  'cardCompleted(AAC)': { type: 'cardCompleted', decision: 'declined' },
  'forwardAnswered(payment approved)': { type: 'forwardAnswered', operation: 'payment', answer: { kind: 'approved' } },
  'forwardAnswered(payment declined)': { type: 'forwardAnswered', operation: 'payment', answer: { kind: 'declined', reason: 'x' } },
  'forwardAnswered(reversal approved)': { type: 'forwardAnswered', operation: 'reversal', answer: { kind: 'approved' } },
  'forwardAnswered(cancel approved)': { type: 'forwardAnswered', operation: 'cancel', answer: { kind: 'approved' } },
  'forwardAnswered(cancel declined)': { type: 'forwardAnswered', operation: 'cancel', answer: { kind: 'declined', reason: 'B0040' } },
  'forwardAnswered(capture approved)': { type: 'forwardAnswered', operation: 'capture', answer: { kind: 'approved' } },
  'forwardAnswered(rejected)': { type: 'forwardAnswered', operation: 'payment', answer: { kind: 'rejected', code: 'V0008', message: 'x' } },
  forwardGaveUp: { type: 'forwardGaveUp', operation: 'payment', reason: 'too old' },
  managerRetry: { type: 'managerRetry' },
  attentionAcknowledged: { type: 'attentionAcknowledged' },
  closeOverridden: { type: 'closeOverridden' },
  'voidRequested(queued)': { type: 'voidRequested', paymentQueue: 'neverSent' },
  'voidRequested(queued, maybe sent)': { type: 'voidRequested', paymentQueue: 'maybeSent' },
  'voidRequested(not queued)': { type: 'voidRequested', paymentQueue: 'none' },
  'voidRequested(queued, store copy may remain)': { type: 'voidRequested', paymentQueue: 'neverSent', storeCopy: 'mayRemain' },
  'voidRequested(queued, store copy withdrawn)': { type: 'voidRequested', paymentQueue: 'neverSent', storeCopy: 'withdrawn' },
  storeCopyMissing: { type: 'storeCopyMissing' },
  voidCardRead: { type: 'voidCardRead' },
  voidCardNotRead: { type: 'voidCardNotRead', reason: 'cancelled' },
  captureRequested: { type: 'captureRequested' },
  returnCardRead: { type: 'returnCardRead' },
  returnCardNotRead: { type: 'returnCardNotRead', reason: 'another card' },
  'forwardAnswered(credit approved)': { type: 'forwardAnswered', operation: 'merchandiseCredit', answer: { kind: 'approved' } },
  'forwardAnswered(credit declined)': {
    type: 'forwardAnswered',
    operation: 'merchandiseCredit',
    answer: { kind: 'declined', reason: 'expired card' },
  },
  recovered: { type: 'recovered' },
}

/** The allowed transitions: [from, event] → to. Tip requests are tested separately (a parallel region). */
const ALLOWED: Array<[TxnState, string, TxnState]> = [
  ['created', 'readCard', 'readingCard'],
  ['created', 'returnRequested', 'returnReadingCard'],
  ['created', 'recovered', 'abandoned'],
  ['readingCard', 'cardRead(chip)', 'sending'],
  ['readingCard', 'cardRead(duplicate)', 'awaitingConfirmation'],
  ['readingCard', 'cardNotRead', 'abandoned'],
  ['readingCard', 'recovered', 'abandoned'],
  ['awaitingConfirmation', 'duplicateConfirmed', 'sending'],
  ['awaitingConfirmation', 'duplicateRefused', 'abandoned'],
  ['awaitingConfirmation', 'recovered', 'abandoned'],
  ['sending', 'paymentAnswered(approved)', 'completingCard'],
  ['sending', 'paymentAnswered(declined)', 'declined'],
  ['sending', 'paymentAnswered(rejected)', 'declined'],
  ['sending', 'paymentAnswered(notDelivered, eligible)', 'completingCard'],
  ['sending', 'paymentAnswered(notDelivered, not eligible)', 'declined'],
  ['sending', 'paymentAnswered(unknown)', 'reversalPending'],
  ['sending', 'recovered', 'reversalPending'],
  ['completingCard', 'cardCompleted(TC)', 'approved'],
  ['completingCard', 'cardCompleted(AAC)', 'reversalPending'],
  ['completingCard', 'recovered', 'reversalPending'],
  ['approved', 'voidRequested(queued)', 'voidReadingCard'],
  ['approved', 'voidRequested(not queued)', 'voidReadingCard'],
  ['approved', 'voidRequested(queued, maybe sent)', 'voidReadingCard'],
  ['approved', 'captureRequested', 'capturePending'],
  ['approved', 'forwardGaveUp', 'needsAttention'],
  ['storedOffline', 'forwardAnswered(payment approved)', 'forwarded'],
  ['storedOffline', 'forwardAnswered(payment declined)', 'needsAttention'],
  ['storedOffline', 'forwardAnswered(rejected)', 'needsAttention'],
  ['storedOffline', 'forwardGaveUp', 'needsAttention'],
  ['storedOffline', 'voidRequested(queued)', 'cancelled'],
  ['storedOffline', 'voidRequested(queued, maybe sent)', 'cancelPending'],
  ['storedOffline', 'voidRequested(not queued)', 'cancelPending'],
  ['storedOffline', 'voidRequested(queued, store copy may remain)', 'cancelPending'],
  ['storedOffline', 'voidRequested(queued, store copy withdrawn)', 'cancelled'],
  ['approved', 'voidRequested(queued, store copy may remain)', 'voidReadingCard'],
  ['approved', 'voidRequested(queued, store copy withdrawn)', 'voidReadingCard'],
  ['forwarded', 'voidRequested(queued, store copy may remain)', 'voidReadingCard'],
  ['forwarded', 'voidRequested(queued, store copy withdrawn)', 'voidReadingCard'],
  ['forwarded', 'voidRequested(queued)', 'voidReadingCard'],
  ['forwarded', 'voidRequested(not queued)', 'voidReadingCard'],
  ['forwarded', 'voidRequested(queued, maybe sent)', 'voidReadingCard'],
  ['forwarded', 'captureRequested', 'capturePending'],
  ['forwarded', 'forwardGaveUp', 'needsAttention'],
  ['reversalPending', 'forwardAnswered(reversal approved)', 'reversed'],
  ['needsAttention', 'attentionAcknowledged', 'notReceived'],
  ['storedOffline', 'captureRequested', 'capturePending'],
  ['capturePending', 'forwardAnswered(payment approved)', 'capturePending'],
  ['capturePending', 'forwardAnswered(payment declined)', 'needsAttention'],
  ['capturePending', 'forwardAnswered(rejected)', 'needsAttention'],
  ['needsAttention', 'closeOverridden', 'needsAttention'],
  ['cancelPending', 'forwardAnswered(reversal approved)', 'cancelled'],
  ['reversalPending', 'forwardGaveUp', 'needsAttention'],
  ['voidReadingCard', 'voidCardRead', 'cancelPending'],
  ['voidReadingCard', 'voidCardNotRead', 'approved'],
  ['voidReadingCard', 'recovered', 'approved'],
  ['cancelPending', 'forwardAnswered(cancel approved)', 'cancelled'],
  ['cancelPending', 'forwardAnswered(cancel declined)', 'approved'],
  ['cancelPending', 'forwardGaveUp', 'needsAttention'],
  ['capturePending', 'forwardAnswered(capture approved)', 'captured'],
  ['capturePending', 'forwardGaveUp', 'needsAttention'],
  ['captured', 'forwardGaveUp', 'needsAttention'],
  ['needsAttention', 'managerRetry', 'storedOffline'],
  ['returnReadingCard', 'returnCardRead', 'creditPending'],
  ['returnReadingCard', 'returnCardNotRead', 'abandoned'],
  ['returnReadingCard', 'recovered', 'abandoned'],
  ['creditPending', 'forwardAnswered(credit approved)', 'credited'],
  ['creditPending', 'forwardAnswered(credit declined)', 'declined'],
  ['creditPending', 'forwardGaveUp', 'needsAttention'],
]

const base = (state: TxnState): Sale => ({
  id: 'T1-00000001',
  state,
  amountMinor: 1000,
  currency: 'USD',
  autoCapture: false,
  offline: false,
  chip: true,
  tipMinor: 0,
  tipState: 'none',
  ...(state === 'needsAttention' ? { attentionFrom: 'storedOffline' as const } : {}),
  ...(state === 'returnReadingCard' ? { kind: 'return' as const, credit: { leftMinor: 1000, limit: 'of this sale' } } : {}),
})

describe('every state × every event', () => {
  for (const state of TXN_STATES) {
    for (const [name, event] of Object.entries(EVENTS)) {
      const allowed = ALLOWED.find(([from, ev]) => from === state && ev === name)
      it(`${state} + ${name} → ${allowed ? allowed[2] : 'refused'}`, () => {
        // An acknowledgement is for a declined stored payment: nothing left to send (no attentionFrom).
        const sale = event.type === 'attentionAcknowledged' ? { ...base(state), attentionFrom: undefined } : base(state)
        const result = transition(sale, event)
        if (allowed) {
          expect(result.ok).toBe(true)
          expect(result.ok && result.sale.state).toBe(allowed[2])
        } else {
          expect(result).toMatchObject({ ok: false })
        }
      })
    }
  }
})

describe('effects that carry the guarantees', () => {
  it('an unknown outcome queues a reversal at once and tells the chip to decline', () => {
    const result = transition(base('sending'), EVENTS['paymentAnswered(unknown)']!)
    expect(result.ok && result.effects).toEqual([
      { type: 'completeCard', result: 'declined' },
      { type: 'enqueue', operation: 'reversal', reason: 'timeout' },
      { type: 'purgeCardData' },
    ])
  })

  it('AAC after a host approval reverses with that reason', () => {
    const result = transition(base('completingCard'), EVENTS['cardCompleted(AAC)']!)
    expect(result.ok && result.effects).toEqual([
      { type: 'enqueue', operation: 'reversal', reason: 'card declined after host approval' },
      { type: 'purgeCardData' },
    ])
  })

  it('offline: the chip is asked (Z3), then TC stores the payment and AAC declines it', () => {
    const asked = transition(base('sending'), EVENTS['paymentAnswered(notDelivered, eligible)']!)
    expect(asked.ok && asked.effects).toEqual([{ type: 'completeCard', result: 'unableToGoOnline' }])
    const offline = { ...base('completingCard'), offline: true }
    expect(transition(offline, EVENTS['cardCompleted(TC)']!)).toMatchObject({
      ok: true,
      sale: { state: 'storedOffline' },
      effects: [{ type: 'enqueue', operation: 'payment' }],
    })
    expect(transition(offline, EVENTS['cardCompleted(AAC)']!)).toMatchObject({ ok: true, sale: { state: 'declined' } })
  })

  it('a swipe (no chip dialogue) goes straight to approved or stored', () => {
    const swipe = { ...base('sending'), chip: false }
    expect(transition(swipe, EVENTS['paymentAnswered(approved)']!)).toMatchObject({
      ok: true,
      sale: { state: 'approved' },
      effects: [{ type: 'purgeCardData' }],
    })
    expect(transition(swipe, EVENTS['paymentAnswered(notDelivered, eligible)']!)).toMatchObject({
      ok: true,
      sale: { state: 'storedOffline', offline: true },
    })
  })

  it('card data is purged whenever authorization completes', () => {
    const purges = (state: TxnState, event: string, sale: Partial<Sale> = {}) => {
      const result = transition({ ...base(state), ...sale }, EVENTS[event]!)
      return result.ok && result.effects.some((e) => e.type === 'purgeCardData')
    }
    expect(purges('completingCard', 'cardCompleted(TC)')).toBe(true)
    expect(purges('sending', 'paymentAnswered(declined)')).toBe(true)
    expect(purges('reversalPending', 'forwardAnswered(reversal approved)')).toBe(true)
    expect(purges('storedOffline', 'forwardAnswered(payment approved)')).toBe(true)
    expect(purges('storedOffline', 'forwardAnswered(payment declined)')).toBe(true)
  })

  it('a refused reversal or capture is kept for a manager, whose retry sends it again', () => {
    const reversal = transition(base('reversalPending'), {
      type: 'forwardAnswered',
      operation: 'reversal',
      answer: { kind: 'declined', reason: 'x' },
    })
    expect(reversal).toMatchObject({ ok: true, sale: { state: 'needsAttention', attentionFrom: 'reversalPending' } })
    expect(reversal.ok && reversal.effects.map((e) => e.type)).toEqual(['purgeCardData', 'keepForManager'])
    const capture = transition(base('capturePending'), {
      type: 'forwardAnswered',
      operation: 'capture',
      answer: { kind: 'declined', reason: 'x' },
    })
    expect(capture.ok && capture.effects).toEqual([{ type: 'keepForManager' }])
    expect(transition({ ...base('needsAttention'), attentionFrom: 'reversalPending' }, EVENTS.managerRetry!)).toMatchObject({
      ok: true,
      sale: { state: 'reversalPending' },
      effects: [{ type: 'retryQueued' }],
    })
  })

  it('only a declined stored payment is acknowledged; a sale that still has a message to send is retried instead', () => {
    expect(transition({ ...base('needsAttention'), attentionFrom: 'reversalPending' }, EVENTS.attentionAcknowledged!)).toMatchObject({
      ok: false,
      plain: true,
      reason: expect.stringMatching(/retry it instead/),
    })
  })

  it('every transition that withdraws the waiting items ends a waiting tip (it will never be sent)', () => {
    const withdrawing = ALLOWED.flatMap(([from, event]) => {
      const result = transition({ ...base(from), tipState: 'pending', tipMinor: 200 }, EVENTS[event]!)
      return result.ok && result.effects.some((e) => e.type === 'withdraw') ? [[from, event, result.sale.tipState] as const] : []
    })
    expect(withdrawing.length).toBeGreaterThanOrEqual(3)
    for (const [from, event, tipState] of withdrawing) expect(tipState, `${from} + ${event}`).not.toBe('pending')
  })

  it('every way into a reversal purges the card data in the same commit', () => {
    const into = ALLOWED.filter(([, , to]) => to === 'reversalPending')
    expect(into.length).toBeGreaterThanOrEqual(4)
    for (const [from, event] of into) {
      const result = transition({ ...base(from), chip: true }, EVENTS[event]!)
      expect(result.ok && result.effects.some((e) => e.type === 'purgeCardData'), `${from} + ${event}`).toBe(true)
    }
  })

  it('a stored payment that may have reached the host is not withdrawn: it is reversed, and reads cancelled once the host confirms', () => {
    expect(transition(base('storedOffline'), EVENTS['voidRequested(queued, maybe sent)']!)).toMatchObject({
      ok: true,
      sale: { state: 'cancelPending' },
      effects: [{ type: 'withdraw' }, { type: 'enqueue', operation: 'reversal' }, { type: 'purgeCardData' }],
    })
    expect(transition(base('cancelPending'), EVENTS['forwardAnswered(reversal approved)']!)).toMatchObject({
      ok: true,
      sale: { state: 'cancelled' },
    })
  })

  it('a stored payment still queued is withdrawn, one in flight cannot be voided yet', () => {
    expect(transition(base('storedOffline'), EVENTS['voidRequested(queued)']!)).toMatchObject({
      ok: true,
      effects: [{ type: 'withdraw' }, { type: 'purgeCardData' }],
    })
    expect(transition(base('storedOffline'), { type: 'voidRequested', paymentQueue: 'inflight' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/being forwarded/),
    })
  })

  it('a stored payment whose copy the store may still hold is reversed, not withdrawn in silence: a rescue could still send the copy', () => {
    expect(transition(base('storedOffline'), EVENTS['voidRequested(queued, store copy may remain)']!)).toMatchObject({
      ok: true,
      sale: { state: 'cancelPending', reason: expect.stringMatching(/waiting for the bank/) },
      effects: [{ type: 'withdraw' }, { type: 'enqueue', operation: 'reversal' }, { type: 'purgeCardData' }],
    })
    expect(transition(base('storedOffline'), EVENTS['voidRequested(queued, store copy withdrawn)']!)).toMatchObject({
      ok: true,
      sale: { state: 'cancelled' },
      effects: [{ type: 'withdraw' }, { type: 'purgeCardData' }],
    })
  })

  it('an offline approval the store did not copy in time is declined, nothing queued: a swiped card in sending, a chip card at its completion', () => {
    const swiped = transition({ ...base('sending'), chip: false }, EVENTS.storeCopyMissing!)
    expect(swiped).toMatchObject({ ok: true, sale: { state: 'declined', offline: true, cause: 'bankUnreachable' } })
    expect(swiped.ok && swiped.effects).toEqual([{ type: 'purgeCardData' }])
    const chip = transition({ ...base('completingCard'), offline: true }, EVENTS.storeCopyMissing!)
    expect(chip).toMatchObject({
      ok: true,
      sale: { state: 'declined', reason: expect.stringMatching(/store server did not keep a safe copy of it in time/) },
    })
    expect(chip.ok && chip.effects).toEqual([{ type: 'purgeCardData' }])
  })

  it('autoCapture payments cannot be captured again', () => {
    expect(transition({ ...base('approved'), autoCapture: true }, EVENTS.captureRequested!)).toMatchObject({ ok: false })
  })
})

describe('the cause of a payment that did not go through is recorded where it happens', () => {
  it.each([
    ['sending', 'paymentAnswered(declined)', 'bankDeclined'],
    ['sending', 'paymentAnswered(rejected)', 'bankRefusedMessage'],
    ['sending', 'paymentAnswered(notDelivered, not eligible)', 'bankUnreachable'],
    ['sending', 'paymentAnswered(unknown)', 'noAnswer'],
    ['completingCard', 'cardCompleted(AAC)', 'cardRefused'],
    ['sending', 'recovered', 'interrupted'],
    ['completingCard', 'recovered', 'interrupted'],
  ] as const)('%s + %s → %s', (state, event, cause) => {
    expect(transition(base(state), EVENTS[event]!)).toMatchObject({ ok: true, sale: { cause } })
  })

  it('offline, the card refusing is the card: cardRefused', () => {
    expect(transition({ ...base('completingCard'), offline: true }, EVENTS['cardCompleted(AAC)']!)).toMatchObject({
      sale: { state: 'declined', cause: 'cardRefused' },
    })
  })
})

describe('a return decides on what is left to return, read in the commit of its card', () => {
  it('queues the credit when it still fits, and ends the return, its card purged and nothing sent, when it no longer does', () => {
    const fits = transition({ ...base('returnReadingCard'), credit: { leftMinor: 1000, limit: 'of this sale' } }, EVENTS.returnCardRead!)
    expect(fits).toMatchObject({
      ok: true,
      sale: { state: 'creditPending' },
      effects: [{ type: 'enqueue', operation: 'merchandiseCredit' }],
    })
    const over = transition({ ...base('returnReadingCard'), credit: { leftMinor: 999, limit: 'of this sale' } }, EVENTS.returnCardRead!)
    expect(over).toMatchObject({
      ok: true,
      sale: { state: 'abandoned', reason: 'not returned: only USD 9.99 is left to return of this sale' },
      effects: [{ type: 'purgeCardData' }],
    })
  })

  it('a return that nobody measured credits nothing', () => {
    const unmeasured = transition({ ...base('returnReadingCard'), credit: undefined }, EVENTS.returnCardRead!)
    expect(unmeasured).toMatchObject({ ok: true, sale: { state: 'abandoned' }, effects: [{ type: 'purgeCardData' }] })
  })

  it('a return at the counter holds its amount against the sale: no tip below it, no void', () => {
    const held = { ...base('approved'), tipMinor: 200, returningMinor: 1200 }
    expect(transition(held, { type: 'tipRequested', tipMinor: 0, maxTotalMinor: 1_000_000 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/about to credit USD 12\.00/),
    })
    expect(transition(held, { type: 'tipRequested', tipMinor: 200, maxTotalMinor: 1_000_000 })).toMatchObject({ ok: true })
    expect(transition(held, { type: 'voidRequested', paymentQueue: 'none' })).toMatchObject({ ok: false, plain: true })
  })
})

describe('tips (parallel region)', () => {
  it('no approval lifts the limit of amount plus tip', () => {
    expect(transition(base('approved'), { type: 'tipRequested', tipMinor: 9_000, maxTotalMinor: 10_000 })).toMatchObject({ ok: true })
    expect(transition(base('approved'), { type: 'tipRequested', tipMinor: 9_001, maxTotalMinor: 10_000 })).toMatchObject({
      ok: false,
      plain: true,
      reason: 'amount and tip together may not exceed USD 100.00',
    })
    expect(
      transition(base('approved'), { type: 'tipRequested', tipMinor: Number.MAX_SAFE_INTEGER, maxTotalMinor: 999_999_999_999 }),
    ).toMatchObject({
      ok: false,
    })
  })

  it.each(['approved', 'forwarded', 'storedOffline'] as const)('a tip on %s is queued and keeps the payment state', (state) => {
    const result = transition(base(state), { type: 'tipRequested', tipMinor: 150, maxTotalMinor: 1_000_000 })
    expect(result).toMatchObject({
      ok: true,
      sale: { state, tipMinor: 150, tipState: 'pending' },
      effects: [{ type: 'enqueue', operation: 'tips' }],
    })
  })

  it('a later tip replaces an earlier one; the answer marks it adjusted or failed', () => {
    const first = transition(base('approved'), { type: 'tipRequested', tipMinor: 150, maxTotalMinor: 1_000_000 })
    const second = first.ok ? transition(first.sale, { type: 'tipRequested', tipMinor: 200, maxTotalMinor: 1_000_000 }) : first
    expect(second).toMatchObject({ ok: true, sale: { tipMinor: 200 } })
    const sale = { ...base('approved'), tipState: 'pending' as const, tipMinor: 200 }
    expect(transition(sale, { type: 'forwardAnswered', operation: 'tips', answer: { kind: 'approved' } })).toMatchObject({
      ok: true,
      sale: { state: 'approved', tipState: 'adjusted' },
    })
    expect(transition(sale, { type: 'forwardAnswered', operation: 'tips', answer: { kind: 'declined', reason: 'B0041' } })).toMatchObject({
      ok: true,
      sale: { tipState: 'failed' },
    })
  })

  it.each(TXN_STATES.filter((s) => !['approved', 'forwarded', 'storedOffline'].includes(s)))('no tip while %s', (state) => {
    expect(transition(base(state), { type: 'tipRequested', tipMinor: 100, maxTotalMinor: 1_000_000 })).toMatchObject({ ok: false })
  })

  it('refuses a negative or fractional tip', () => {
    expect(transition(base('approved'), { type: 'tipRequested', tipMinor: -1, maxTotalMinor: 1_000_000 })).toMatchObject({ ok: false })
    expect(transition(base('approved'), { type: 'tipRequested', tipMinor: 1.5, maxTotalMinor: 1_000_000 })).toMatchObject({ ok: false })
  })
})

describe('docs/transactions.md', () => {
  it('lists exactly the allowed transitions tested here', () => {
    const doc = readFileSync('docs/transactions.md', 'utf8')
    // Cells may be padded (the formatter aligns the table's columns).
    const rows = [...doc.matchAll(/^\| `(\w+)` +\| `([^`]+)` +\| `(\w+)` +\|/gm)].map((m) => [m[1], m[2], m[3]])
    expect(rows.sort()).toEqual(ALLOWED.map((r) => [...r]).sort())
  })
})
