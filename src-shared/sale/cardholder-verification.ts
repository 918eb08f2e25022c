/**
 * How the cardholder was verified on a card sale, as a receipt prints it (docs/receipts.md): a PIN
 * (checked by the chip offline or sent enciphered to the issuer), a signature, both, or none (a
 * contactless sale under the limit, or a card asking for no CVM). Read from the card's CVM Results
 * (9F34, EMV 4.4 Book 3 Annex C3) or, without a chip, from whether a PIN was entered.
 */
export const CARDHOLDER_VERIFICATIONS = ['pin', 'signature', 'pinAndSignature', 'none'] as const
export type CardholderVerification = (typeof CARDHOLDER_VERIFICATIONS)[number]
