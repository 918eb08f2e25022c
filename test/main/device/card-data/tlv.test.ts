import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeTlv, encodeTlv, findTlv, TlvError } from '../../../../src-main/device/card-data/tlv'
import type { Tlv, TlvInput, TlvPadding } from '../../../../src-main/device/card-data/tlv'
import { VECTOR_A } from './card-vectors'

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex')

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    if (error instanceof TlvError) return error.code
    throw error
  }
  return undefined
}

const flat = (tlvs: Tlv[]): [string, string][] => tlvs.map((t) => [t.tag, t.value.toString('hex').toUpperCase()])

describe('BER-TLV golden vectors (docs/card-reader.md §2.3)', () => {
  it('Vector A: 13 primitive objects with 1-byte lengths, re-encoded byte for byte', () => {
    const tlvs = decodeTlv(hex(VECTOR_A))
    expect(flat(tlvs)).toEqual([
      ['9F33', '204000'],
      ['95', '0000000000'],
      ['9F37', '51882371'],
      ['9F10', '06011103A00000'],
      ['9F26', '1E1756ED0E2134E2'],
      ['9F36', '0015'],
      ['82', '0000'],
      ['9C', '00'],
      ['9F1A', '0840'],
      ['9A', '000621'],
      ['9F02', '000000002000'],
      ['5F2A', '0840'],
      ['9F03', '000000000000'],
    ])
    expect(encodeTlv(tlvs).toString('hex').toUpperCase()).toBe(VECTOR_A)
  })

  it('Vector C (JavaTlv DgiTest 001): the 70 template after the DGI header holds 57 and 5F20', () => {
    const dgi = hex('010122702057125981786067381230D29125010000000000005F20094B4C53432043415244')
    expect(dgi.subarray(0, 3).toString('hex')).toBe('010122') // DGI 0101, length 0x22: not BER-TLV itself
    const [template, ...rest] = decodeTlv(dgi.subarray(3))
    expect(rest).toEqual([])
    expect(template?.tag).toBe('70')
    expect(template?.value.length).toBe(32)
    expect(flat(template?.children ?? [])).toEqual([
      ['57', '5981786067381230D2912501000000000000'],
      ['5F20', Buffer.from('KLSC CARD').toString('hex').toUpperCase()],
    ])
  })

  it('Vector C (DgiTest 002, first bytes only): reads the 81 B3 length and reports the missing value', () => {
    const fragment = hex('7081B39081B046F84655ABEBF98E20')
    const error = (() => {
      try {
        decodeTlv(fragment)
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(TlvError)
    expect(error).toMatchObject({ code: 'truncatedValue', offset: 3 })
    expect((error as Error).message).toContain('tag 70 needs 179 value bytes')
  })

  it('Vector D: 3-byte tag and 82-form lengths inside a template, re-encoded byte for byte', () => {
    const bytes = Buffer.concat([hex('70 82 01 06 DF 81 01 82 01 00'), Buffer.alloc(256)])
    expect(bytes.length).toBe(266)
    const tlvs = decodeTlv(bytes)
    expect(tlvs[0]?.value.length).toBe(262)
    const inner = findTlv(tlvs, 'df8101')
    expect(inner?.value).toEqual(Buffer.alloc(256))
    expect(encodeTlv(tlvs)).toEqual(bytes)
  })
})

describe('BER-TLV padding (ISO/IEC 7816-4 Annex D)', () => {
  const padded = hex('00 00 9C 01 00 FF FF 5F 2A 02 08 40 00')

  it('skips 00 and FF between objects by default', () => {
    expect(flat(decodeTlv(padded))).toEqual([
      ['9C', '00'],
      ['5F2A', '0840'],
    ])
  })

  it('keeps FF as a tag byte for ID TECH output (FFEE1F), skipping 00 only', () => {
    const record = hex('00 FF EE 1F 04 27 00 00 00 00')
    expect(flat(decodeTlv(record, { padding: 'zeroOnly' }))).toEqual([['FFEE1F', '27000000']])
    expect(codeOf(() => decodeTlv(record))).toBe('truncatedValue') // read as padding, EE 1F then wants 31 bytes
  })
})

describe('BER-TLV defects are typed errors', () => {
  it.each([
    ['truncatedTag', '9F'],
    ['truncatedTag', 'DF 81'],
    ['tagTooLong', 'DF 81 81 01 01 00'],
    ['truncatedLength', '9F 02'],
    ['truncatedLength', '5A 81'],
    ['truncatedLength', '5A 82 01'],
    ['indefiniteLength', '70 80 5A 01 00 00 00'],
    ['lengthTooLong', '5A 83 00 00 01 00'],
    ['lengthTooLong', '5A 84 00 00 00 01 00'],
    ['truncatedValue', '5A 08 41 11 11 11'],
    ['truncatedValue', '70 05 5A 08 41 11 11'],
  ])('%s: %s', (code, bytes) => {
    expect(codeOf(() => decodeTlv(hex(bytes)))).toBe(code)
  })

  it('limits template nesting so hostile input cannot exhaust the stack', () => {
    const nest = (depth: number): TlvInput => (depth === 0 ? { tag: '5A', value: hex('41') } : { tag: '70', children: [nest(depth - 1)] })
    expect(decodeTlv(encodeTlv([nest(8)]))).toHaveLength(1)
    expect(codeOf(() => decodeTlv(encodeTlv([nest(9)])))).toBe('tooDeep')
    expect(codeOf(() => decodeTlv(encodeTlv([nest(3000)])))).toBe('tooDeep')
  })

  it('reports the offset in the outer input for an error deep inside a template', () => {
    expect(() => decodeTlv(hex('9C 01 00 70 04 9F 02 05 00'))).toThrow(expect.objectContaining({ code: 'truncatedValue', offset: 8 }))
  })

  it.each([['9F'], ['1F'], ['DF8181'], ['9F81'], ['9F0102'], ['5A5A'], ['GG'], [''], ['00'], ['9F02A']])(
    'refuses to encode the tag "%s"',
    (tag) => {
      expect(codeOf(() => encodeTlv([{ tag, value: hex('00') }]))).toBe('badTag')
    },
  )

  it('refuses children under a primitive tag and values longer than 65535 bytes', () => {
    expect(codeOf(() => encodeTlv([{ tag: '5A', children: [] }]))).toBe('badTag')
    expect(codeOf(() => encodeTlv([{ tag: '5A', value: Buffer.alloc(0x10000) }]))).toBe('valueTooLong')
  })

  it('encodes lengths in the shortest form: 7F, 81 80, 81 FF, 82 01 00, 82 FF FF', () => {
    const head = (length: number): string =>
      encodeTlv([{ tag: '5A', value: Buffer.alloc(length) }])
        .subarray(0, 4)
        .toString('hex')
        .toUpperCase()
    expect([127, 128, 255, 256, 65535].map(head)).toEqual(['5A7F0000', '5A818000', '5A81FF00', '5A820100', '5A82FFFF'])
  })
})

/** A BER tag of 1-3 bytes; `noFf` leaves out first byte FF (read as padding under 'zeroAndFf'). */
function tagArb(constructed: boolean, noFf: boolean): fc.Arbitrary<string> {
  const cls = fc.integer({ min: 0, max: 3 })
  const single = fc
    .tuple(cls, fc.integer({ min: 0, max: 30 }))
    .map(([c, n]) => (c << 6) | (constructed ? 0x20 : 0) | n)
    .filter((b) => b !== 0x00)
    .map((b) => [b])
  const multi = fc
    .tuple(cls, fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 1 }), fc.integer({ min: 0, max: 0x7f }))
    .map(([c, middle, last]) => [(c << 6) | (constructed ? 0x20 : 0) | 0x1f, ...middle, last])
    .filter((bytes) => !(noFf && bytes[0] === 0xff))
  return fc.oneof(single, multi).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase())
}

function treeArb(noFf: boolean): fc.Arbitrary<TlvInput[]> {
  const { tree } = fc.letrec<{ tree: TlvInput[]; node: TlvInput }>((tie) => ({
    tree: fc.array(tie('node'), { maxLength: 4 }),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({
        tag: tagArb(false, noFf),
        value: fc.oneof(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ minLength: 120, maxLength: 300 })),
      }),
      fc.record({ tag: tagArb(true, noFf), children: tie('tree') }),
    ),
  }))
  return tree
}

interface Shape {
  tag: string
  value?: string
  children?: Shape[]
}
const shapeOfInput = (items: readonly TlvInput[]): Shape[] =>
  items.map((i) =>
    i.children ? { tag: i.tag, children: shapeOfInput(i.children) } : { tag: i.tag, value: Buffer.from(i.value ?? []).toString('hex') },
  )
const shapeOfTlv = (items: readonly Tlv[]): Shape[] =>
  items.map((t) => (t.children ? { tag: t.tag, children: shapeOfTlv(t.children) } : { tag: t.tag, value: t.value.toString('hex') }))

describe('BER-TLV properties', () => {
  it.each<[TlvPadding, boolean]>([
    ['zeroAndFf', true],
    ['zeroOnly', false],
  ])('encode then decode gives the same tree back (padding %s)', (padding, noFf) => {
    fc.assert(
      fc.property(treeArb(noFf), (tree) => {
        const decoded = decodeTlv(encodeTlv(tree), { padding, maxDepth: 64 })
        expect(shapeOfTlv(decoded)).toEqual(shapeOfInput(tree))
      }),
      { numRuns: 300 },
    )
  })

  it('padding between objects changes nothing', () => {
    fc.assert(
      fc.property(treeArb(true), fc.array(fc.constantFrom(0x00, 0xff), { maxLength: 4 }), (tree, pad) => {
        const padded = Buffer.concat(tree.flatMap((node) => [Buffer.from(pad), encodeTlv([node])]).concat(Buffer.from(pad)))
        expect(shapeOfTlv(decodeTlv(padded, { maxDepth: 64 }))).toEqual(shapeOfInput(tree))
      }),
    )
  })

  it('arbitrary bytes either decode or throw a TlvError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.constantFrom<TlvPadding>('zeroAndFf', 'zeroOnly'), (bytes, padding) => {
        try {
          const tlvs = decodeTlv(bytes, { padding })
          // whatever decodes must re-encode without error
          encodeTlv(tlvs)
        } catch (error) {
          expect(error).toBeInstanceOf(TlvError)
        }
      }),
      { numRuns: 2000 },
    )
  })
})
