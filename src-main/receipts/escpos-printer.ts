/**
 * A receipt printer that speaks ESC/POS over a serial port or the network. Before each job it asks
 * the printer how it is (DLE EOT, printer-status.ts) and refuses with plain words when it cannot print
 * (out of paper, cover open, not answering), so the cashier learns it at the counter instead of from
 * a blank slip; then it sends the receipts (escpos-document.ts). The last state it learned is kept
 * for the status line and the metrics.
 */
import { PosError } from '../../src-shared/errors'
import type { Slip } from '../../src-shared/receipt'
import type { PaperWidth } from './escpos-document'
import type { OpenPrinterLink, PrinterLink } from './printer-link'
import { canPrint, isStatusByte, printerState, statusQuery, type PrinterState, type StatusQuery } from './printer-status'

export interface ReceiptPrinter {
  readonly paper: PaperWidth
  /** Asks the printer now. */
  status(): Promise<PrinterState>
  /** The last state learned, and when (epoch ms); `notConfigured` for no printer. */
  lastKnown(): { state: PrinterState; checkedAt?: number }
  /** Prints the receipts, each cut after; refuses with a printer error when it cannot. */
  print(receipts: readonly Slip[]): Promise<void>
}

export interface EscPosPrinterOptions {
  open: OpenPrinterLink
  paper: PaperWidth
  /** How long a status answer may take before the printer counts as not answering. */
  answerTimeoutMs?: number
  now?: () => number
}

const REFUSALS: Partial<Record<PrinterState, { code: 'PRINTER_PAPER_OUT' | 'PRINTER_COVER_OPEN' | 'PRINTER_OFFLINE'; message: string }>> = {
  paperOut: { code: 'PRINTER_PAPER_OUT', message: 'the printer reports its paper roll empty' },
  coverOpen: { code: 'PRINTER_COVER_OPEN', message: 'the printer reports its cover open' },
  offline: { code: 'PRINTER_OFFLINE', message: 'the printer is offline or did not answer its status' },
}

export class EscPosPrinter implements ReceiptPrinter {
  private last: { state: PrinterState; checkedAt?: number } = { state: 'offline' }
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: EscPosPrinterOptions) {}

  get paper(): PaperWidth {
    return this.options.paper
  }

  lastKnown(): { state: PrinterState; checkedAt?: number } {
    return { ...this.last }
  }

  status(): Promise<PrinterState> {
    return this.oneAtATime(async () => {
      const link = await this.options.open().catch(() => undefined)
      if (!link) return this.learn('offline')
      try {
        return this.learn(await this.ask(link))
      } finally {
        await link.close()
      }
    })
  }

  print(receipts: readonly Slip[]): Promise<void> {
    return this.oneAtATime(async () => {
      const link = await this.options.open().catch((error: unknown) => {
        this.learn('offline')
        throw new PosError('PRINTER_OFFLINE', `the printer could not be reached: ${error instanceof Error ? error.message : String(error)}`)
      })
      try {
        const state = this.learn(await this.ask(link))
        const refusal = REFUSALS[state]
        if (!canPrint(state) && refusal) throw new PosError(refusal.code, refusal.message)
        // The ESC/POS encoder loads with the first receipt printed, not with every start of the agent.
        const { escPosReceipts } = await import('./escpos-document')
        await link.write(escPosReceipts(receipts, this.options.paper))
      } finally {
        await link.close()
      }
    })
  }

  /** One job at a time on the one printer: two prints never interleave their bytes. */
  private oneAtATime<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job)
    this.queue = run.catch(() => undefined)
    return run
  }

  private learn(state: PrinterState): PrinterState {
    this.last = { state, checkedAt: (this.options.now ?? Date.now)() }
    return state
  }

  /** The printer's state from its status answers; no answer in time is `offline`. */
  private async ask(link: PrinterLink): Promise<PrinterState> {
    const answers = statusAnswers(link, this.options.answerTimeoutMs ?? 1_000)
    const printer = await answers.ask('printer')
    if (printer === undefined) return 'offline'
    const offlineCause = (printer & 0x08) !== 0 ? await answers.ask('offlineCause') : undefined
    const paper = await answers.ask('paper')
    return printerState({ printer, offlineCause, paper })
  }
}

/** Sends one status query at a time and waits for its one-byte answer; bytes that are not status answers are skipped. */
function statusAnswers(link: PrinterLink, timeoutMs: number): { ask(query: StatusQuery): Promise<number | undefined> } {
  const pending: number[] = []
  let wake: (() => void) | undefined
  link.onData((chunk) => {
    for (const byte of chunk) if (isStatusByte(byte)) pending.push(byte)
    wake?.()
  })
  return {
    async ask(query) {
      pending.length = 0
      await link.write(statusQuery(query))
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wake = undefined
      }
      return pending.shift()
    },
  }
}
