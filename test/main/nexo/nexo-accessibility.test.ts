/**
 * How a nexo payment asks for spoken prompts: SaleData.SaleToPOIData, Base64 JSON whose Operation
 * list holds Type Payment, Variant Accessibility (Adyen, "Accessibility mode from the POS app").
 * Anything else a POS keeps there asks for nothing.
 */
import { describe, expect, it } from 'vitest'
import { asksForSpeech } from '../../../src-main/nexo/nexo-accessibility'

const base64 = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64')

describe('SaleToPOIData asking for speech', () => {
  it.each([
    ['the Operation list with Payment/Accessibility', base64({ Operation: [{ Type: 'Payment', Variant: 'Accessibility' }] }), true],
    ['among other operations', base64({ Operation: [{ Type: 'Other' }, { Type: 'Payment', Variant: 'Accessibility' }] }), true],
    ['a single Operation object', base64({ Operation: { Type: 'Payment', Variant: 'Accessibility' } }), true],
    ['absent', undefined, false],
    ['another variant', base64({ Operation: [{ Type: 'Payment', Variant: 'Standard' }] }), false],
    ['another type', base64({ Operation: [{ Type: 'Refund', Variant: 'Accessibility' }] }), false],
    ['the POS own data', base64({ basket: 'B-17' }), false],
    ['Base64 that is not JSON', base64('not json'), false],
    ['not Base64 at all', '{"Operation":[{"Type":"Payment","Variant":"Accessibility"}]}', false],
    ['JSON null', base64('null'), false],
  ])('%s', (_, data, expected) => {
    expect(asksForSpeech(data)).toBe(expected)
  })
})
