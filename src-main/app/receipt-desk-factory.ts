/**
 * Where a runtime's receipts go besides the screen: the configured receipt printer (in training mode
 * with none configured, a simulated one on a pty pair when socat is installed, so the whole flow can
 * be practised) and the configured SMTP server, its password read from the keychain when a receipt
 * is sent.
 */
import { readFileSync } from 'node:fs'
import type { AgentConfig } from '../config'
import { ConfigError } from '../config'
import { smtpPasswordAccount } from '../keychain'
import { EscPosPrinter, printerLink, ReceiptDesk, SmtpReceiptMailer, type ReceiptMailer, type ReceiptPrinter } from '../receipts'
import { startPrinterSim } from '../training'
import type { ReceiptMerchant } from '../../src-shared/receipt'
import type { Runtime } from './runtime'
import { commandOnPath } from './command-on-path'

/** How often the printer is asked how it is while nothing prints. */
const PRINTER_POLL_MS = 60_000

export interface ReceiptDeskHandle {
  desk: ReceiptDesk
  close(): Promise<void>
}

export async function openReceiptDesk(runtime: Runtime, config: AgentConfig, merchant: ReceiptMerchant): Promise<ReceiptDeskHandle> {
  const closers: Array<() => Promise<void>> = []
  let printer: ReceiptPrinter | undefined
  if (config.printer) {
    const { connection, paperMm, timeoutMs } = config.printer
    printer = new EscPosPrinter({ open: printerLink(connection, timeoutMs), paper: paperMm, answerTimeoutMs: timeoutMs })
  } else if (runtime.mode === 'training' && commandOnPath('socat')) {
    const sim = await startPrinterSim()
    closers.push(() => sim.stop())
    printer = new EscPosPrinter({ open: printerLink({ kind: 'serial', path: sim.path, baudRate: 115_200 }, 3_000), paper: 80 })
    runtime.logger.info({ port: sim.path }, 'training: simulated receipt printer on a pty pair')
  }
  const desk = new ReceiptDesk(merchant, printer, config.email ? smtpMailer(runtime, config.email) : undefined, runtime.clock)
  if (printer) {
    // Found out of paper or switched off between sales too, for the status line and the metrics.
    const ask = () => void printer.status().catch(() => undefined)
    ask()
    const poll = setInterval(ask, PRINTER_POLL_MS)
    poll.unref()
    closers.unshift(async () => clearInterval(poll))
  }
  return {
    desk,
    close: async () => {
      for (const close of closers) await close()
    },
  }
}

function smtpMailer(runtime: Runtime, email: NonNullable<AgentConfig['email']>): ReceiptMailer {
  let ca: string | undefined
  if (email.caFile !== undefined) {
    try {
      ca = readFileSync(email.caFile, 'utf8')
    } catch (error) {
      throw new ConfigError(`email.caFile ${email.caFile} cannot be read (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  const { user } = email
  return new SmtpReceiptMailer({
    host: email.host,
    port: email.port,
    security: email.security,
    from: email.from,
    timeoutMs: email.timeoutMs,
    ...(ca !== undefined ? { ca } : {}),
    ...(user !== undefined ? { user, password: () => runtime.secrets.get(smtpPasswordAccount(user, email.host)) } : {}),
  })
}
