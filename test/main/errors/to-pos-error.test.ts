/**
 * toPosError, the one mapping every entrance uses: each family of errors to its catalogue code,
 * and so to the catalogue's status and retryability.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ERROR_CATALOGUE, PosError, type ErrorCode } from '../../../src-shared/errors'
import { MoneyError } from '../../../src-shared/money'
import { ConfigError, MissingConfigurationError } from '../../../src-main/config'
import { Neo2StatusError, Neo2TransactionError } from '../../../src-main/device/neo2'
import { toPosError } from '../../../src-main/errors'
import { JournalBusyError, JournalDiskFullError, StaleSaleError } from '../../../src-main/journal'
import { SecretStoreUnavailableError } from '../../../src-main/keychain'

/** A driver error as the device door's errors carry it (device/reader-error.ts `ReaderError`). */
function readerError(code: string, action: string, retryable: boolean): Error {
  return Object.assign(new Error(`reader said ${code}`), { code, action, cashierMessage: 'Card reader words.', retryable })
}

function expectMapped(error: unknown, code: ErrorCode): PosError {
  const mapped = toPosError(error)
  expect(mapped).toBeInstanceOf(PosError)
  expect(mapped.code).toBe(code)
  expect(mapped.retryable).toBe(ERROR_CATALOGUE[code].retryable)
  return mapped
}

describe('toPosError', () => {
  it('passes a PosError through as it is', () => {
    const error = new PosError('NO_SUCH_SALE', 'There is no sale X on this terminal.')
    expect(toPosError(error)).toBe(error)
  })

  it('journal errors keep their codes; busy is the one worth repeating', () => {
    expectMapped(new JournalDiskFullError('/data/journal.sqlite'), 'JOURNAL_DISK_FULL')
    expect(expectMapped(new JournalBusyError('/data/journal.sqlite'), 'JOURNAL_BUSY').retryable).toBe(true)
    expect(ERROR_CATALOGUE.JOURNAL_DISK_FULL.status).toBe(500)
  })

  it('a sale changed under a request is a retryable conflict, not an internal error', () => {
    const mapped = expectMapped(new StaleSaleError('sale T1-7 is no longer readingCard'), 'STALE_SALE')
    expect(mapped.retryable).toBe(true)
    expect(ERROR_CATALOGUE.STALE_SALE.status).toBe(409)
    expect(mapped.cause).toBeInstanceOf(StaleSaleError)
  })

  it('configuration and keychain errors', () => {
    expectMapped(new ConfigError('/etc/pos/config.json: host.aid: aid must not be empty'), 'CONFIG_INVALID')
    expectMapped(new MissingConfigurationError('/data', 'T1-00000001', 2), 'CONFIG_MISSING')
    expectMapped(new SecretStoreUnavailableError('no-service', 'no OS keychain answered', 'install gnome-keyring'), 'KEYCHAIN_UNAVAILABLE')
  })

  it.each([
    ['deviceDisconnected', 'waitAndRetry', 'READER_DISCONNECTED'],
    ['deviceBusy', 'waitAndRetry', 'READER_BUSY'],
    ['readerNotFound', 'callSupport', 'READER_NOT_FOUND'],
    ['unreadableCardData', 'presentCardAgain', 'CARD_UNREADABLE'],
    ['cancelled', 'none', 'READER_CANCELLED'],
    ['someFutureCode', 'callSupport', 'READER_NEEDS_SUPPORT'],
    ['someOtherCode', 'someFutureAction', 'READER_FAULT'],
  ] as const)('reader error %s (%s) is %s', (code, action, expected) => {
    const mapped = expectMapped(readerError(code, action, true), expected)
    expect(mapped.message).toBe(`reader said ${code}`)
  })

  it('NEO 2 status and failure-record errors, by the advice they carry', () => {
    expectMapped(new Neo2StatusError(0x08), 'READER_FAULT') // timeout: try again
    expectMapped(new Neo2StatusError(0x02), 'READER_NEEDS_SUPPORT') // unknown command: call support
    expectMapped(new Neo2TransactionError({ errorCode: 0x42, sw1: 0x90, sw2: 0, rfState: 0 }), 'CARD_DECLINED')
    expectMapped(new Neo2TransactionError({ errorCode: 0x26, sw1: 0x90, sw2: 0, rfState: 0 }), 'CARD_NOT_USABLE')
  })

  it('a failed validation is an invalid request naming the field', () => {
    const result = z.strictObject({ id: z.string().min(1) }).safeParse({ id: '' })
    expect(result.success).toBe(false)
    const mapped = expectMapped(result.error, 'INVALID_REQUEST')
    expect(mapped.message).toMatch(/^id: /)
    expect(ERROR_CATALOGUE.INVALID_REQUEST.status).toBe(400)
  })

  it('an amount or currency the money rules refuse', () => {
    expectMapped(new MoneyError('unknown currency code "XXY"'), 'INVALID_AMOUNT')
  })

  it('anything else is INTERNAL, not retryable, with its message and cause kept', () => {
    const bug = new TypeError('cannot read properties of undefined')
    const mapped = expectMapped(bug, 'INTERNAL')
    expect(mapped).toMatchObject({ message: 'cannot read properties of undefined', retryable: false, cause: bug })
    expect(expectMapped('a thrown string', 'INTERNAL').message).toBe('a thrown string')
    expect(ERROR_CATALOGUE.INTERNAL.status).toBe(500)
  })
})
