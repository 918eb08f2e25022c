/**
 * Refusals about who is at the counter: a wrong PIN, an operator locked out after too many, an action
 * that needs a manager. The words never say whether an operator id exists (a wrong id and a wrong PIN
 * read the same).
 */
import { entry } from './error-entry'

export const OPERATOR_ERRORS = {
  PIN_WRONG: entry(422, false, 'That operator number and PIN do not match. Try again.'),
  OPERATOR_LOCKED: entry(
    422,
    true,
    'Too many wrong PINs: locked for 15 minutes. Another manager can unlock it on the Staff screen, or the owner of this computer with "pos-agent operators unlock".',
  ),
  SIGN_IN_REQUIRED: entry(403, false, 'Sign in with your operator number and PIN first.'),
  MANAGER_REQUIRED: entry(403, false, 'A manager must approve this. Ask a manager to enter their number and PIN.'),
  OPERATOR_EXISTS: entry(409, false, 'There is already an operator with this number. Choose another number.'),
  PIN_INVALID: entry(422, false, 'A PIN is 4 to 8 digits. Choose another.'),
  TOO_MANY_TRIES: entry(429, true, 'Too many PINs were tried here in a short time. Wait a minute, then try again.'),
  LAST_MANAGER: entry(409, false, 'This is the last manager of this terminal: add another manager first, then disable this one.'),
} as const
