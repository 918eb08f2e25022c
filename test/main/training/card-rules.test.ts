import { describe, expect, it } from 'vitest'
import {
  brandOf,
  decide,
  isExpired,
  luhnValid,
  parseTrack1,
  parseTrack2,
  readCard,
  summarizeCard,
} from '../../../src-main/training/host/card-rules'

const NOW = new Date('2026-11-21T12:00:00Z')

describe('track parsing (ISO 7813)', () => {
  it.each([
    ['4111111111111111=29121010000000000', { pan: '4111111111111111', expiry: '2912' }],
    [';4111111111111111=2912101?', { pan: '4111111111111111', expiry: '2912' }],
    ['4111111111111111D29121010000000000F', { pan: '4111111111111111', expiry: '2912' }],
    ['4111111111111111d2912', { pan: '4111111111111111', expiry: '2912' }],
    ['4111111111111111==101', { pan: '4111111111111111' }],
  ])('track2 %s', (track, expected) => {
    expect(parseTrack2(track)).toEqual(expected)
  })

  it.each(['', '4111=2912', 'abcd', '4111111111111111', '4111111111111111=29'])('rejects track2 %j', (track) => {
    expect(parseTrack2(track)).toBeUndefined()
  })

  it('reads track1 format B, with and without expiry', () => {
    expect(parseTrack1('%B4111111111111111^DOE/JOHN^2912101000000?')).toEqual({ pan: '4111111111111111', expiry: '2912' })
    expect(parseTrack1('B5555555555554444^SMITH/A^^101')).toEqual({ pan: '5555555555554444' })
    expect(parseTrack1('%A4111111111111111^X^2912')).toBeUndefined()
  })

  it('prefers track2, then cardNumber, then track1; names the unreadable field', () => {
    expect(readCard({ track2: '4111111111111111=2912', cardNumber: '5555555555554444', track1: 'x' })).toEqual({
      pan: '4111111111111111',
      expiry: '2912',
    })
    expect(readCard({ cardNumber: '5555555555554444', expiryDate: '2701', track1: '%B4111111111111111^A^2912' })).toEqual({
      pan: '5555555555554444',
      expiry: '2701',
    })
    expect(readCard({ track1: '%B4111111111111111^A^2912' })).toEqual({ pan: '4111111111111111', expiry: '2912' })
    expect(readCard({ track2: 'garbage' })).toMatchObject({ field: 'paymentMethod.card.cardInfo.track2' })
    expect(readCard(undefined)).toMatchObject({ field: 'paymentMethod.card.encryptedCardInfo' })
  })
})

describe('decision rules (docs/gateway.md §D4)', () => {
  const good = { pan: '4111111111111111', expiry: '2912' }

  it('Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true)
    expect(luhnValid('378282246310005')).toBe(true)
    expect(luhnValid('4111111111111112')).toBe(false)
    expect(luhnValid('41111x1111111111')).toBe(false)
  })

  it('expiry: valid through the end of the month, month 00 or 13 never valid', () => {
    expect(isExpired('2611', NOW)).toBe(false)
    expect(isExpired('2610', NOW)).toBe(true)
    expect(isExpired('2701', NOW)).toBe(false)
    expect(isExpired('2913', NOW)).toBe(true)
    expect(isExpired('2900', NOW)).toBe(true)
    expect(isExpired(undefined, NOW)).toBe(false)
  })

  it.each([
    [1051, good, '51'],
    [51, good, '51'],
    [10051, good, '51'],
    [1005, good, '05'],
    [1234, { pan: '4111111111111112', expiry: '2912' }, '14'],
    [1234, { pan: '4111111111111111', expiry: '2410' }, '54'],
    // The first rule in the contract's order wins.
    [1051, { pan: '4111111111111112', expiry: '2410' }, '51'],
    [1234, { pan: '4111111111111112', expiry: '2410' }, '14'],
  ])('amount %i, card %o → %s', (minor, card, code) => {
    expect(decide(minor, card, NOW)).toMatchObject({ approved: false, pspFailureCode: code })
  })

  it('approves everything else', () => {
    expect(decide(1234, good, NOW)).toEqual({ approved: true })
    expect(decide(1015, good, NOW)).toEqual({ approved: true })
    expect(decide(1234, { pan: '4111111111111111' }, NOW)).toEqual({ approved: true })
  })
})

describe('card summary', () => {
  it('masks the number and names the brand', () => {
    expect(summarizeCard('4111111111111111')).toEqual({
      first6No: '411111',
      last4No: '1111',
      paymentBrand: 'VISA',
      fundingType: 'credit',
      maskedPan: '411111******1111',
    })
    expect(summarizeCard('378282246310005').maskedPan).toBe('378282*****0005')
    expect(brandOf('5555555555554444')).toBe('MASTERCARD')
    expect(brandOf('2221000000000009')).toBe('MASTERCARD')
    expect(brandOf('378282246310005')).toBe('AMEX')
    expect(brandOf('3530111333300000')).toBe('JCB')
    expect(brandOf('6011111111111117')).toBe('DISCOVER')
    expect(brandOf('6200000000000005')).toBe('UNIONPAY')
    expect(brandOf('9999999999999995')).toBe('UNKNOWN')
  })
})
