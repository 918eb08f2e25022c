import { describe, expect, it } from 'vitest'
import {
  isExpired,
  parseServiceCode,
  parseTrack1,
  parseTrack2,
  parseTrack2Equivalent,
  TrackError,
} from '../../../../src-main/device/card-data/track'
import { CYBS_TRACK1, CYBS_TRACK1_TABS, IDTECH_TRACK1, IDTECH_TRACK2, VECTOR_C_TAG57 } from './card-vectors'

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    if (error instanceof TrackError) return error.code
    throw error
  }
  return undefined
}

describe('Track 1 (docs/card-reader.md §3)', () => {
  it('parses the ID TECH test card', () => {
    expect(parseTrack1(IDTECH_TRACK1)).toEqual({
      track: 1,
      pan: '6279257749132343',
      name: 'TEST CARD/VIVOTECH',
      expiry: '1012',
      serviceCode: '813',
      discretionary: '0072104350000',
      text: 'B6279257749132343^TEST CARD/VIVOTECH^10128130072104350000',
    })
  })

  it('parses the CyberSource sample and ignores the empty track 2 start after the end sentinel', () => {
    expect(parseTrack1(CYBS_TRACK1)).toMatchObject({
      pan: '4111111111111111',
      name: 'TEST/CYBS         ',
      expiry: '2012',
      serviceCode: '121',
      discretionary: '019761100      00868000000',
    })
  })

  it('tolerates TABs in the name field (CyberSource swiped sample)', () => {
    expect(parseTrack1(CYBS_TRACK1_TABS)).toMatchObject({
      pan: '38000000000006',
      name: 'TEST/CYBS\t\t ',
      expiry: '2012',
      serviceCode: '121',
    })
  })

  it('reads the same data without sentinels', () => {
    expect(parseTrack1(IDTECH_TRACK1.slice(1, -1))).toEqual(parseTrack1(IDTECH_TRACK1))
  })

  it.each([
    ['badFormat', '%A6279257749132343^TEST^10128130072104350000?'],
    ['badFormat', '%B6279257749132343^TEST CARD10128130072104350000?'],
    ['badPan', '%B6279 257749132343^TEST^10128130072104350000?'],
    ['badPan', '%B1234567^TEST^10128130072104350000?'],
    ['badExpiry', '%B6279257749132343^TEST^10138130072104350000?'],
    ['badExpiry', '%B6279257749132343^TEST^1000813?'],
    ['badServiceCode', '%B6279257749132343^TEST^101281?'],
    ['badFormat', `%B6279257749132343^${'N'.repeat(27)}^10128130072104350000?`],
    ['tooLong', `%B6279257749132343^TEST^1012813${'0'.repeat(60)}?`],
  ])('%s: %s', (code, raw) => {
    expect(codeOf(() => parseTrack1(raw))).toBe(code)
  })

  it('never quotes the track in its error message', () => {
    expect(() => parseTrack1('%B6279257749132343^TEST^10138130072104350000?')).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('6279') }),
    )
  })
})

describe('Track 2 and tag 57 (docs/card-reader.md §3)', () => {
  it('parses the ID TECH test card with or without sentinels', () => {
    const expected = {
      track: 2,
      pan: '6279257749132343',
      expiry: '1012',
      serviceCode: '813',
      discretionary: '0072104350000',
      text: '6279257749132343=10128130072104350000',
    }
    expect(parseTrack2(IDTECH_TRACK2)).toEqual(expected)
    expect(parseTrack2(IDTECH_TRACK2.slice(1, -1))).toEqual(expected)
  })

  it('parses Vector C tag 57 (D separator; PAN not Luhn-valid, accepted)', () => {
    expect(parseTrack2Equivalent(Buffer.from(VECTOR_C_TAG57, 'hex'))).toEqual({
      track: 2,
      pan: '5981786067381230',
      expiry: '2912',
      serviceCode: '501',
      discretionary: '000000000000',
      text: '5981786067381230=2912501000000000000',
    })
  })

  it('strips the F pad of an odd-length tag 57', () => {
    expect(parseTrack2Equivalent(Buffer.from('4012345678909D2512201F', 'hex'))).toMatchObject({
      pan: '4012345678909',
      expiry: '2512',
      serviceCode: '201',
      discretionary: '',
    })
  })

  it.each([
    ['badServiceCode', '6279257749132343D1012F'],
    ['badFormat', '6279257749132343D1012D13'],
    ['badFormat', '6279257749132343D1012813FF'],
    ['badFormat', '6279257749132343A101281300'],
    ['badExpiry', '6279257749132343D0000813'],
  ])('tag 57 %s: %s', (code, nibbles) => {
    expect(codeOf(() => parseTrack2Equivalent(Buffer.from(nibbles, 'hex')))).toBe(code)
  })

  it.each([
    ['badFormat', ';6279257749132343D10128130072104350000?'],
    ['badFormat', ';6279257749132343=1012813007210435000A?'],
    ['tooLong', `;6279257749132343=1012813${'0'.repeat(14)}?`],
  ])('track 2 %s: %s', (code, raw) => {
    expect(codeOf(() => parseTrack2(raw))).toBe(code)
  })
})

describe('service code (ISO/IEC 7813, docs/card-reader.md §3)', () => {
  it.each([
    ['201', { interchange: 'international', chipCapable: true, authorization: 'normal', services: 'noRestrictions', pin: 'notRequired' }],
    ['101', { interchange: 'international', chipCapable: false, authorization: 'normal', services: 'noRestrictions', pin: 'notRequired' }],
    [
      '226',
      { interchange: 'international', chipCapable: true, authorization: 'byIssuer', services: 'noRestrictions', pin: 'ifPedPresent' },
    ],
    ['620', { interchange: 'national', chipCapable: true, authorization: 'byIssuer', services: 'noRestrictions', pin: 'required' }],
    [
      '121',
      { interchange: 'international', chipCapable: false, authorization: 'byIssuer', services: 'noRestrictions', pin: 'notRequired' },
    ],
    ['501', { interchange: 'national', chipCapable: false, authorization: 'normal', services: 'noRestrictions', pin: 'notRequired' }],
    [
      '745',
      {
        interchange: 'private',
        chipCapable: false,
        authorization: 'byIssuerUnlessBilateral',
        services: 'goodsAndServices',
        pin: 'required',
      },
    ],
    ['813', { interchange: 'reserved', chipCapable: false, authorization: 'reserved', services: 'atmOnly', pin: 'required' }],
    ['907', { interchange: 'test', chipCapable: false, authorization: 'normal', services: 'goodsAndServices', pin: 'ifPedPresent' }],
  ])('%s', (code, expected) => {
    expect(parseServiceCode(code)).toEqual({ code, ...expected })
  })

  it('is undefined for anything but 3 digits', () => {
    expect([parseServiceCode('20'), parseServiceCode('2011'), parseServiceCode('2a1')]).toEqual([undefined, undefined, undefined])
  })
})

describe('expiry (valid through the end of the month, local calendar)', () => {
  it.each([
    ['2412', new Date(2024, 11, 31, 23, 59, 59), false],
    ['2412', new Date(2025, 0, 1, 0, 0, 0), true],
    ['2501', new Date(2024, 11, 15), false],
    ['2402', new Date(2024, 1, 29, 12), false],
    ['2402', new Date(2024, 2, 1), true],
    ['1012', new Date(2026, 5, 1), true],
    ['2012', new Date(2026, 5, 1), true],
    ['9912', new Date(2026, 5, 1), false],
    ['05', new Date(2026, 5, 1), 'error'],
  ] as const)('%s at %s → expired %s', (expiry, now, expected) => {
    if (expected === 'error') expect(codeOf(() => isExpired(expiry, now))).toBe('badExpiry')
    else expect(isExpired(expiry, now)).toBe(expected)
  })

  it('reads YY as 20YY, so far test-card expiries stay valid', () => {
    expect(isExpired('4912', new Date(2026, 5, 1))).toBe(false)
    expect(isExpired('9912', new Date(2099, 11, 31))).toBe(false)
    expect(isExpired('0001', new Date(2026, 5, 1))).toBe(true)
  })

  it('rejects month 00 and 13', () => {
    expect(codeOf(() => isExpired('2500', new Date(2024, 0, 1)))).toBe('badExpiry')
    expect(codeOf(() => isExpired('2513', new Date(2024, 0, 1)))).toBe('badExpiry')
  })
})
