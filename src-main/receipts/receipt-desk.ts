/**
 * Where a sale's receipt goes after the screen: the receipt printer (reprint the last or any), and
 * email. Both draw the one receipt model (src-shared/receipt) with this terminal's header, so a
 * reprint a week later is the same receipt, with its chip facts kept in the journal.
 */
import type { DayReportView, PrinterStatusView, SaleView } from '../../src-shared/contract'
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'
import { PosError } from '../../src-shared/errors'
import {
  dayReportSlip,
  buildReceipt,
  receiptCopies,
  receiptKindOf,
  type PrinterState,
  type ReceiptKind,
  type ReceiptMerchant,
} from '../../src-shared/receipt'
import type { ReceiptPrinter } from './escpos-printer'
import type { ReceiptMailer } from './receipt-mailer'

export type ReceiptCopies = 'both' | 'merchant' | 'customer'

export class ReceiptDesk {
  constructor(
    private readonly merchant: ReceiptMerchant,
    private readonly printer?: ReceiptPrinter,
    private readonly mailer?: ReceiptMailer,
    /** What a printed report and a printer's last check are dated by (src-shared/clock.ts). */
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  get canPrint(): boolean {
    return this.printer !== undefined
  }

  get canEmail(): boolean {
    return this.mailer !== undefined
  }

  async print(sale: SaleView, copies: ReceiptCopies = 'both', kind: ReceiptKind = receiptKindOf(sale)): Promise<void> {
    if (!this.printer) throw new PosError('PRINTER_NOT_CONFIGURED', 'no receipt printer in the configuration')
    const both = receiptCopies(sale, this.merchant, kind)
    await this.printer.print(copies === 'both' ? both : both.filter((receipt) => receipt.copy === copies))
  }

  /** The day report: a closed batch prints the same figures however often it is printed. */
  async printDayReport(report: DayReportView): Promise<void> {
    if (!this.printer) throw new PosError('PRINTER_NOT_CONFIGURED', 'no receipt printer in the configuration')
    await this.printer.print([dayReportSlip(report, this.merchant, this.clock.now())])
  }

  async email(sale: SaleView, to: string, kind: ReceiptKind = receiptKindOf(sale)): Promise<void> {
    if (!this.mailer) throw new PosError('EMAIL_NOT_CONFIGURED', 'no SMTP server in the configuration')
    const subject = `${this.merchant.training ? '[TRAINING] ' : ''}Your receipt from ${this.merchant.name}`
    await this.mailer.send(to, subject, buildReceipt(sale, this.merchant, 'customer', kind))
  }

  /** The state the printer was last found in, without asking it. */
  lastPrinterState(): PrinterState {
    return this.printer ? this.printer.lastKnown().state : 'notConfigured'
  }

  /** Asks the printer now (`fresh`), or tells what it said last. */
  async printerStatus(fresh: boolean): Promise<PrinterStatusView> {
    if (!this.printer) return { configured: false, state: 'notConfigured' }
    const known = fresh ? { state: await this.printer.status(), checkedAt: this.clock.now() } : this.printer.lastKnown()
    return { configured: true, paperMm: this.printer.paper, ...known }
  }
}
