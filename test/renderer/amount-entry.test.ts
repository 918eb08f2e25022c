/** Amount entry as cashiers type it: cash-register digits, a decimal point as written, separators, pasted text. */
import { describe, expect, it } from 'vitest'
import {
  appendDigits,
  appendPoint,
  entryAfterEdit,
  entryFromText,
  entryMinor,
  entryText,
  eraseLastDigit,
} from '../../src-renderer/src/store/amount-entry'
import { moneyText } from '../../src-renderer/src/components/money-text'

const type = (keys: string, fractionDigits = 2) =>
  [...keys].reduce((entry, key) => (key === '.' ? appendPoint(entry, fractionDigits) : appendDigits(entry, key, fractionDigits)), '')

describe('keys', () => {
  it.each([
    ['1234', 2, 1234, '12.34'],
    ['12.3', 2, 1230, '12.3'],
    ['12.', 2, 1200, '12.'],
    ['.5', 2, 50, '0.5'],
    ['12.345', 2, 1234, '12.34'],
    ['1234.5', 2, 123450, '1,234.5'],
    ['123456789', 2, 123456789, '1,234,567.89'],
    ['1234', 0, 1234, '1,234'],
    ['12.3', 0, 123, '123'],
    ['1.234', 3, 1234, '1.234'],
    ['12..3', 2, 1230, '12.3'],
  ])('%s (%i decimals) → %i minor, shown %s', (keys, fractionDigits, minor, shown) => {
    const entry = type(keys, fractionDigits)
    expect(entryMinor(entry, fractionDigits)).toBe(minor)
    expect(entryText(entry, fractionDigits)).toBe(shown)
  })

  it('keeps nine digits at most, the decimals inside them', () => {
    expect(type('1234567890')).toBe('123456789')
    expect(appendPoint('12345678', 2)).toBe('12345678')
    expect(appendPoint('1234567', 2)).toBe('1234567.')
  })

  it('erases back through the point', () => {
    expect(eraseLastDigit('12.3')).toBe('12.')
    expect(eraseLastDigit('12.')).toBe('12')
    expect(eraseLastDigit('.')).toBe('')
  })
})

describe('text', () => {
  it.each([
    ['12.34', '12.34'],
    ['$1,234.50', '1234.50'],
    ['12,5', '12.5'],
    ['1,234', '1234'],
    ['0012', '12'],
    ['abc', ''],
  ])('pasted %s → %s', (text, entry) => {
    expect(entryFromText(text, 2)).toBe(entry)
  })

  it('one character added or removed at the end is a key; anything else is read whole', () => {
    expect(entryAfterEdit('1234', '12.34', '12.345', 2)).toBe('12345')
    expect(entryAfterEdit('1234', '12.34', '12.34.', 2)).toBe('1234.')
    expect(entryAfterEdit('1234', '12.34', '12.3', 2)).toBe('123')
    expect(entryAfterEdit('1234', '12.34', '7.5', 2)).toBe('7.5')
  })
})

describe('money on screen', () => {
  it('groups thousands', () => {
    expect(moneyText(123456789, 'USD')).toBe('USD 1,234,567.89')
    expect(moneyText(1234, 'JPY')).toBe('JPY 1,234')
    expect(moneyText(1234567, 'BHD')).toBe('BHD 1,234.567')
    expect(moneyText(99, 'USD')).toBe('USD 0.99')
  })
})
