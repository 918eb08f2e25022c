/**
 * The terminal's own setup: its configuration file, the OS keychain and the signing key the bank
 * gave. A person has to fix these; repeating the request does not help.
 */
import { entry } from './error-entry'

export const SETUP_ERRORS = {
  CONFIG_INVALID: entry(500, false, 'The configuration file of the payment agent has a problem. Call support to correct it.'),
  CONFIG_MISSING: entry(
    500,
    false,
    'The configuration file of the payment agent is missing, but this terminal holds real sales. Put the file back; training mode was not started.',
  ),
  KEYCHAIN_UNAVAILABLE: entry(
    500,
    false,
    'The secure key store of this computer cannot be reached, so the payment agent cannot use its keys. Call support.',
  ),
  NO_SIGNING_KEY: entry(500, false, 'The signing key from the bank is not set up on this terminal. A manager must enter it in Settings.'),
  BAD_SIGNING_KEY: entry(422, false, 'This signing key is not valid: it must be exactly the 32 characters the bank gave, without spaces.'),
  // The store's server (docs/store.md): copies of the waiting payments, fences, the fleet view.
  STORE_UNAVAILABLE: entry(500, true, 'The store server is not answering. Check that its computer is on and connected, then try again.'),
  RECOVERY_KEY_INVALID: entry(
    422,
    false,
    "The store's recovery key could not be used: check the key file and its passphrase, or the key in the settings.",
  ),
  COPY_REFUSED: entry(
    422,
    false,
    'A copy at the store server was refused: it was not made by the terminal it names, or it cannot be read. Nothing was sent for it.',
  ),
  STORE_COPY_BUFFERED: entry(
    409,
    false,
    "Cards can't be approved offline now: the store's copy isn't safe on disk. While the bank is offline, take another payment or try again when it is back. Call a manager.",
  ),
  QUEUE_RESCUED: entry(
    409,
    false,
    "The store rescued this terminal's waiting payments, so it no longer sends them. Its records are kept. Call a manager.",
  ),
} as const
