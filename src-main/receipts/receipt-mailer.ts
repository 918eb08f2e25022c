/**
 * Email receipts through the store's own SMTP server, with nodemailer (a maintained mail library):
 * the customer's copy as plain text in a fixed-width block and as simple HTML of the same lines. The
 * connection is TLS-validated (STARTTLS required, or implicit TLS on 465) unless the configuration
 * names a plain server, which only training mode may.
 */
import { PosError } from '../../src-shared/errors'
import { receiptText, type Receipt } from '../../src-shared/receipt'

export interface SmtpSettings {
  host: string
  port: number
  /** `tls`: implicit TLS (465); `starttls`: upgrade required (587, 25); `none`: plain (training only). */
  security: 'tls' | 'starttls' | 'none'
  user?: string | undefined
  /** The password, read from the keychain when a receipt is sent (it may be set after the agent started). */
  password?: (() => Promise<string | undefined>) | undefined
  from: string
  /** An extra CA (PEM) to trust for the SMTP server's certificate. */
  ca?: string | undefined
  timeoutMs?: number | undefined
}

export interface ReceiptMailer {
  send(to: string, subject: string, receipt: Receipt): Promise<void>
}

/** What an address must look like before the agent tries it (RFC 5321 caps a path at 256 octets). */
const ADDRESS = /^[^\s@<>(),;:"]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z]{2,}$/

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value)
}

export class SmtpReceiptMailer implements ReceiptMailer {
  constructor(private readonly settings: SmtpSettings) {}

  async send(to: string, subject: string, receipt: Receipt): Promise<void> {
    if (!isEmailAddress(to)) throw new PosError('INVALID_REQUEST', 'That does not look like an email address.')
    const lines = receiptText(receipt, 40)
    try {
      const transport = await this.transport()
      try {
        await transport.sendMail({
          from: this.settings.from,
          to,
          subject,
          text: lines.join('\n') + '\n',
          html: `<pre style="font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 14px">${lines.map(escapeHtml).join('\n')}</pre>`,
        })
      } finally {
        transport.close()
      }
    } catch (error) {
      throw new PosError(
        'EMAIL_FAILED',
        `the SMTP server did not take the receipt: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  /** A connection for one message: the password is read now, and the certificate always checked. */
  private async transport() {
    const { settings } = this
    const timeout = settings.timeoutMs ?? 15_000
    const password = settings.user !== undefined ? ((await settings.password?.()) ?? '') : undefined
    // nodemailer loads with the first receipt sent, not with every start of the agent.
    const { default: nodemailer } = await import('nodemailer')
    return nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.security === 'tls',
      requireTLS: settings.security === 'starttls',
      ignoreTLS: settings.security === 'none',
      ...(settings.user !== undefined ? { auth: { user: settings.user, pass: password ?? '' } } : {}),
      tls: { minVersion: 'TLSv1.2', rejectUnauthorized: true, ...(settings.ca !== undefined ? { ca: settings.ca } : {}) },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    })
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
