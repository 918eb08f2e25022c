/** Receipts: one model of a card transaction's receipt, and its plain-text form. */
export * from './receipt'
export * from './printer-states'
