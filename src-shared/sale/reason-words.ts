/**
 * The agent's reasons and queue errors as a cashier reads them. A sale's reason is written for people
 * where it is made (test/main/txn/plain-reasons.test.ts holds every source to that), but journals
 * written by earlier versions keep their words, and a queue item's last error is for the log: some
 * carry an outcome class ("notDelivered: HTTP 503"), a queue operation ("payment refused by the
 * host"), "host" for the bank, or a gateway code in brackets. None of that may reach a screen: this
 * turns them into the screens' words (the bank is always "the bank").
 */
import { QUEUE_OPERATION_NOUNS as OPERATION_WORDS, type QueueOperation } from './queue-operations'

/** Sentences the agent writes with an operation or "host" in them, said the cashier's way. */
const SENTENCES: ReadonlyArray<[RegExp, (operation: string) => string]> = [
  [/^(payment|reversal|tips|cancel|capture) refused by the host\b:?\s*/, (op) => `The bank refused the ${op} `],
  [/^(payment|reversal|tips|cancel|capture|void|tip) refused\b:?\s*/, (op) => `The bank refused the ${op}: `],
  // The sale's title already says the bank could not be reached: what is left is why not offline.
  [/^host unreachable and not allowed offline\b:?\s*/, () => ''],
  [/^the bank could not be reached and this sale cannot be stored\b:?\s*/, () => ''],
  // The heading already says "Declined" or "Not completed": the reason says who or why, not that again.
  [/^declined by the issuer\b:?\s*/i, () => 'The card’s bank declined it: '],
  [/^declined by the bank\b:?\s*/i, () => 'The bank declined it: '],
  [/^declined offline by the card\b:?\s*/i, () => 'The card refused the payment while the bank could not be reached: '],
  [/^declined\b:?\s*/i, () => 'The bank declined it: '],
  [/^not completed\b:?\s*/i, () => ''],
  [/^voided\b:\s*/i, () => ''],
]

/** An outcome class at the start of a queue error, and what it means for the cashier. */
const OUTCOME_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^notDelivered\b.*$/, 'The bank could not be reached.'],
  [/^unknown:.*$/, 'The bank did not answer in time.'],
  [/^rejected:\s*/, 'The bank refused the message: '],
  [/^declined:\s*/, 'The bank declined it: '],
]

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export function plainReason(reason: string): string {
  let text = reason.trim()
  for (const [pattern, words] of OUTCOME_WORDS) {
    if (pattern.test(text)) {
      text = text.replace(pattern, words)
      break
    }
  }
  for (const [pattern, words] of SENTENCES) {
    const match = pattern.exec(text)
    if (match) {
      const operation = match[1] ?? ''
      text = words(OPERATION_WORDS[operation as QueueOperation] ?? operation) + text.slice(match[0].length)
      break
    }
  }
  // A timeout in plain words: "valid" is the terminal's word, not the cashier's.
  text = text.replace(/^no valid answer came from the bank\b/i, 'the bank’s answer did not come in time, or could not be read')
  text = text
    // "E12: …", "B0042: …": a code at the start is for the log.
    .replace(/^[A-Z][A-Z_]*\d[A-Z0-9_]*\s*:\s*/, '')

    // "(B0042: the payment was reversed)" → "(the payment was reversed)": the code is for the log.
    .replace(/\(\s*[A-Z][A-Z0-9_]*\d[A-Z0-9_]*\s*:\s*/g, '(')
    .replace(/\bHTTP \d{3}\b/g, 'no answer')
    .replace(/\b(the )?hosts?\b/gi, (match) => (match[0] === 'T' ? 'The bank' : match[0] === 'H' ? 'Bank' : 'the bank'))
    .replace(/\bthe the bank\b/gi, 'the bank')
    // "the issuer" is the card's bank, wherever it comes in a sentence.
    .replace(/\b(the )?issuer\b/gi, (match) => (match[0] === 'T' || match[0] === 'I' ? 'The card’s bank' : 'the card’s bank'))
    .replace(/\s+/g, ' ')
    .trim()
  return capitalise(text.replace(/:\s*$/, '.'))
}
