import { describe, expect, it } from 'vitest'
import { SALE_STATES } from '../../src-shared/contract'
import {
  canCloseDay,
  canStartSale,
  canSubmitTips,
  checkTip,
  closeBlockedReason,
  createPosStore,
  expirySoon,
  parseTypedAmount,
  queueExpiry,
  SALE_WORDS,
  signingKeyProblem,
  tipLimitMinor,
  tipRows,
  tipTotals,
  type PosState,
} from '../../src-renderer/src/store'
import { FakeBridge, makeAppInfo, makeQueue, makeReport, makeSale } from './fake-bridge'

function state(overrides: Partial<PosState> = {}): PosState {
  const store = createPosStore({ bridge: new FakeBridge(), now: () => 0 })
  return { ...store.getState(), appInfo: makeAppInfo(), ...overrides }
}

describe('tip tolerance', () => {
  it('allows up to floor(base × percent / 100) and asks for an override above it', () => {
    expect(tipLimitMinor(1000, 20)).toBe(200)
    expect(tipLimitMinor(999, 20)).toBe(199)
    expect(checkTip(1000, 'USD', '2.00', 20, false)).toMatchObject({ tipMinor: 200, overTolerance: false, needsOverride: false })
    expect(checkTip(1000, 'USD', '2.01', 20, false)).toMatchObject({ tipMinor: 201, overTolerance: true, needsOverride: true })
    expect(checkTip(1000, 'USD', '2.01', 20, true)).toMatchObject({ tipMinor: 201, overTolerance: true, needsOverride: false })
    expect(checkTip(1000, 'JPY', '200', 20, false)).toMatchObject({ tipMinor: 200, needsOverride: false })
    expect(checkTip(1000, 'JPY', '201', 25, false)).toMatchObject({ tipMinor: 201, needsOverride: false })
  })

  it('rejects text that is not an amount in the currency', () => {
    expect(checkTip(1000, 'USD', '1.234', 20, false).inputError).toMatch(/at most 2 decimals/)
    expect(checkTip(1000, 'JPY', '1.5', 20, false).inputError).toMatch(/no decimals/)
    expect(checkTip(1000, 'USD', 'abc', 20, false).inputError).not.toBeNull()
    expect(checkTip(1000, 'USD', '-1', 20, false).inputError).not.toBeNull()
  })

  it('builds rows from drafts, totals them, and allows submit only when every row is valid', () => {
    const a = makeSale({ id: 'A', state: 'approved', amountMinor: 1000, createdAt: 1 })
    const b = makeSale({ id: 'B', state: 'storedOffline', amountMinor: 2000, tipMinor: 100, createdAt: 2 })
    const declined = makeSale({ id: 'C', state: 'declined', amountMinor: 5000, createdAt: 3 })
    const base = state({ sales: { A: a, B: b, C: declined } })
    const rows = tipRows(base)
    expect(rows.map((r) => [r.sale.id, r.text, r.changed])).toEqual([
      ['A', '', false],
      ['B', '1.00', false],
    ])
    expect(canSubmitTips(base)).toBe(false)

    const over = state({ sales: base.sales, tipDrafts: { A: { text: '5', override: false } } })
    expect(tipRows(over)[0]).toMatchObject({ tipMinor: 500, needsOverride: true, changed: true })
    expect(canSubmitTips(over)).toBe(false)
    const overridden = state({ sales: base.sales, tipDrafts: { A: { text: '5', override: true } } })
    expect(canSubmitTips(overridden)).toBe(true)
    expect(tipTotals(tipRows(overridden))).toEqual([{ currency: 'USD', count: 2, baseMinor: 3000, tipMinor: 600, totalMinor: 3600 }])
    const invalid = state({ sales: base.sales, tipDrafts: { A: { text: '1', override: false }, B: { text: '1.5.0', override: false } } })
    expect(canSubmitTips(invalid)).toBe(false)
  })

  it('parses typed amounts per currency', () => {
    expect(parseTypedAmount('2.5', 'USD')).toEqual({ ok: true, minor: 250 })
    expect(parseTypedAmount('.5', 'USD')).toEqual({ ok: true, minor: 50 })
    expect(parseTypedAmount('007', 'USD')).toEqual({ ok: true, minor: 700 })
    expect(parseTypedAmount('2,505', 'BHD')).toEqual({ ok: true, minor: 2505 })
    expect(parseTypedAmount('1,234.50', 'USD')).toEqual({ ok: true, minor: 123450 })
    expect(parseTypedAmount('', 'USD')).toEqual({ ok: true, minor: 0 })
    expect(parseTypedAmount('.', 'USD').ok).toBe(false)
    expect(parseTypedAmount('99999999999999999', 'JPY').ok).toBe(false)
  })
})

describe('queue expiry countdown', () => {
  it('counts down from when the status arrived and reports the oldest age', () => {
    const s = state({ queue: makeQueue({ oldestStoredAt: 1_000, oldestExpiresInMs: 90 * 60_000 }), queueAt: 10_000 })
    expect(queueExpiry(s, 10_000)).toEqual({ oldestAgeMs: 9_000, timeLeftMs: 90 * 60_000, expired: false })
    const later = queueExpiry(s, 10_000 + 31 * 60_000)
    expect(later.timeLeftMs).toBe(59 * 60_000)
    expect(expirySoon(later)).toBe(true)
    expect(expirySoon(queueExpiry(s, 10_000 + 29 * 60_000))).toBe(false)
    expect(queueExpiry(s, 10_000 + 91 * 60_000)).toMatchObject({ timeLeftMs: 0, expired: true })
  })

  it('has nothing to count when nothing is stored', () => {
    expect(queueExpiry(state({ queue: makeQueue() }), 5)).toEqual({ oldestAgeMs: null, timeLeftMs: null, expired: false })
  })
})

describe('can a sale start', () => {
  const cases: Array<[string, Partial<PosState>, boolean]> = [
    ['amount keyed, counter free', { entryDigits: '100' }, true],
    ['no amount', { entryDigits: '' }, false],
    ['no appInfo yet', { entryDigits: '100', appInfo: null }, false],
    ['unknown currency', { entryDigits: '100', appInfo: makeAppInfo({ currency: 'XXX' }) }, false],
    ['startSale in flight', { entryDigits: '100', starting: true }, false],
    ['sale reading the card', { entryDigits: '100', currentSaleId: 'S', sales: { S: makeSale({ id: 'S', state: 'readingCard' }) } }, false],
    [
      'duplicate question open',
      { entryDigits: '100', currentSaleId: 'S', sales: { S: makeSale({ id: 'S', state: 'awaitingConfirmation' }) } },
      false,
    ],
    ['payment on its way', { entryDigits: '100', currentSaleId: 'S', sales: { S: makeSale({ id: 'S', state: 'completingCard' }) } }, false],
    [
      'void waiting for the card',
      { entryDigits: '100', voidingSaleId: 'S', sales: { S: makeSale({ id: 'S', state: 'voidReadingCard' }) } },
      false,
    ],
    ['void finished', { entryDigits: '100', voidingSaleId: 'S', sales: { S: makeSale({ id: 'S', state: 'cancelled' }) } }, true],
  ]
  it.each(cases)('%s', (_name, overrides, expected) => {
    expect(canStartSale(state(overrides))).toBe(expected)
  })
})

describe('words', () => {
  it('names every sale state for the cashier', () => {
    for (const s of SALE_STATES) expect(SALE_WORDS[s].title.length).toBeGreaterThan(3)
  })

  it('the signing key must be exactly 32 characters', () => {
    expect(signingKeyProblem('')).not.toBeNull()
    expect(signingKeyProblem('a'.repeat(31))).toMatch(/31/)
    expect(signingKeyProblem('a'.repeat(32))).toBeNull()
  })

  it('close of day says why it is blocked', () => {
    const blocked = state({ report: makeReport({ closable: false, blockedReason: '1 reversal(s) are still waiting for the host' }) })
    expect(closeBlockedReason(blocked)).toMatch(/reversal/)
    expect(canCloseDay(blocked)).toBe(false)
    expect(canCloseDay(state({ report: makeReport() }))).toBe(true)
  })
})
