import { describe, expect, it } from 'vitest'
import { formatAmount, minorUnitDigits, MoneyError, parseAmount } from '../../src-shared/money'
import { utf8ByteLength } from '../../src-shared/utf8'

describe('amounts in the currency minor units (docs/gateway.md §D3)', () => {
  it.each([
    ['USD', 1234, '12.34'],
    ['USD', 5, '0.05'],
    ['USD', 0, '0.00'],
    ['JPY', 1234, '1234'],
    ['JPY', 0, '0'],
    ['BHD', 12345, '12.345'],
    ['KWD', 7, '0.007'],
  ])('%s %d formats as "%s" and parses back', (currency, minor, text) => {
    expect(formatAmount(minor, currency)).toBe(text)
    expect(parseAmount(text, currency)).toBe(minor)
  })

  it('knows the exponent of 0-, 2- and 3-decimal currencies', () => {
    expect([minorUnitDigits('JPY'), minorUnitDigits('EUR'), minorUnitDigits('TND')]).toEqual([0, 2, 3])
  })

  it.each([
    ['12.3', 'USD'],
    ['12.345', 'USD'],
    ['12', 'USD'],
    ['-1.00', 'USD'],
    ['1e3', 'JPY'],
    ['12.00', 'JPY'],
    ['01.00', 'USD'],
    ['12.34', 'BHD'],
    [' 1.00', 'USD'],
    ['1,000.00', 'USD'],
  ])('refuses "%s" for %s instead of rounding', (text, currency) => {
    expect(() => parseAmount(text, currency)).toThrow(MoneyError)
  })

  it('refuses fractional, negative and unsafe minor amounts and unknown currencies', () => {
    expect(() => formatAmount(1.5, 'USD')).toThrow(MoneyError)
    expect(() => formatAmount(-1, 'USD')).toThrow(MoneyError)
    expect(() => formatAmount(2 ** 53, 'USD')).toThrow(MoneyError)
    expect(() => formatAmount(100, 'XXQ')).toThrow(/unknown currency/)
  })
})

describe('UTF-8 byte length (limits count bytes)', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['a😀é€', 10],
    ['\ud800', 3],
  ])('%j is %d bytes', (text, n) => {
    expect(utf8ByteLength(text)).toBe(n)
    if (!/[\ud800-\udfff]/.test(text) || text.length > 1) expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'))
  })
})
