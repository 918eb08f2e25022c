/**
 * BMP 60, the individual totals of End-of-Day and Send Turnover Totals: read from a real terminal's
 * End-of-Day answer (EVerest/zvt's capture, test/fixtures/zvt/captured-vectors.json) and written
 * back byte for byte; built from a batch's totals by card brand; and total on bytes that are wrong.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  decodeApdu,
  decodeIndividualTotals,
  encodeIndividualTotals,
  findBmp,
  individualTotals,
  totalGroupOf,
  TOTAL_GROUPS,
  type IndividualTotals,
} from '../../../src-main/zvt'
import { decodeBody } from '../../../src-main/zvt/zvt-body'

const { vectors } = JSON.parse(readFileSync(new URL('../../fixtures/zvt/captured-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Array<{ name: string; hex: string }>
}

const empty = () => Object.fromEntries(TOTAL_GROUPS.map((group) => [group, { count: 0, turnoverMinor: 0 }])) as IndividualTotals['groups']

describe('BMP 60, individual totals', () => {
  it("reads a real terminal's End-of-Day totals (receipts 0233 to 0234, two Eurocard payments, 9.58) and writes them back byte for byte", () => {
    const vector = vectors.find((v) => v.name === 'everest/1680761828.489701000_pt_ecr')!
    const message = decodeApdu(Uint8Array.from(Buffer.from(vector.hex, 'hex')))
    const body = message.ok ? decodeBody(message.value) : undefined
    if (!body?.ok) throw new Error('the captured End-of-Day answer does not decode')
    const captured = findBmp(body.value.fields, 0x60)!.value
    const totals = decodeIndividualTotals(captured)
    if (!totals.ok) throw new Error('BMP 60 does not decode')
    expect(totals.value).toEqual({
      receiptStart: 233,
      receiptEnd: 234,
      groups: { ...empty(), eurocard: { count: 2, turnoverMinor: 958 } },
    })
    expect(Buffer.from(encodeIndividualTotals(totals.value)).toString('hex')).toBe(Buffer.from(captured).toString('hex'))
  })

  it("totals a batch's payments and tips by card group, in the terminal's currency only", () => {
    const rows = [
      { currency: 'EUR', brand: 'girocard', count: 3, amountMinor: 4_500, tipMinor: 0 },
      { currency: 'EUR', brand: 'Mastercard', count: 2, amountMinor: 2_000, tipMinor: 150 },
      { currency: 'EUR', brand: 'Maestro', count: 1, amountMinor: 700, tipMinor: 0 },
      { currency: 'EUR', brand: 'VISA', count: 4, amountMinor: 10_000, tipMinor: 500 },
      { currency: 'EUR', brand: 'UnionPay', count: 1, amountMinor: 1_234, tipMinor: 0 },
      { currency: 'USD', brand: 'Visa', count: 9, amountMinor: 99_999, tipMinor: 0 },
    ]
    expect(individualTotals(rows, 'EUR', [17, 12, 30])).toEqual({
      receiptStart: 12,
      receiptEnd: 30,
      groups: {
        ...empty(),
        girocard: { count: 3, turnoverMinor: 4_500 },
        eurocard: { count: 3, turnoverMinor: 2_850 },
        visa: { count: 4, turnoverMinor: 10_500 },
        other: { count: 1, turnoverMinor: 1_234 },
      },
    })
    expect(individualTotals([], 'EUR', [])).toEqual({ receiptStart: 0, receiptEnd: 0, groups: empty() })
    expect(['American Express', 'Diners Club', 'JCB', 'V PAY'].map(totalGroupOf)).toEqual(['amex', 'diners', 'jcb', 'visa'])
  })

  it('writes 53 bytes, a count over 255 as 255, and reads back what it wrote', () => {
    const totals: IndividualTotals = {
      receiptStart: 1,
      receiptEnd: 9_999,
      groups: { ...empty(), visa: { count: 300, turnoverMinor: 123_456_789 }, amex: { count: 1, turnoverMinor: 5 } },
    }
    const bytes = encodeIndividualTotals(totals)
    expect(bytes).toHaveLength(53)
    const back = decodeIndividualTotals(bytes)
    expect(back.ok && back.value).toEqual({ ...totals, groups: { ...totals.groups, visa: { count: 255, turnoverMinor: 123_456_789 } } })
  })

  it('refuses a field of the wrong length or with a turnover that is not digits, with a reason, never a throw', () => {
    expect(decodeIndividualTotals(new Uint8Array(52))).toMatchObject({ ok: false, error: { kind: 'malformed', what: 'BMP 60' } })
    const bad = encodeIndividualTotals({ receiptStart: 1, receiptEnd: 2, groups: empty() })
    bad[5 + 4 * 7] = 0xaf
    expect(decodeIndividualTotals(bad)).toMatchObject({ ok: false, error: { kind: 'badBcd', what: 'BMP 60 visa turnover' } })
  })
})
