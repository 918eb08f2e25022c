/** Receipts: one model of a card transaction's receipt, its plain-text form, and the day report as printed. */
export * from './receipt'
export * from './printer-states'
export * from './day-report-slip'
