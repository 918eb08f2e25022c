/**
 * The screen tells the truth about money: what "Send now" did, an alarm that is over, the bank's
 * reach after an online answer, the words after a reversed first try, what may be charged again, a
 * refused step in the agent's own words, a closed batch not called blocked, and amounts keyed the
 * sale's way in every field. Pure functions of the state, table-driven.
 */
import { describe, expect, it } from 'vitest'
import { amountTextAfterEdit, entryOfShown } from '../../src-renderer/src/components/AmountInput'
import {
  alarmsWithQueue,
  chargedNothing,
  closeBlockedReason,
  currentQueueNotice,
  describeError,
  earlierChargeReversed,
  forwardingNotice,
  plainReason,
  queueAfterSale,
  queueShape,
} from '../../src-renderer/src/store'
import { makeQueue, makeReport, makeSale } from './fake-bridge'

describe('a queue notice goes stale', () => {
  it('is shown while the queue is as it was when written, and not once it moved on', () => {
    const waiting = makeQueue({ count: 1, hostReachable: false })
    const notice = forwardingNotice(makeQueue({ count: 1 }), waiting)
    expect(notice.text).toBe('The bank could not be reached. 1 still waiting; the terminal keeps trying.')
    const written = { queueNotice: notice, queueNoticeFor: queueShape(waiting) }
    expect(currentQueueNotice({ ...written, queue: waiting })).toBe(notice)
    // The bank came back and took the payment: "1 still waiting" is no longer true.
    expect(currentQueueNotice({ ...written, queue: makeQueue({ count: 0, hostReachable: true }) })).toBeNull()
  })
})

describe('after Send now', () => {
  it.each([
    ['nothing waited', makeQueue({ count: 0 }), makeQueue({ count: 0, hostReachable: true }), 'info', 'Nothing was waiting to be sent.'],
    [
      'all sent',
      makeQueue({ count: 2 }),
      makeQueue({ count: 0, hostReachable: true }),
      'ok',
      '2 messages sent to the bank. 0 left in the queue.',
    ],
    [
      'bank down',
      makeQueue({ count: 2 }),
      makeQueue({ count: 2, hostReachable: false }),
      'warn',
      'The bank could not be reached. 2 still waiting; the terminal keeps trying.',
    ],
    [
      'a stored payment declined',
      makeQueue({ count: 1, attentionCount: 0 }),
      makeQueue({ count: 0, attentionCount: 1, hostReachable: true }),
      'error',
      'The bank refused 1 message: a manager must look at it below. 0 left in the queue.',
    ],
  ] as const)('%s', (_name, before, after, tone, text) => {
    expect(forwardingNotice(before, after)).toEqual({ tone, text })
  })
})

describe('the alarm that a queued message needs a manager', () => {
  const alarm = { code: 'NEEDS_ATTENTION', message: 'stored payment declined' }
  const other = { code: 'DATA_KEY_MISSING', message: 'key' }
  it('ends once no message needs a manager, and only that alarm', () => {
    expect(alarmsWithQueue([alarm, other], makeQueue({ attentionCount: 0 }))).toEqual([other])
    const kept = [alarm, other]
    expect(alarmsWithQueue(kept, makeQueue({ attentionCount: 1 }))).toBe(kept)
  })
})

describe("the bank's reach after a sale", () => {
  const offline = makeQueue({ hostReachable: false })
  it.each([
    ['approved online', makeSale({ state: 'approved', offline: false }), offline, true],
    ['declined by the bank', makeSale({ state: 'declined', offline: false }), offline, true],
    ['stored offline', makeSale({ state: 'storedOffline', offline: true }), makeQueue({ hostReachable: true }), false],
    ['bank not reached', makeSale({ state: 'declined', offline: true }), makeQueue({ hostReachable: true }), false],
  ] as const)('%s', (_name, sale, queue, reachable) => {
    expect(queueAfterSale(queue, sale)?.hostReachable).toBe(reachable)
  })
  it('a sale still at the counter says nothing', () => {
    const queue = makeQueue({ hostReachable: false })
    expect(queueAfterSale(queue, makeSale({ state: 'readingCard' }))).toBe(queue)
  })
})

describe('a second try after a reversed first one', () => {
  const card = { maskedPan: '476173******0010', brand: 'VISA', amountMinor: 4100, currency: 'USD' }
  const first = makeSale({ id: 'A', state: 'reversalPending', createdAt: 1, ...card })
  const second = makeSale({ id: 'B', state: 'awaitingConfirmation', createdAt: 2, ...card })
  it('knows the first charge is being reversed; a standing first one is a real duplicate question', () => {
    expect(earlierChargeReversed({ sales: { A: first, B: second } }, second)).toBe(true)
    expect(earlierChargeReversed({ sales: { A: { ...first, state: 'approved' }, B: second } }, second)).toBe(false)
    expect(earlierChargeReversed({ sales: { A: { ...first, amountMinor: 4000 }, B: second } }, second)).toBe(false)
  })
  it.each([
    ['declined', true],
    ['abandoned', true],
    ['reversed', true],
    ['reversalPending', true],
    ['approved', false],
    ['storedOffline', false],
    ['cancelled', false],
  ] as const)('%s may be charged again: %s', (state, again) => {
    expect(chargedNothing(makeSale({ state }))).toBe(again)
  })
})

describe('words', () => {
  it("a refused step says the agent's own plain reason", () => {
    expect(
      describeError({
        code: 'INVALID_STEP',
        message: 'a return already credited USD 10.00 of this sale: return what is left instead of voiding it',
        retryable: false,
        words: 'This cannot be done for this sale as it stands now.',
      }),
    ).toBe('A return already credited USD 10.00 of this sale: return what is left instead of voiding it.')
  })
  it('"issuer" is the card’s bank wherever it comes', () => {
    const words = plainReason('stored payment declined by the bank when forwarded (declined by the issuer: Insufficient funds)')
    expect(words).not.toMatch(/issuer/i)
    expect(words).toContain('the card’s bank')
  })
  it('a closed batch is done, not blocked', () => {
    const closed = makeReport({ closable: false, blockedReason: 'this batch is already closed' })
    expect(closeBlockedReason({ report: { ...closed, batch: { ...closed.batch, closedAt: 5 } } })).toBeNull()
    expect(closeBlockedReason({ report: { ...closed, blockedReason: '1 reversal is still waiting' } })).toBe('1 reversal is still waiting')
  })
})

describe('amounts keyed the sale way in any field', () => {
  it.each([
    ['', '2', 'USD', '0.02'],
    ['0.02', '0.020', 'USD', '0.20'],
    ['0.20', '0.200', 'USD', '2.00'],
    ['2.00', '2.0', 'USD', '0.20'],
    ['2.00', '2.00x', 'USD', '2.00'],
    ['', '12.5', 'USD', '12.5'],
    ['', '500', 'JPY', '500'],
    ['40.00', '1', 'USD', '0.01'],
  ] as const)('%j then %j (%s) shows %j', (before, after, currency, shown) => {
    expect(amountTextAfterEdit(before, after, currency)).toBe(shown)
  })
  it('a shown amount is the digits a register keyed', () => {
    expect(entryOfShown('7.50', 2)).toBe('750')
    expect(entryOfShown('1,234.50', 2)).toBe('123450')
    expect(entryOfShown('12.', 2)).toBe('12.')
  })
})
