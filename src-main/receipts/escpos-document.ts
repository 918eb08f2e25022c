/**
 * Receipts as the bytes an ESC/POS thermal printer prints, built with a maintained encoder
 * (@point-of-sale/receipt-printer-encoder) rather than hand-written commands: initialise, each copy
 * laid out in the paper's columns (the same layout as the receipt's text, src-shared/receipt), the
 * heading double height, strong lines bold, a partial cut after each copy so the merchant's copy
 * tears off first. Pure: no port, no printer.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder'
import { lineText, type Slip } from '../../src-shared/receipt'

/** Paper widths and their columns in the printer's standard font A (12x24 dots): 58 mm 32, 80 mm 48. */
export const PAPER_COLUMNS = { 58: 32, 80: 48 } as const
export type PaperWidth = keyof typeof PAPER_COLUMNS

export function escPosReceipts(receipts: readonly Slip[], paper: PaperWidth): Uint8Array {
  const columns = PAPER_COLUMNS[paper]
  const encoder = new ReceiptPrinterEncoder({ language: 'esc-pos', columns, feedBeforeCut: 4 })
  encoder.initialize().codepage('auto')
  for (const receipt of receipts) {
    for (const line of receipt.lines) {
      const strong = line.kind === 'title' || ((line.kind === 'text' || line.kind === 'field') && line.strong === true)
      encoder.bold(strong)
      if (line.kind === 'title') encoder.height(2)
      for (const text of lineText(line, columns)) encoder.line(text)
      if (line.kind === 'title') encoder.height(1)
    }
    encoder.bold(false).cut('partial')
  }
  return encoder.encode()
}
