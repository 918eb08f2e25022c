/** An agent error as a sentence for the cashier. The agent's own message is kept for anything not listed. */
import type { PosErrorView } from '../../../src-shared/contract'
import { AGENT_BAD_RESPONSE, AGENT_UNREACHABLE } from '../bridge'

const WORDS: Readonly<Record<string, string>> = {
  [AGENT_UNREACHABLE]: 'Cannot reach the payment agent. Check that it is running, then try again.',
  [AGENT_BAD_RESPONSE]: 'The payment agent gave an answer this screen does not understand. Try again; if it repeats, call support.',
  SALE_IN_PROGRESS: 'Another sale is still running. Finish or cancel it first.',
}

export function describeError(error: PosErrorView): string {
  const known = WORDS[error.code]
  if (known) return known
  const message = error.message.trim()
  if (!message) return `Something went wrong (${error.code}).`
  return message.charAt(0).toUpperCase() + message.slice(1)
}
