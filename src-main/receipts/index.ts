/**
 * Receipts leaving the terminal: ESC/POS thermal printers (58 and 80 mm) over a serial port or the
 * network, their status, and the receipts as printer bytes (docs/receipts.md). The ESC/POS encoding
 * (escpos-document.ts) is loaded by the printer when it prints, so it is not exported here.
 */
export type { PaperWidth } from './escpos-document'
export type { EscPosPrinterOptions, ReceiptPrinter } from './escpos-printer'
export { EscPosPrinter } from './escpos-printer'
export type { OpenPrinterLink, PrinterConnection, PrinterLink } from './printer-link'
export { printerLink } from './printer-link'
export type { PrinterState, StatusQuery } from './printer-status'
export { canPrint, isStatusByte, printerState, statusQuery } from './printer-status'
export type { ReceiptMailer, SmtpSettings } from './receipt-mailer'
export { isEmailAddress, SmtpReceiptMailer } from './receipt-mailer'
export type { ReceiptCopies } from './receipt-desk'
export { ReceiptDesk } from './receipt-desk'
