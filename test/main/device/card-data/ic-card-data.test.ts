import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  buildIcCardData,
  cardSequenceNumFrom,
  cryptogramEvidence,
  IcCardDataError,
  isForbiddenInIcCardData,
  withCompletion,
} from '../../../../src-main/device/card-data/ic-card-data'
import { decodeTlv, encodeTlv, walkTlv } from '../../../../src-main/device/card-data/tlv'
import type { TlvInput } from '../../../../src-main/device/card-data/tlv'
import { AUTHORIZATION_TAGS, COMPLETION_TAGS, SAD_TAGS, tagName } from '../../../../src-main/device/card-data/tlv-dictionary'
import { VECTOR_A } from './card-vectors'

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex')
const FORBIDDEN_BY_BRIEF = ['56', '57', '5A', '5F20', '5F24', '99', '9F1F', '9F20']

describe('icCardData (DE 55) from the reader tags', () => {
  it('passes Vector A through unchanged: all 13 tags are authorization tags, order kept', () => {
    expect(buildIcCardData(decodeTlv(hex(VECTOR_A)))).toBe(VECTOR_A)
  })

  it('drops PAN, track equivalents, name, expiry and PIN, also from inside a reader template', () => {
    const reader = decodeTlv(
      encodeTlv([
        { tag: '57', value: hex('4761739001010010D22122011143804400000F') },
        { tag: '5A', value: hex('4761739001010010') },
        { tag: '9F26', value: hex('1E1756ED0E2134E2') },
        { tag: '5F20', value: Buffer.from('CARDHOLDER/VISA') },
        { tag: '5F24', value: hex('221231') },
        {
          tag: 'FFEE01',
          children: [
            { tag: 'DF30', value: hex('01') },
            { tag: '57', value: hex('4761D2212') },
            { tag: '9F36', value: hex('0015') },
          ],
        },
        { tag: '99', value: hex('0123456789ABCDEF') },
        { tag: '9F27', value: hex('80') },
        { tag: '5F34', value: hex('01') },
      ]),
      { padding: 'zeroOnly' },
    )
    expect(buildIcCardData(reader)).toBe('9F26081E1756ED0E2134E2' + '9F360200159F2701805F340101')
  })

  it('keeps the first occurrence of a repeated tag', () => {
    const tlvs = decodeTlv(hex('9C 01 00 9C 01 20'))
    expect(buildIcCardData(tlvs)).toBe('9C0100')
  })

  it('is "" when no authorization tag is present', () => {
    expect(buildIcCardData(decodeTlv(hex('57 02 41 11 5A 02 41 11')))).toBe('')
  })

  it("copies the acquirer's own tag list, but refuses a list that names a forbidden tag", () => {
    const tlvs = decodeTlv(hex(VECTOR_A))
    expect(buildIcCardData(tlvs, { tags: ['9f02', '5F2A'] })).toBe('9F02060000000020005F2A020840')
    for (const tag of FORBIDDEN_BY_BRIEF) {
      expect(() => buildIcCardData(tlvs, { tags: ['9F26', tag.toLowerCase()] })).toThrow(IcCardDataError)
    }
  })

  it('the deny-list holds every tag docs/card-reader.md §2.2 forbids, and none is allowed', () => {
    for (const tag of [...FORBIDDEN_BY_BRIEF, '9F0B']) expect(isForbiddenInIcCardData(tag)).toBe(true)
    expect(AUTHORIZATION_TAGS.filter((tag) => SAD_TAGS.includes(tag))).toEqual([])
    expect(AUTHORIZATION_TAGS).toHaveLength(26)
    expect(tagName('9f26')).toBe('Application Cryptogram')
  })

  it('never carries a forbidden tag, whatever the reader sends and whatever list is configured (property)', () => {
    const tag = fc.constantFrom(...AUTHORIZATION_TAGS, ...SAD_TAGS, '9F39', 'DF30', '50')
    const { tree } = fc.letrec<{ tree: TlvInput[]; node: TlvInput }>((tie) => ({
      tree: fc.array(tie('node'), { maxLength: 6 }),
      node: fc.oneof(
        { depthSize: 'small' },
        fc.record({ tag, value: fc.uint8Array({ maxLength: 12 }) }),
        fc.record({ tag: fc.constantFrom('70', '77', 'E1', 'FFEE01'), children: tie('tree') }),
      ),
    }))
    const allowList = fc.option(fc.subarray([...AUTHORIZATION_TAGS, '9F39', '50']), { nil: undefined })
    fc.assert(
      fc.property(tree, allowList, (input, tags) => {
        const reader = decodeTlv(encodeTlv(input), { padding: 'zeroOnly' })
        const out = decodeTlv(hex(buildIcCardData(reader, tags ? { tags } : {})))
        const wanted = new Set(tags ?? AUTHORIZATION_TAGS)
        const expected = new Set([...walkTlv(reader)].filter((t) => !t.children && wanted.has(t.tag)).map((t) => t.tag))
        expect(out.every((t) => !t.children && !SAD_TAGS.includes(t.tag))).toBe(true)
        expect(new Set(out.map((t) => t.tag))).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })
})

describe('cardSequenceNum from 5F34', () => {
  it.each([
    ['5F 34 01 01', '001'],
    ['5F 34 01 00', '000'],
    ['5F 34 01 99', '099'],
    ['70 04 5F 34 01 02', '002'],
  ])('%s → "%s" (DE 23, n3)', (bytes, expected) => {
    expect(cardSequenceNumFrom(decodeTlv(hex(bytes)))).toBe(expected)
  })

  it('is undefined without 5F34 and an error for a value that is not one BCD byte', () => {
    expect(cardSequenceNumFrom(decodeTlv(hex(VECTOR_A)))).toBeUndefined()
    expect(() => cardSequenceNumFrom(decodeTlv(hex('5F 34 01 0A')))).toThrow(expect.objectContaining({ code: 'badPanSequenceNumber' }))
    expect(() => cardSequenceNumFrom(decodeTlv(hex('5F 34 02 00 01')))).toThrow(IcCardDataError)
  })
})

describe('withCompletion: the read brought up to date with the 2nd GENERATE AC (docs/card-reader.md §2.5)', () => {
  // The read: ARQC (9F27 80) with its cryptogram, counter, TVR and amount.
  const READ = '9F2608' + '1111111111111111' + '9F270180' + '9F36020015' + '950500000000009F0206000000001234'
  // The completion: TC (9F27 40), a new cryptogram, the same ATC, TSI, and 8A "Y3".
  const COMPLETION = '9F270140' + '9F2608' + '2222222222222222' + '9F36020015' + '9B02E800' + '8A025933'

  it('replaces the read’s tags in place, keeps its order, appends the tags only the completion has', () => {
    expect(withCompletion(READ, COMPLETION)).toBe(
      '9F2608' + '2222222222222222' + '9F270140' + '9F36020015' + '95050000000000' + '9F0206000000001234' + '9B02E800' + '8A025933',
    )
  })

  it('is the read itself for an empty completion, and the completion itself for an empty read', () => {
    expect(withCompletion(READ, '')).toBe(READ)
    expect(withCompletion('', COMPLETION)).toBe(COMPLETION)
  })

  it('takes lower-case hex and answers upper case; the first occurrence of a repeated tag wins', () => {
    expect(withCompletion('9c0100', '8a0259338a025a33')).toBe('9C01008A025933')
  })

  it('never carries a forbidden tag, from the read or the completion', () => {
    const withPan = encodeTlv([
      { tag: '5A', value: hex('4761739001010010') },
      { tag: '9F27', value: hex('80') },
    ]).toString('hex')
    const withTrack = encodeTlv([
      { tag: '9F27', value: hex('40') },
      { tag: '57', value: hex('4761739001010010D2212') },
      { tag: '5F20', value: Buffer.from('CARDHOLDER/VISA') },
    ]).toString('hex')
    const tags = decodeTlv(hex(withCompletion(withPan, withTrack))).map((t) => t.tag)
    expect(tags).toEqual(['9F27'])
    expect(withCompletion(withPan, withTrack)).toBe('9F270140')
  })

  it.each([
    ['not hex', 'ZZ', '8A025933'],
    ['an odd number of digits', '9F27014', '8A025933'],
    ['a truncated value', '9F2708AABB', '8A025933'],
    ['a bad completion', READ, '8A05'],
  ])('refuses %s with IcCardDataError badIcCardData', (_, read, completion) => {
    expect(() => withCompletion(read, completion)).toThrow(expect.objectContaining({ name: 'IcCardDataError', code: 'badIcCardData' }))
  })

  it('COMPLETION_TAGS are the 2nd GENERATE AC output tags, none of them forbidden, 9B named', () => {
    expect([...COMPLETION_TAGS].sort()).toEqual(['8A', '95', '9B', '9F10', '9F26', '9F27', '9F36'])
    expect(COMPLETION_TAGS.filter(isForbiddenInIcCardData)).toEqual([])
    expect(tagName('9b')).toBe('Transaction Status Information')
  })
})

describe('cryptogramEvidence: what a sale’s history keeps of the final cryptogram', () => {
  it('reads 9F27, 9F26, 9F36 as hex and 8A as its characters', () => {
    expect(cryptogramEvidence('9F270140' + '9F26082222222222222222' + '9F36020015' + '8A025933')).toEqual({
      cid: '40',
      cryptogram: '2222222222222222',
      atc: '0015',
      responseCode: 'Y3',
    })
  })

  it('is undefined without a cryptogram; 9F36 and 8A are optional', () => {
    expect(cryptogramEvidence('8A025931')).toBeUndefined()
    expect(cryptogramEvidence('9F270100' + '9F26083333333333333333')).toEqual({ cid: '00', cryptogram: '3333333333333333' })
  })
})
