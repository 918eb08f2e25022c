import { describe, expect, it } from 'vitest'
import { decodeTlv, encodeTlv } from '../../../../src-main/device/card-data'
import { ReaderError } from '../../../../src-main/device/reader-error'
import type { ReaderCapabilities } from '../../../../src-main/device/card-data'
import { chipCardData, serviceCodeOf, swipeCardData, swipeTracksOf } from '../../../../src-main/device/neo2/neo2-card-data'

const ALL: ReaderCapabilities = { contact: true, contactless: true, magstripe: true, pinPad: true }
const NOW = new Date(2026, 10, 21, 12, 0, 0)
const ctx = { capabilities: ALL, now: NOW }
const h = (text: string) => Buffer.from(text, 'hex')
const a = (text: string) => Buffer.from(text, 'latin1')

const CHIP = decodeTlv(
  encodeTlv([
    { tag: '9F39', value: h('05') },
    { tag: '57', value: h('4761739001010010D49122011000000F') },
    { tag: '5A', value: h('4761739001010010') },
    { tag: '5F24', value: h('491231') },
    { tag: '5F20', value: a('TEST/VISA CHIP') },
    { tag: '56', value: a('B4761739001010010^TEST^4912') },
    { tag: '9F1F', value: a('1234') },
    { tag: '5F34', value: h('01') },
    { tag: '4F', value: h('A0000000031010') },
    { tag: '50', value: a('VISA CREDIT ') },
    { tag: '9F26', value: h('1122334455667788') },
    { tag: '9F27', value: h('80') },
    { tag: '9F02', value: h('000000001234') },
    { tag: '5F2A', value: h('0978') },
  ]),
)

describe('chip and contactless CardData (D7.3)', () => {
  it('takes PAN, expiry and the track-2 equivalent from tag 57 with a = separator', () => {
    const card = chipCardData('chip', CHIP, ctx)
    expect(card).toMatchObject({
      method: 'chip',
      pan: '4761739001010010',
      expiry: '4912',
      track2: '4761739001010010=49122011000000',
      posEntryMode: '051',
      termReadability: '5',
      pinFlag: false,
    })
    expect(card.cardSequenceNum).toBe('001')
    expect(card.summary).toEqual({
      maskedPan: '476173******0010',
      brand: 'VISA',
      method: 'chip',
      applicationId: 'A0000000031010',
      applicationLabel: 'VISA CREDIT',
      expired: false,
      onlinePin: false,
    })
  })

  it('puts only authorization tags into icCardData, never 56/57/5A/5F20/5F24/9F1F', () => {
    const card = chipCardData('contactlessChip', CHIP, ctx)
    const tags = decodeTlv(h(card.icCardData ?? '')).map((t) => t.tag)
    expect(tags).toEqual(['5F34', '4F', '9F26', '9F27', '9F02', '5F2A'])
    for (const sad of ['56', '57', '5A', '5F20', '5F24', '9F1F', '99', '9F20']) expect(tags).not.toContain(sad)
    expect(card.posEntryMode).toBe('071')
  })

  it('falls back on 5A and 5F24 when there is no tag 57', () => {
    const tlvs = CHIP.filter((t) => t.tag !== '57')
    const card = chipCardData('chip', tlvs, ctx)
    expect(card).toMatchObject({ pan: '4761739001010010', expiry: '4912' })
    expect(card.track2).toBeUndefined()
  })

  it('marks an expired card and carries the PIN with pinFlag', () => {
    const expired = decodeTlv(encodeTlv([{ tag: '57', value: h('4761739001010010D20122011000000F') }]))
    const pin = { encryptedPin: '1B9C1845EB993A7A', keySerialNumber: 'FFFF9876543210E00001', pinEncryptMethod: 'DUKPT-TDES-ISO0' }
    const card = chipCardData('chip', expired, { ...ctx, pin })
    expect(card.summary).toMatchObject({ expired: true, onlinePin: true })
    expect(card).toMatchObject({ pinFlag: true, pin })
  })

  it('refuses chip data without a PAN, and never quotes the data in the error', () => {
    expect(() => chipCardData('chip', decodeTlv(encodeTlv([{ tag: '9F26', value: h('00') }])), ctx)).toThrow(ReaderError)
    try {
      chipCardData('chip', decodeTlv(encodeTlv([{ tag: '57', value: h('4761739001010010D4913') }])), ctx)
    } catch (error) {
      expect((error as ReaderError).code).toBe('unreadableCardData')
      expect((error as Error).message).not.toMatch(/4761/)
    }
  })
})

describe('a card number that fails the Luhn check (D4.3)', () => {
  const refused = (build: () => unknown) => {
    try {
      build()
    } catch (error) {
      return error as ReaderError
    }
    throw new Error('the card was accepted')
  }

  it.each([
    ['tag 57', [{ tag: '57', value: h('4111111111111112D49122011000000F') }]],
    ['tag 5A', [{ tag: '5A', value: h('4111111111111112') }]],
    ['the synthetic PAN of Vector C', [{ tag: '57', value: h('5981786067381230D2912501000000000000') }]],
  ])('chip data with the PAN in %s is refused as not valid, never quoting the number', (_, tags) => {
    const error = refused(() => chipCardData('chip', decodeTlv(encodeTlv(tags)), ctx))
    expect(error).toBeInstanceOf(ReaderError)
    expect(error.code).toBe('invalidCardNumber')
    expect(error.cashierMessage).toBe('The card number is not valid. Try another card.')
    expect(error.message).not.toMatch(/411111|598178/)
  })

  it('a swipe is refused the same way, on either track', () => {
    for (const tracks of [
      [{ tag: 'DFEF18', value: a(';4111111111111112=49121011000000?') }],
      [{ tag: 'DFEF17', value: a('%B4111111111111112^TEST/BAD LUHN^49121011000000?') }],
    ]) {
      const error = refused(() => swipeCardData('swipe', swipeTracksOf(decodeTlv(encodeTlv(tracks), { padding: 'zeroOnly' })), ctx))
      expect(error.code).toBe('invalidCardNumber')
    }
  })
})

describe('swipe CardData', () => {
  const swipe = decodeTlv(
    encodeTlv([
      { tag: 'DFEF17', value: a('%B4111111111111111^TEST/MAGSTRIPE^49121011000000?') },
      { tag: 'DFEF18', value: a(';4111111111111111=49121011000000?') },
      { tag: '9F39', value: h('90') },
    ]),
    { padding: 'zeroOnly' },
  )

  it('reads DFEF17/DFEF18 tracks without sentinels', () => {
    const tracks = swipeTracksOf(swipe)
    expect(serviceCodeOf(tracks)).toBe('101')
    const card = swipeCardData('swipe', tracks, ctx)
    expect(card).toMatchObject({
      method: 'swipe',
      posEntryMode: '901',
      pan: '4111111111111111',
      expiry: '4912',
      track1: 'B4111111111111111^TEST/MAGSTRIPE^49121011000000',
      track2: '4111111111111111=49121011000000',
    })
    expect(card.icCardData).toBeUndefined()
    expect(card.summary).toEqual({ maskedPan: '411111******1111', brand: 'VISA', method: 'swipe', expired: false, onlinePin: false })
  })

  it('gives a fallback swipe DE 22 80x', () => {
    expect(swipeCardData('fallbackSwipe', swipeTracksOf(swipe), ctx).posEntryMode).toBe('801')
    expect(swipeCardData('fallbackSwipe', swipeTracksOf(swipe), { ...ctx, capabilities: { ...ALL, pinPad: false } }).posEntryMode).toBe(
      '802',
    )
  })

  it('refuses a swipe with no track, or a broken one', () => {
    expect(() => swipeTracksOf([])).toThrow(/no track data/)
    expect(() => swipeTracksOf(decodeTlv(encodeTlv([{ tag: 'DFEF18', value: a(';41111111=4913') }])))).toThrow(ReaderError)
  })
})
