/**
 * The error catalogue: every code once, a documented status, and words a cashier can read, with
 * none of the agent's own vocabulary in them: no code, no sale state or event name, no identifier.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CATALOGUE, ERROR_CODES, errorView, httpStatusOf, PosError, wordsOf } from '../../src-shared/errors'
import { JOURNAL_ERRORS } from '../../src-shared/errors/journal-errors'
import { OPERATOR_ERRORS } from '../../src-shared/errors/operator-errors'
import { READER_ERRORS } from '../../src-shared/errors/reader-errors'
import { RECEIPT_ERRORS } from '../../src-shared/errors/receipt-errors'
import { REQUEST_ERRORS } from '../../src-shared/errors/request-errors'
import { SALE_ERRORS } from '../../src-shared/errors/sale-errors'
import { SETUP_ERRORS } from '../../src-shared/errors/setup-errors'
import { OPERATION_NAMES } from '../../src-shared/contract'
import { TXN_STATES } from '../../src-main/txn/txn-types'

/** docs/local-api.md: the statuses the local API answers with (403 is the cross-origin refusal). */
const DOCUMENTED_STATUSES = [400, 401, 403, 404, 409, 413, 422, 429, 500]
/** Capitals a cashier knows as words. */
const ACRONYMS = new Set(['PIN'])

/** Event and effect names of the sale machine: every `type: '...'` declared in txn-types.ts. */
const MACHINE_NAMES = [
  ...readFileSync(new URL('../../src-main/txn/txn-types.ts', import.meta.url), 'utf8').matchAll(/type: '([A-Za-z]+)'/g),
].map((match) => match[1]!)

const tokens = (text: string) => text.match(/[A-Za-z0-9_]+/g) ?? []

describe('error catalogue', () => {
  it('declares each code once, across the families', () => {
    const families = [REQUEST_ERRORS, SALE_ERRORS, OPERATOR_ERRORS, SETUP_ERRORS, JOURNAL_ERRORS, READER_ERRORS, RECEIPT_ERRORS]
    const declared = families.flatMap((family) => Object.keys(family))
    expect(new Set(declared).size).toBe(declared.length)
    expect(ERROR_CODES).toHaveLength(declared.length)
  })

  it('gives every code a documented HTTP status', () => {
    for (const code of ERROR_CODES) expect(DOCUMENTED_STATUSES, code).toContain(ERROR_CATALOGUE[code].status)
  })

  it('finds the machine vocabulary it checks against', () => {
    expect(TXN_STATES).toContain('storedOffline')
    expect(MACHINE_NAMES).toEqual(expect.arrayContaining(['voidRequested', 'paymentAnswered', 'readCard', 'purgeCardData']))
  })

  it.each(ERROR_CODES)('%s has words a cashier can read', (code) => {
    const { words } = ERROR_CATALOGUE[code]
    expect(words).toMatch(/^[A-Z].*\.$/)
    expect(words.length).toBeLessThan(200)
    for (const token of tokens(words)) {
      expect(token, `"${token}" in the words of ${code}`).not.toMatch(/[a-z][A-Z]/) // camelCase
      expect(token, `"${token}" in the words of ${code}`).not.toMatch(/_/) // UPPER_CASE and snake_case
      if (/^[A-Z]{2,}$/.test(token)) expect(ACRONYMS, `"${token}" in the words of ${code}`).toContain(token)
    }
    for (const other of ERROR_CODES) expect(words).not.toContain(other)
    // A state or event named in one plain word ("approved", "recovered") is English; any other is jargon.
    for (const name of [...TXN_STATES, ...MACHINE_NAMES, ...OPERATION_NAMES].filter((n) => /[A-Z]/.test(n)))
      // As a word: "signIn" is jargon, the "signing key" is not.
      expect(words.toLowerCase(), `${name} in the words of ${code}`).not.toMatch(new RegExp(`\\b${name.toLowerCase()}\\b`))
  })

  it('puts the catalogue on every error as data, whatever the throw site said', () => {
    // The flag is the former signature's, still accepted: the catalogue wins.
    const legacy = new PosError('SALE_IN_PROGRESS', 'sale T1-1 is still running', false)
    expect(legacy.retryable).toBe(true)
    expect(errorView(legacy)).toEqual({
      code: 'SALE_IN_PROGRESS',
      message: 'sale T1-1 is still running',
      retryable: true,
      words: ERROR_CATALOGUE.SALE_IN_PROGRESS.words,
    })
    expect(new PosError('INTERNAL', 'boom', { cause: 'x' }).cause).toBe('x')
  })

  it('reads a code this build does not know as INTERNAL', () => {
    expect(httpStatusOf('SOMETHING_NEW')).toBe(500)
    expect(wordsOf('SOMETHING_NEW')).toBe(ERROR_CATALOGUE.INTERNAL.words)
    expect(httpStatusOf('NO_SUCH_SALE')).toBe(404)
  })
})
