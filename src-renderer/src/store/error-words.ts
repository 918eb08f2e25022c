/**
 * An agent error as a sentence for the cashier: the catalogue's words for its code
 * (src-shared/errors), never the code, and the agent's detail message only where it is worded for a
 * person (a refused step); other messages are for logs.
 */
import type { PosErrorView } from '../../../src-shared/contract'
import { isErrorCode, wordsOf } from '../../../src-shared/errors'

/**
 * Codes whose message the agent words for a person, by contract: a step the sale refused says why in
 * plain words (src-main/txn/refusal-words.ts, or the machine's own plain reason), which says more than
 * the catalogue's general sentence.
 */
const PLAIN_MESSAGE = new Set(['INVALID_STEP'])

function sentence(text: string): string {
  const trimmed = text.trim()
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
  return /[.!?]$/.test(first) ? first : `${first}.`
}

/** The tries left before a lock, as the agent counts them for a wrong PIN ("3 tries left"). */
function triesLeft(error: PosErrorView): string {
  const left = /(\d+) tr(?:y|ies) left before this number is locked for (\d+) minutes/.exec(String(error.message))
  if (!left) return ''
  return ` ${left[1]} ${left[1] === '1' ? 'try' : 'tries'} left before this number is locked for ${left[2]} minutes.`
}

export function describeError(error: PosErrorView): string {
  if (error.code === 'PIN_WRONG') return `${wordsOf('PIN_WRONG')}${triesLeft(error)}`
  if (PLAIN_MESSAGE.has(error.code) && typeof error.message === 'string' && error.message.trim() !== '') return sentence(error.message)
  if (isErrorCode(error.code)) return wordsOf(error.code)
  // A code this window does not know (an agent of another version): its own words, if it sent them.
  const carried = (error as { words?: unknown }).words
  return typeof carried === 'string' && carried.trim() !== '' ? carried : wordsOf('INTERNAL')
}
