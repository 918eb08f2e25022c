/**
 * The reasons the engine gives a sale that ended without a payment, in the cashier's words. Each
 * follows the sale's heading on the screen ("Not completed (being reversed)", "Declined"), so none
 * starts by repeating it. A door that must tell one ending from another reads the sale's cause
 * (sale-causes.ts), recorded with it, never these words.
 */
export const SALE_REASONS = {
  /** The bank's answer was lost or could not be read: reversed, since it may have approved. */
  noAnswer: 'no valid answer came from the bank',
  /** The bank approved, then the chip refused at its last word (AAC at the 2nd GENERATE AC): reversed. */
  cardRefusedAfterApproval: 'the card refused the payment after the bank approved it',
  /** The terminal stopped while the payment was on its way: reversed at the next start. */
  stoppedWhileSending: 'the terminal stopped while waiting for the bank',
  /** The terminal stopped before the chip gave its last word on an approval: reversed at the next start. */
  stoppedBeforeCard: 'the terminal stopped before the card confirmed the payment',
  /** The bank could not be reached and the chip refused to approve offline (AAC after Z3). */
  cardRefusedOffline: 'the card refused the payment while the bank could not be reached',
  /**
   * The bank could not be reached and the store's server did not keep a safe copy of the payment
   * (docs/store.md): it did not answer in time, or, with store.requireDurable, its copy is not on disk
   * (the status panel's "Copies:" line says which). Not stored, so not charged; the sale needs the bank.
   */
  noStoreCopy:
    "this card can't be approved offline now: the store server did not keep a safe copy of it in time, so this sale needs the bank: try again when the bank is back, or take another payment",
} as const
