/**
 * Email receipts against a real SMTP server on 127.0.0.1 (smtp-server) that requires STARTTLS and a
 * login: the agent checks the server's certificate against the CA it is given, logs in with the
 * password read when the receipt is sent, and the customer's copy arrives as the receipt's lines.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ReceiptDesk, SmtpReceiptMailer, type SmtpSettings } from '../../../src-main/receipts'
import { loadOrCreateTlsMaterial, type TlsMaterial } from '../../../src-main/tls'
import { CHIP_SALE, MERCHANT } from '../../support/receipt-fixtures'

interface Received {
  from: string
  to: string[]
  data: string
  user: string | undefined
  secure: boolean
}

const dir = mkdtempSync(join(tmpdir(), 'pos-smtp-'))
const received: Received[] = []
let server: SMTPServer
let port: number
let tls: TlsMaterial

beforeAll(async () => {
  tls = await loadOrCreateTlsMaterial(dir, new Date(), {
    files: { caCert: 'ca.pem', caKey: 'ca-key.pem', cert: 'smtp.pem', key: 'smtp-key.pem' },
    organisation: 'pos-agent test mail server',
  })
  server = new SMTPServer({
    key: tls.keyPem,
    cert: tls.certPem,
    // A login only over TLS, as any real submission server insists.
    allowInsecureAuth: false,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'till' && auth.password === 'open sesame') return callback(null, { user: 'till' })
      return callback(new Error('invalid username or password'))
    },
    onMailFrom(_address, session, callback) {
      if (!session.user) return callback(new Error('log in first'))
      return callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
          secure: session.secure,
        })
        callback()
      })
    },
    logger: false,
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  port = (server.server.address() as AddressInfo).port
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

const settings = (overrides: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: '127.0.0.1',
  port,
  security: 'starttls',
  user: 'till',
  password: async () => 'open sesame',
  from: 'receipts@corner-cafe.example',
  ca: tls.caPem,
  timeoutMs: 5_000,
  ...overrides,
})

describe('email receipts', () => {
  it("sends the customer's copy over STARTTLS, logged in, checked against the store's CA", { timeout: 15_000 }, async () => {
    const desk = new ReceiptDesk(MERCHANT, undefined, new SmtpReceiptMailer(settings()))
    expect(desk.canEmail).toBe(true)
    await desk.email(CHIP_SALE, 'customer@example.com')
    expect(received).toHaveLength(1)
    const mail = received[0]!
    expect(mail).toMatchObject({ from: 'receipts@corner-cafe.example', to: ['customer@example.com'], user: 'till', secure: true })
    expect(mail.data).toMatch(/^Subject: Your receipt from Corner Cafe$/m)
    expect(mail.data).toContain('CUSTOMER COPY')
    expect(mail.data).toContain('476173******0010')
    expect(mail.data).not.toMatch(/^\s*MERCHANT COPY\s*$/m)
    expect(mail.data).not.toContain('4761739001010010')
  })

  it(
    'refuses a server whose certificate it cannot check, and a wrong password, in plain words; sends nothing',
    { timeout: 15_000 },
    async () => {
      const before = received.length
      const untrusted = new SmtpReceiptMailer(settings({ ca: undefined }))
      await expect(new ReceiptDesk(MERCHANT, undefined, untrusted).email(CHIP_SALE, 'customer@example.com')).rejects.toMatchObject({
        code: 'EMAIL_FAILED',
        message: expect.stringMatching(/certificate/i),
      })
      const wrongPassword = new SmtpReceiptMailer(settings({ password: async () => 'guess' }))
      await expect(new ReceiptDesk(MERCHANT, undefined, wrongPassword).email(CHIP_SALE, 'customer@example.com')).rejects.toMatchObject({
        code: 'EMAIL_FAILED',
      })
      expect(received.length).toBe(before)
    },
  )

  it('refuses an address that is not one before trying, and says when email is not set up', async () => {
    const desk = new ReceiptDesk(MERCHANT, undefined, new SmtpReceiptMailer(settings()))
    for (const address of ['customer', 'a@b', 'two@example.com, three@example.com', `${'x'.repeat(250)}@example.com`]) {
      await expect(desk.email(CHIP_SALE, address)).rejects.toMatchObject({ code: 'INVALID_REQUEST' })
    }
    await expect(new ReceiptDesk(MERCHANT).email(CHIP_SALE, 'customer@example.com')).rejects.toMatchObject({ code: 'EMAIL_NOT_CONFIGURED' })
  })
})
