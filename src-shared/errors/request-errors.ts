/**
 * Errors of the doors themselves: a request that cannot be understood or is not allowed, an agent
 * the cashier window cannot reach, and the failure nobody foresaw.
 */
import { entry } from './error-entry'

export const REQUEST_ERRORS = {
  INVALID_REQUEST: entry(400, false, 'The request was incomplete or not valid, so nothing was done.'),
  UNAUTHORISED: entry(401, false, 'This program is not allowed to use the payment agent: it sent no access token.'),
  TOKEN_INVALID: entry(
    401,
    false,
    'This program is not allowed to use the payment agent: its access token is not the one this agent uses. Give it the current token.',
  ),
  SESSION_REQUIRED: entry(
    401,
    false,
    'This screen was not opened from a link of the payment agent. Open a new one from a cashier window (Settings, Windows), or ask the computer\'s owner to run "pos-agent open".',
  ),
  FORBIDDEN: entry(403, false, 'Only the cashier window may ask the payment agent for this.'),
  TOO_MANY_STREAMS: entry(429, true, 'This program already follows the payment agent in several places. Close one of them and try again.'),
  TOO_MANY_WINDOWS: entry(
    429,
    true,
    'This program already has every window it may open in use. Close one of them, or ask a manager to end one in Settings, then try again.',
  ),
  TOO_MANY_CONNECTIONS: entry(
    429,
    true,
    'This program has more connections open to the payment agent than any needs. Let some finish, then try again.',
  ),
  SERVER_BUSY: entry(429, true, 'The payment agent is answering as many programs as it can just now. Try again in a moment.'),
  BODY_TOO_LARGE: entry(413, false, 'The program sent the payment agent far more than any request needs. Nothing was done.'),
  UNKNOWN_OPERATION: entry(404, false, 'The payment agent does not offer this action. Nothing was done.'),
  NOT_FOUND: entry(404, false, 'The payment agent has nothing at this address. Nothing was done.'),
  NOT_TRAINING: entry(422, false, 'Test cards can only be used in training mode.'),
  INTERNAL: entry(
    500,
    false,
    'Something went wrong inside the payment agent. Check the sale list before trying again; if it happens again, call support.',
  ),
  // The cashier window's own failures to get an answer: made by its bridge, never sent by the agent.
  AGENT_UNREACHABLE: entry(500, true, 'Cannot reach the payment agent. Check that it is running, then try again.'),
  AGENT_FAILED: entry(500, true, 'The payment agent could not answer just now. Try again in a moment; if it happens again, call support.'),
  AGENT_BAD_RESPONSE: entry(
    500,
    false,
    'The payment agent gave an answer this screen does not understand. If it happens again, call support.',
  ),
} as const
