/**
 * The terminal's checks as a store manager reads them on the setup page. The shared checks
 * (src-main/app/terminal-checks.ts) speak to an integrator: configuration field names, TLS versions,
 * error messages. Here each result gets a headline and a next step in plain words, chosen by what was
 * checked and how it went, and the checks' own words stay with it as a details line for IT support.
 */
import type { SetupCheck, SetupCheckId } from '../../src-shared/setup-form'

type CheckLevel = SetupCheck['level']

/** A shared check's result as it reports it (src-main/app's Finding). */
export interface CheckFinding {
  level: CheckLevel
  area: string
  text: string
  fix?: string
}

interface PlainWords {
  text: string
  fix?: string
}

interface PlainArea {
  id: SetupCheckId
  /** What was checked, as the page names it. */
  area: string
  words: Readonly<Record<CheckLevel, PlainWords>>
}

/** Each area the shared checks report, by the name they give it. */
export const PLAIN_CHECKS: Readonly<Record<string, PlainArea>> = {
  host: {
    id: 'connection',
    area: 'Connection to your acquirer',
    words: {
      ok: { text: 'This terminal reached your acquirer over a secure connection' },
      warn: { text: 'This terminal reached your acquirer, but something about the connection needs a look', fix: 'Ask your IT support' },
      fail: {
        text: 'This terminal could not reach your acquirer over a secure connection',
        fix:
          'Check that this computer is online, and check the offline payments address. If your acquirer gave you an extra ' +
          'certificate file, check its path. Then press Save and check again',
      },
    },
  },
  'host TLS': {
    id: 'security',
    area: 'Secure connection',
    words: {
      ok: { text: "Your acquirer's security certificate is valid" },
      warn: { text: "Your acquirer's security certificate runs out in less than two weeks", fix: 'Tell your acquirer' },
      fail: { text: "Your acquirer's security certificate is not valid", fix: 'Tell your acquirer. Do not take cards until it is fixed' },
    },
  },
  clock: {
    id: 'clock',
    area: 'Clock',
    words: {
      ok: { text: "This computer's clock is right" },
      warn: {
        text: "This computer's clock is more than a minute off",
        fix: 'Set the clock to update itself from the internet, or ask your IT support. Receipts show this time',
      },
      fail: { text: "This computer's clock is wrong", fix: 'Set the clock to update itself from the internet, or ask your IT support' },
    },
  },
  signature: {
    id: 'signature',
    area: 'Signing key',
    words: {
      ok: { text: 'Your acquirer accepted the signing key. The test changed no payment' },
      warn: {
        text: 'Your acquirer did not say whether it accepts the signing key',
        fix: 'Press Save and check again in a few minutes. If it stays so, call your acquirer',
      },
      fail: {
        text: 'Your acquirer refused the signing key',
        fix: 'Check the signing key, the acquirer id and which key is in use with your acquirer, then enter the key again',
      },
    },
  },
  'card reader': {
    id: 'reader',
    area: 'Card reader',
    words: {
      ok: { text: 'A card reader was found' },
      warn: { text: 'The card reader needs a look', fix: 'Check its cable, or ask your IT support' },
      fail: {
        text: 'No card reader was found',
        fix: 'Plug the card reader in and check its cable, then press Save and check again. If it is still not found, ask your IT support',
      },
    },
  },
  'receipt printer': {
    id: 'printer',
    area: 'Receipt printer',
    words: {
      ok: { text: 'A receipt printer is set up' },
      warn: {
        text: 'No receipt printer is set up. Receipts can be printed or shown from the screen',
        fix: 'To print on a receipt printer, ask your IT support to connect it',
      },
      fail: { text: 'The receipt printer is not working', fix: 'Check its cable and paper, or ask your IT support' },
    },
  },
}

/** A check the table does not know yet: still plain, with the details for IT support. */
export const OTHER_CHECK: PlainArea = {
  id: 'other',
  area: 'Other check',
  words: {
    ok: { text: 'This check passed' },
    warn: { text: 'This check found something to look at', fix: 'Show the details below to your IT support' },
    fail: { text: 'This check failed', fix: 'Show the details below to your IT support' },
  },
}

/** One shared check's result in plain words, its own words kept as the details line. */
export function plainCheck(finding: CheckFinding): SetupCheck {
  const plain = PLAIN_CHECKS[finding.area] ?? OTHER_CHECK
  const words = plain.words[finding.level]
  const detail = [finding.area, finding.text].join(': ') + (finding.level !== 'ok' && finding.fix ? ` (to do: ${finding.fix})` : '')
  return { id: plain.id, level: finding.level, area: plain.area, text: words.text, ...(words.fix ? { fix: words.fix } : {}), detail }
}
