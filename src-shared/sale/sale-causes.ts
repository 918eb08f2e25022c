/**
 * Why a payment ended as it did, recorded by the machine where it happens (src-main/txn/txn-machine.ts)
 * and kept with the sale: what a door that speaks another protocol (nexo's ErrorCondition) reads,
 * instead of parsing the reason's words back. The reason stays the cashier's sentence.
 */
export const SALE_CAUSES = [
  /** The bank declined the payment. */
  'bankDeclined',
  /** The bank refused the message the terminal sent (nothing recorded there). */
  'bankRefusedMessage',
  /** The bank could not be reached, and the payment could not be stored. */
  'bankUnreachable',
  /** No valid answer came from the bank: reversed, as it may have been charged. */
  'noAnswer',
  /** The card refused at its last word (after the bank approved, or offline). */
  'cardRefused',
  /** The terminal stopped while the payment was with the bank or the card: reversed or ended at the restart. */
  'interrupted',
] as const
export type SaleCause = (typeof SALE_CAUSES)[number]
