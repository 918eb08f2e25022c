/**
 * An agent error as a sentence for the cashier: the catalogue's words for its code
 * (src-shared/errors), never the code and never the agent's detail message, which is for logs.
 */
import type { PosErrorView } from '../../../src-shared/contract'
import { isErrorCode, wordsOf } from '../../../src-shared/errors'

export function describeError(error: PosErrorView): string {
  if (isErrorCode(error.code)) return wordsOf(error.code)
  // A code this window does not know (an agent of another version): its own words, if it sent them.
  const carried = (error as { words?: unknown }).words
  return typeof carried === 'string' && carried.trim() !== '' ? carried : wordsOf('INTERNAL')
}
