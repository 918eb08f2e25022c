import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createLogger, redactDeep, scrubText } from '../../../src-main/log'
import { samplePayment } from '../../support/sample-bodies'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-log-'))
  dirs.push(dir)
  return dir
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

const PAN = '4761739001010010'
const sensitiveBody = () =>
  samplePayment({
    paymentMethod: {
      type: 'card',
      card: {
        cardInfo: {
          cardNumber: PAN,
          expiryDate: '3012',
          holderName: 'CARDHOLDER/VISA',
          track1: `%B${PAN}^CARDHOLDER/VISA^30122011143804400000?`,
          track2: `${PAN}=30122011143804400000`,
          icCardData: '9F2608C2F3A1B4D5E6F7089F2701809F10120110A00003220000000000000000000000FF',
        },
        pin: { encryptedPin: '1B9C1845EB993A7A', keySerialNumber: 'FFFF9876543210E00001', pinEncryptMethod: 'DUKPT-TDES-ISO0' },
      },
    },
  })

describe('log redaction', () => {
  it('a payment body logged at debug level into the log file shows no card, PIN or key field', () => {
    const file = join(tempDir(), 'pos-agent.log')
    const logger = createLogger({ level: 'debug', destination: pino.destination({ dest: file, sync: true }) })
    logger.debug({ body: sensitiveBody(), signingKey: 'k3y-0123456789abcdefghijklmnopqr' }, 'sending payment')
    logger.error(new Error(`card ${PAN} refused, track ;${PAN}=30122011143804400000?`), 'device said')
    logger.info(`free text mentioning ${PAN}`)
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('sending payment')
    expect(text).toContain('T0001-000001') // ids stay readable
    for (const secret of [
      PAN,
      '30122011143804400000',
      '1B9C1845EB993A7A',
      'FFFF9876543210E00001',
      '9F2608C2F3A1B4D5',
      'CARDHOLDER',
      'k3y-0123456789',
    ]) {
      expect(text, `log leaks ${secret}`).not.toContain(secret)
    }
    expect(text).toContain('476173…0010')
  })

  it('keeps non-card numbers and masks only Luhn-valid runs', () => {
    expect(scrubText('order 1234567890123 total')).toBe('order 1234567890123 total') // not Luhn-valid
    expect(scrubText(`pan ${PAN}`)).toBe('pan 476173…0010')
    expect(redactDeep({ a: [{ Track2: 'x' }], n: 5 })).toEqual({ a: [{ Track2: '[REDACTED]' }], n: 5 })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => JSON.stringify(redactDeep(cyclic))).not.toThrow()
  })

  it('writes JSON lines to a rotated file in the log folder', async () => {
    const dir = tempDir()
    const logger = createLogger({ level: 'info', logDir: dir, maxFileSizeMb: 1, maxFiles: 2 })
    const filler = 'x'.repeat(2_000)
    for (let i = 0; i < 1_200; i++) logger.info({ i, filler }, 'line')
    await new Promise<void>((resolve) => logger.flush(() => resolve()))
    await new Promise((r) => setTimeout(r, 500))
    const files = readdirSync(dir).filter((f) => f.startsWith('pos-agent'))
    expect(files.length).toBeGreaterThanOrEqual(2) // ~2.4 MB over 1 MB files rotated
    const first = readFileSync(join(dir, files.sort()[0]!), 'utf8').split('\n')[0]!
    expect(JSON.parse(first)).toMatchObject({ msg: 'line', app: 'pos-agent' })
  })
})

describe('log files at rest', () => {
  it.runIf(process.platform !== 'win32')("are the owner's only: the folder 0700 (narrowed if it was wider), each file 0600", async () => {
    const logDir = join(tempDir(), 'logs')
    mkdirSync(logDir, { mode: 0o755 })
    chmodSync(logDir, 0o755)
    const logger = createLogger({ level: 'info', logDir })
    logger.info('a line')
    await new Promise<void>((done) => logger.flush(() => done()))
    const deadline = Date.now() + 5_000
    while (readdirSync(logDir).filter((n) => n.endsWith('.log')).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50))
    const files = readdirSync(logDir).filter((n) => n.endsWith('.log'))
    expect(files.length).toBeGreaterThan(0)
    expect(statSync(logDir).mode & 0o777).toBe(0o700)
    for (const name of files) expect(statSync(join(logDir, name)).mode & 0o777).toBe(0o600)
  })
})
