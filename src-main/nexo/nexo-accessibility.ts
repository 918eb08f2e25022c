/**
 * Spoken prompts for one payment, as a nexo POS asks for them. The nexo PaymentRequest has no field
 * of its own for an accessible payment. Adyen's Terminal API, the nexo JSON this endpoint speaks,
 * carries it in `SaleData.SaleToPOIData` (nexo: "Sale information intended for the POI"): a
 * Base64-encoded JSON object whose `Operation` list holds `{"Type": "Payment", "Variant":
 * "Accessibility"}` (Adyen, "Accessibility mode from the POS app", section "Make an accessible
 * payment from the POS app", docs.adyen.com/point-of-sale/android-terminals/accessibility-mode/
 * accessibility-from-pos, 2025-05-27). The agent reads the same field, the same way, so a POS that
 * turns on Adyen's accessibility mode turns on the customer display's speech here.
 *
 * Anything else in SaleToPOIData (a POS may keep its own data there) asks for nothing.
 */

/** Whether `saleToPoiData` (SaleData.SaleToPOIData as sent) asks for the payment's prompts to be spoken. */
export function asksForSpeech(saleToPoiData: string | undefined): boolean {
  if (saleToPoiData === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(saleToPoiData)) return false
  let data: unknown
  try {
    data = JSON.parse(Buffer.from(saleToPoiData, 'base64').toString('utf8'))
  } catch {
    return false
  }
  if (typeof data !== 'object' || data === null) return false
  const operations: unknown = (data as { Operation?: unknown }).Operation
  const list = Array.isArray(operations) ? operations : [operations]
  return list.some((operation) => {
    if (typeof operation !== 'object' || operation === null) return false
    const { Type, Variant } = operation as { Type?: unknown; Variant?: unknown }
    return Type === 'Payment' && Variant === 'Accessibility'
  })
}
