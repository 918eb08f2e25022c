/**
 * Internal words a cashier, manager or customer must never read: sale states and read methods as the
 * code names them (camelCase), queue outcome classes, the error catalogue's codes, HTTP statuses,
 * gateway result codes, and "host" for the bank. Plain English state names ("approved") are words
 * too, so only the coined ones count. The e2e suite checks whole pages with these; the machine's
 * reasons are checked with these and more (test/main/txn/plain-reasons.test.ts).
 */
import { ERROR_CODES } from '../../src-shared/errors'

export const INTERNAL_WORDS: ReadonlyArray<[string, RegExp]> = [
  ['"host" for the bank', /\bhosts?\b/i],
  ['a camelCase name', /\b[a-z]+[A-Z][A-Za-z]*\b/],
  ['a gateway result code', /\b[A-Z]\d{4}\b/],
  ['an error code', new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`)],
  ['an HTTP status', /\bHTTP\b/],
  ['a word in two numbers at once', /\w\(s\)/],
]

/** Each internal word in `text`, with what it is and where (empty: none). */
export function internalWordsIn(text: string, patterns: ReadonlyArray<[string, RegExp]> = INTERNAL_WORDS): string[] {
  return patterns.flatMap(([what, pattern]) => {
    const found = pattern.exec(text)
    return found ? [`${what}: "${found[0]}" in …${text.slice(Math.max(0, found.index - 40), found.index + 40).replace(/\s+/g, ' ')}…`] : []
  })
}
