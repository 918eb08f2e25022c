/** The receipt's chip facts: TVR, TSI and the cardholder verification, from the card's own data (docs/receipts.md). */
import { describe, expect, it } from 'vitest'
import { encodeTlv, receiptFacts } from '../../../../src-main/device/card-data'

const icc = (tags: Record<string, string>) =>
  encodeTlv(Object.entries(tags).map(([tag, value]) => ({ tag, value: Buffer.from(value, 'hex') })))
    .toString('hex')
    .toUpperCase()

describe('receipt facts', () => {
  it.each([
    ['410302', 'pin'], // plaintext PIN by the ICC, successful
    ['420300', 'pin'], // enciphered PIN online (result unknown to the terminal until the issuer answers)
    ['440302', 'pin'], // enciphered PIN by the ICC
    ['030002', 'pinAndSignature'],
    ['1E0300', 'signature'],
    ['1F0302', 'none'],
    ['3F0000', 'none'], // no CVM performed: contactless under the limit
    ['410301', 'signature'], // the PIN check failed: a signed copy, never "PIN VERIFIED"
    ['000001', 'signature'], // CVM processing failed
    ['2A0300', 'signature'], // a code this terminal does not know
  ] as const)('CVM Results %s → %s', (results, cvm) => {
    expect(receiptFacts({ method: 'chip', icCardData: icc({ '9F34': results }), onlinePin: false }).cvm).toBe(cvm)
  })

  it('TVR and TSI as hex, when the chip data has them', () => {
    expect(
      receiptFacts({ method: 'chip', icCardData: icc({ '95': '0000008000', '9B': 'E800', '9F34': '1F0302' }), onlinePin: false }),
    ).toEqual({
      tvr: '0000008000',
      tsi: 'E800',
      cvm: 'none',
    })
  })

  it.each([
    ['swipe', true, 'pin'],
    ['swipe', false, 'signature'],
    ['fallbackSwipe', false, 'signature'],
    ['keyed', false, 'signature'],
    ['contactlessMagstripe', false, 'none'],
    ['contactlessChip', false, 'none'],
    ['contactlessChip', true, 'pin'],
  ] as const)('without CVM Results: %s, PIN entered %s → %s', (method, onlinePin, cvm) => {
    expect(receiptFacts({ method, onlinePin })).toEqual({ cvm })
  })

  it('chip data that does not parse gives no chip facts, never an error', () => {
    expect(receiptFacts({ method: 'chip', icCardData: '9F3403', onlinePin: false })).toEqual({ cvm: 'signature' })
  })
})
