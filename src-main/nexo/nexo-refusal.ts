/**
 * How the nexo door says no: the agent's refusals as nexo error conditions (a failure Response), a
 * request that has no response of its own and is not acted on (a Reject event, nexo-abort.ts), and a
 * message body that does not read (MessageFormat, naming the field).
 */
import type { z } from 'zod'
import type { ErrorCode } from '../../src-shared/errors'
import type { ErrorCondition, NexoCategory } from './nexo-messages'

/** The agent's refusals as nexo error conditions. */
export const CONDITION_OF: Partial<Record<ErrorCode, ErrorCondition>> = {
  INVALID_REQUEST: 'MessageFormat',
  NO_SUCH_SALE: 'NotFound',
  SALE_IN_PROGRESS: 'Busy',
  REFERENCE_REUSED: 'NotAllowed',
  CURRENCY_NOT_ACCEPTED: 'PaymentRestriction',
  AMOUNT_TOO_LARGE: 'PaymentRestriction',
  AMOUNT_ABOVE_LIMIT: 'PaymentRestriction',
  INVALID_AMOUNT: 'PaymentRestriction',
  RETURN_ABOVE_LIMIT: 'PaymentRestriction',
  RETURN_TOO_LARGE: 'NotAllowed',
  NOT_RETURNABLE: 'NotAllowed',
  MANAGER_REQUIRED: 'NotAllowed',
  FORBIDDEN: 'NotAllowed',
  READER_DISCONNECTED: 'DeviceOut',
  READER_NOT_FOUND: 'DeviceOut',
  READER_BUSY: 'Busy',
  CANNOT_CANCEL: 'NotAllowed',
  INVALID_STEP: 'NotAllowed',
  BATCH_CLOSED: 'NotAllowed',
}

export class NexoRefusal extends Error {
  constructor(
    readonly condition: ErrorCondition,
    message: string,
  ) {
    super(message)
  }
}

/** A request with no response message of its own that the terminal will not act on (a Reject event). */
export class NexoRejection extends Error {
  constructor(
    message: string,
    /** What it named (a payment's SaleID/ServiceID, or the sale), for the audit trail. */
    readonly subject?: string,
  ) {
    super(message)
  }
}

/** A message body of `category`, or a MessageFormat refusal naming what is wrong. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, category: NexoCategory): T {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue?.path.join('.') || `${category}Request`
  throw new NexoRefusal('MessageFormat', `${where}: ${issue?.message ?? 'invalid'}`)
}
