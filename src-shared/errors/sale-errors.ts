/**
 * Refusals of the sale itself: the request is understood, but the sale, the amount or the tip does
 * not allow it. docs/local-api.md: 404 for an unknown sale, 409 for a clash, 422 for a business rule.
 */
import { entry } from './error-entry'

export const SALE_ERRORS = {
  NO_SUCH_SALE: entry(404, false, 'This sale cannot be found on this terminal.'),
  // An alarm, not a refusal: a queued message past its limits, or an answer the sale cannot live with.
  NEEDS_ATTENTION: entry(409, false, 'A sale needs a manager. Open the Queue screen to see which one and what to do.'),
  SALE_IN_PROGRESS: entry(409, true, 'Another sale is still running. Finish or cancel it first.'),
  REFERENCE_REUSED: entry(
    409,
    false,
    'This order reference was already used for a different sale. Nothing was charged; send the sale with a new reference.',
  ),
  STALE_SALE: entry(409, true, 'This sale changed while the request was being handled. Look at the sale again, then try again.'),
  CANNOT_CANCEL: entry(422, false, 'This sale can no longer be stopped at the counter. To undo it, void it from the sale list.'),
  INVALID_STEP: entry(422, false, 'This cannot be done for this sale as it stands now. Check the sale in the sale list.'),
  TIP_NEEDS_OVERRIDE: entry(422, false, 'This tip is larger than allowed without a manager. A manager must approve it.'),
  TIP_INVALID: entry(422, false, 'This tip cannot be accepted. Check the amount and enter it again.'),
  INVALID_AMOUNT: entry(422, false, 'This terminal cannot take this amount or currency. Check it and try again.'),
  // Refusals at the start of a sale, before the customer is asked for a card: nothing was charged.
  CURRENCY_NOT_ACCEPTED: entry(
    422,
    false,
    'This terminal takes payments and returns in one currency only, and this one is in another. Nothing was charged or credited.',
  ),
  AMOUNT_TOO_LARGE: entry(422, false, 'This amount is too large for a card payment. Nothing was charged; check the amount.'),
  AMOUNT_ABOVE_LIMIT: entry(
    422,
    false,
    'This amount is more than this terminal may charge in one sale. Nothing was charged; check the amount.',
  ),
  AMOUNT_NEEDS_CONFIRMATION: entry(
    422,
    false,
    'This is a large amount. Check it with the customer and confirm it before the card is asked for.',
  ),
  INVALID_OPTIONS: entry(
    422,
    false,
    'The payment details sent with this sale were not accepted, so the sale was not started. Nothing was charged.',
  ),
  // A closed batch never changes (close of day): its sales can no longer be voided or tipped.
  BATCH_CLOSED: entry(
    409,
    false,
    'This sale belongs to a day that is already closed, so it can no longer be voided or have its tip changed.',
  ),
  // Refusals of a return, before the customer is asked for the card: nothing was credited.
  NOT_RETURNABLE: entry(
    422,
    false,
    'This sale cannot be returned: only a payment that went through, and was not voided or reversed, can be. Nothing was credited.',
  ),
  RETURN_TOO_LARGE: entry(
    422,
    false,
    'This is more than is left to return on this sale (the amount paid, less what was already returned). Nothing was credited.',
  ),
  RETURN_ABOVE_LIMIT: entry(
    422,
    false,
    'A return without a sale on this terminal cannot be this large. Nothing was credited; check the amount.',
  ),
  NO_SUCH_BATCH: entry(404, false, 'There is no closed day with this number on this terminal.'),
  CARD_DATA_GONE: entry(
    422,
    false,
    'The card details needed for this are no longer kept on this terminal, so it cannot be done. Call support if the sale still needs it.',
  ),
} as const
