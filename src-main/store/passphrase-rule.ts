/**
 * The rule a recovery key's passphrase must meet. The key file may be copied with the USB stick it
 * is on, and then only the passphrase stands between a thief and every sealed copy at the store, so
 * it is held to more than a length: a strength estimate by zxcvbn-ts (a maintained port of Dropbox's
 * zxcvbn, https://zxcvbn-ts.github.io/zxcvbn/) with its common and English dictionaries, which
 * recognises repeated characters, sequences, keyboard patterns, dates and dictionary words.
 *
 * The library and its dictionaries are loaded on first use only (`store keygen`): a terminal that
 * starts never loads them.
 */
import { createRequire } from 'node:module'

/** A passphrase shorter than this is refused before anything else. */
export const MIN_PASSPHRASE_LENGTH = 12
/**
 * zxcvbn's top score: more than 10^10 guesses. The key file's scrypt makes each guess cost a third of
 * a second and 128 MiB; below this score a dictionary attack on a stolen file is a matter of days.
 */
const MIN_SCORE = 4

interface Zxcvbn {
  check(password: string): { score: number; feedback: { warning: string | null; suggestions: string[] } }
}

let checker: Zxcvbn | undefined

function zxcvbn(): Zxcvbn {
  if (checker) return checker
  const require = createRequire(import.meta.url)
  const core = require('@zxcvbn-ts/core') as { ZxcvbnFactory: new (options: unknown) => Zxcvbn }
  const common = require('@zxcvbn-ts/language-common') as { dictionary: object; adjacencyGraphs: object }
  const en = require('@zxcvbn-ts/language-en') as { dictionary: object; translations: object }
  checker = new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  })
  return checker
}

/** Why this passphrase is refused, in plain words; undefined when it may protect a recovery key. */
export function passphraseProblem(passphrase: string): string | undefined {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return `the passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters long`
  const { score, feedback } = zxcvbn().check(passphrase)
  if (score >= MIN_SCORE) return undefined
  const why = feedback.warning ?? 'It would be guessed too easily.'
  const help = feedback.suggestions.length > 0 ? ` ${feedback.suggestions.join(' ')}` : ''
  return `the passphrase is too easy to guess. ${why}${help} Four or more words that do not belong together make a good one.`
}
