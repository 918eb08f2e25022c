import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isLuhnValid, luhnCheckDigit, LuhnError } from '../../../../src-main/device/card-data/luhn'
import { maskPan, MIN_HIDDEN_DIGITS, PanError, visibleDigits } from '../../../../src-main/device/card-data/pan-mask'

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''))

describe('Luhn (docs/card-reader.md §3, §5)', () => {
  it.each(['6279257749132343', '4111111111111111', '38000000000006', '4012345678909'])('%s is Luhn-valid', (pan) => {
    expect(isLuhnValid(pan)).toBe(true)
    expect(luhnCheckDigit(pan.slice(0, -1))).toBe(pan.slice(-1))
  })

  it.each(['4111111111111112', '5981786067381230', '', '4', '4111 1111 1111 1111', '411111111111111a'])('"%s" is not', (text) => {
    expect(isLuhnValid(text)).toBe(false)
  })

  it('refuses a payload that is not digits', () => {
    expect(() => luhnCheckDigit('')).toThrow(LuhnError)
    expect(() => luhnCheckDigit('12a')).toThrow(LuhnError)
  })

  it('a computed check digit always validates, and any single changed digit is caught', () => {
    fc.assert(
      fc.property(digits(1, 18), fc.nat(), fc.integer({ min: 1, max: 9 }), (payload, at, delta) => {
        const pan = payload + luhnCheckDigit(payload)
        expect(isLuhnValid(pan)).toBe(true)
        const i = at % pan.length
        const changed = pan.slice(0, i) + String((Number(pan[i]) + delta) % 10) + pan.slice(i + 1)
        expect(isLuhnValid(changed)).toBe(false)
      }),
    )
  })
})

describe('PAN masking (PCI DSS 3.4.1, docs/card-reader.md §5)', () => {
  it.each([
    ['4111111111111111', '411111******1111'],
    ['6279257749132343', '627925******2343'],
    ['4000000000000000006', '400000*********0006'],
    ['371449635398431', '37144******8431'],
    ['38000000000006', '3800******0006'],
    ['4012345678909', '401******8909'],
    ['401234567890', '40******7890'],
    ['4012345678', '******5678'],
    ['40123456', '******56'],
  ])('%s → %s', (pan, masked) => {
    expect(maskPan(pan)).toBe(masked)
  })

  it('shows only the last four on receipts', () => {
    expect(maskPan('4111111111111111', 'lastFour')).toBe('************1111')
  })

  it('refuses what is not an 8-19 digit PAN, without echoing it', () => {
    for (const bad of ['4111', '41111111111111111111', '4111-1111-1111', '']) {
      expect(() => maskPan(bad)).toThrow(PanError)
    }
    expect(() => maskPan('4111-1111-1111')).toThrow(expect.not.objectContaining({ message: expect.stringContaining('4111') }))
  })

  it('never shows more than first 6 + last 4 and always hides at least 6 digits (property)', () => {
    fc.assert(
      fc.property(digits(8, 19), fc.constantFrom('firstSixLastFour', 'lastFour'), (pan, style) => {
        const masked = maskPan(pan, style)
        const { first, last } = visibleDigits(pan.length, style)
        expect(masked).toHaveLength(pan.length)
        expect(first).toBeLessThanOrEqual(style === 'lastFour' ? 0 : 6)
        expect(last).toBeLessThanOrEqual(4)
        expect(masked.slice(first, pan.length - last)).toBe('*'.repeat(pan.length - first - last))
        expect(pan.length - first - last).toBeGreaterThanOrEqual(MIN_HIDDEN_DIGITS)
        expect(masked.slice(0, first) + masked.slice(pan.length - last)).toBe(pan.slice(0, first) + pan.slice(pan.length - last))
      }),
    )
  })
})
