/**
 * What the documents and `serve` tell a manager about windows, PIN tries and the token a nexo POS
 * holds says what the code does: the numbers are the code's own constants, turned into the words
 * the documents use and looked for there, so a constant changed without its words fails here.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { nexoServedLine } from '../../../src-main/cli/commands/serve-command'
import { PIN_TOKEN_WINDOW_MS, PIN_TRIES_PER_TOKEN, PIN_TRIES_PER_WINDOW, PIN_WINDOW_MS, WINDOW_IDLE_MS } from '../../../src-main/service'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
/** The counts and spans the documents speak of, in their words. */
const COUNT: Readonly<Record<number, string>> = { 5: 'five', 10: 'ten', 15: 'fifteen', 20: 'twenty', 30: 'thirty', 60: 'sixty' }
const SPAN: Readonly<Record<number, string>> = {
  [MINUTE]: 'a minute',
  [15 * MINUTE]: 'fifteen minutes',
  [60 * MINUTE]: 'an hour',
  [DAY]: 'a day',
  [7 * DAY]: 'a week',
}

/** A document's text with its line breaks and indents as single spaces. */
const doc = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8').replace(/\s+/g, ' ')

/** The words for `value` in `table`, or a failure naming what has none. */
function words(table: Readonly<Record<number, string>>, value: number): string {
  const said = table[value]
  expect(said, `no words for ${value}: add them here and say it in the documents`).toBeDefined()
  return said!
}

describe('docs/local-api.md says what the code does', () => {
  it('a window unused for as long as the agent keeps it ends', () => {
    expect(doc('local-api.md')).toMatch(new RegExp(`A window unused for ${words(SPAN, WINDOW_IDLE_MS)} (\\(|ends)`))
  })

  it("PIN tries: the windows of one opener's, and a token's", () => {
    const text = doc('local-api.md')
    expect(text).toContain(`${words(COUNT, PIN_TRIES_PER_WINDOW)} ${words(SPAN, PIN_WINDOW_MS)} for the windows one opener started`)
    expect(text).toContain(`${words(COUNT, PIN_TRIES_PER_TOKEN)} in ${words(SPAN, PIN_TOKEN_WINDOW_MS)} for a token`)
  })
})

describe('a nexo POS is told to hold a token of its own, never the installation token', () => {
  it('by serve', () => {
    const line = nexoServedLine('https://127.0.0.1:8443/nexo', '/data/nexo-ca.pem')
    expect(line).toMatch(/a token made for each POS, with the "read" and "sell" scopes, and "refund" only where it refunds/)
    expect(line).toContain('never the installation token')
    expect(line).not.toMatch(/the local API token/)
  })

  it('by docs/nexo.md', () => {
    const text = doc('nexo.md')
    const authentication = /\*\*Authentication:\*\*(.*?)- \*\*What is not a nexo message/.exec(text)?.[1] ?? ''
    expect(authentication).toContain('made for that one POS')
    expect(authentication).toContain('`refund` added only for a POS that refunds')
    expect(authentication).toContain('Never give a POS the installation token')
    expect(authentication).not.toContain('the same token as the local API')
  })
})
