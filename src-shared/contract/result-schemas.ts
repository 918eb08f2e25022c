/**
 * The shapes the agent answers with, declared once as zod schemas: the source of the local API's
 * OpenAPI document (`GET /v1/openapi.json`, built with zod's JSON Schema output) and, inferred from
 * them, the TypeScript types every door and screen uses (dto.ts). Masked PAN and ids only: no shape
 * here can carry a card number, track, PIN block or key.
 */
import { z } from 'zod'
import { ERROR_CODES, type ErrorCode } from '../errors'
import { CARDHOLDER_VERIFICATIONS, QUEUE_FAILURES, QUEUE_OPERATIONS, SALE_CAUSES, SALE_ORIGINS, SALE_STATES, TIP_STATES } from '../sale'
import { PRINTER_STATES } from '../receipt/printer-states'
import { TOKEN_SCOPES } from './access'

const minorAmounts = z.record(z.string(), z.number()).describe('minor units per ISO 4217 currency code')
const epochMs = z.number().describe('ms since the epoch')

export const saleViewSchema = z.object({
  id: z.string(),
  state: z.enum(SALE_STATES),
  amountMinor: z.number(),
  currency: z.string(),
  tipMinor: z.number(),
  tipState: z.enum(TIP_STATES),
  autoCapture: z.boolean(),
  offline: z.boolean(),
  reason: z.string().optional(),
  /** Why the payment ended as it did, as the machine recorded it (for doors that speak another protocol). */
  cause: z.enum(SALE_CAUSES).optional(),
  authCode: z.string().optional(),
  svcTransID: z.string().optional(),
  maskedPan: z.string().optional(),
  brand: z.string().optional(),
  readMethod: z.string().optional(),
  applicationId: z.string().optional(),
  applicationLabel: z.string().optional(),
  /** Chip: the card's sequence number (EMV 5F34) as digits, e.g. "001"; it tells apart two cards of one account. */
  cardSequence: z.string().optional(),
  /** Chip: Terminal Verification Results (95), hex, as the receipt prints them: the final ones once the card completed. */
  tvr: z.string().optional(),
  /** Chip: Transaction Status Information (9B), hex, once the card completed. */
  tsi: z.string().optional(),
  /** How the cardholder was verified (src-shared/sale/cardholder-verification.ts). */
  cvm: z.enum(CARDHOLDER_VERIFICATIONS).optional(),
  reference: z.string().optional(),
  /** The merchant's order reference it was started with (startSale `options.merchantOrderReference`), sent to the bank. */
  orderReference: z.string().optional(),
  /** The operator signed in at the counter when it was rung up. */
  operatorId: z.string().optional(),
  /**
   * Who rang the sale up: the cashier at this screen, or the POS through the local API (docs/local-api.md).
   * Absent on sales journaled before it was recorded.
   */
  startedBy: z.enum(SALE_ORIGINS).optional(),
  /**
   * The cashier or the POS asked for this sale's prompts to be spoken on the customer display
   * (startSale `speech`); absent otherwise.
   */
  speech: z.literal(true).optional(),
  /** A return (a credit to the card); absent for a sale. */
  kind: z.literal('return').optional(),
  /** A return: the sale it credits (absent for a return without a sale on this terminal). */
  originalId: z.string().optional(),
  /** A sale that may be returned: what is left to return (amount plus tip, less its returns), in minor units. */
  returnableMinor: z.number().optional(),
  /** A sale: what its returns credited or are crediting, in minor units; absent when none (a sale with returns cannot be voided). */
  returnedMinor: z.number().optional(),
  createdAt: epochMs,
  updatedAt: epochMs,
  businessDay: z.string(),
})

export const queueItemViewSchema = z.object({
  seq: z.number(),
  saleId: z.string(),
  operation: z.enum(QUEUE_OPERATIONS),
  state: z.string(),
  attempts: z.number(),
  amountMinor: z.number(),
  currency: z.string().nullable(),
  createdAt: epochMs,
  nextAttemptAt: epochMs,
  /** Why the last attempt did not go through (its words: QUEUE_FAILURE_WORDS); null before any failure. */
  lastFailure: z.enum(QUEUE_FAILURES).nullable(),
  /** The last failure's technical detail, for the log and support: never shown to a cashier. */
  lastError: z.string().nullable(),
  /** Time left before the item needs a manager, in ms. */
  expiresInMs: z.number(),
})

export const queueStatusViewSchema = z.object({
  count: z.number(),
  storedCount: z.number(),
  storedAmountMinor: minorAmounts,
  oldestStoredAt: epochMs.optional(),
  /** Time left before the oldest stored payment expires, in ms. */
  oldestExpiresInMs: z.number().optional(),
  attentionCount: z.number(),
  /** Items sealed under a data key the keychain no longer holds. */
  lockedCount: z.number(),
  hostReachable: z.boolean().optional(),
  lastAttemptAt: epochMs.optional(),
  /** With a store server: how safe its copies of offline approvals are, in plain words ("Copies: …"). */
  storeCopy: z.string().optional(),
  /** With a store server: whether those copies are safe on disk or on three servers (`synced`). */
  storeCopySynced: z.boolean().optional(),
})

export const dayTotalsViewSchema = z.object({
  currency: z.string(),
  brand: z.string(),
  count: z.number(),
  amountMinor: z.number(),
  tipMinor: z.number(),
})

/**
 * One numbered batch of sales: each close of day closes the open batch, and later sales go to the
 * next. A closed batch's totals never change.
 */
export const batchViewSchema = z.object({
  /** 1, 2, 3, … in the order batches were opened on this journal. */
  number: z.number(),
  /** When it was closed; absent while the batch is open. */
  closedAt: epochMs.optional(),
  /** Closed by a manager past sales that needed a manager (recorded on each of them too). */
  managerOverride: z.boolean().optional(),
  /** The operator who closed it. */
  closedBy: z.string().optional(),
})

/** A closed batch in the list of batches: what a manager picks a report from. */
export const batchSummaryViewSchema = z.object({
  number: z.number(),
  closedAt: epochMs,
  businessDay: z.string(),
  managerOverride: z.boolean(),
  saleCount: z.number(),
  /** Charged amount plus tips, per currency, in minor units, as closed. */
  totalMinor: minorAmounts,
})

export const operatorTotalsViewSchema = z.object({
  operatorId: z.string().optional(),
  currency: z.string(),
  count: z.number(),
  amountMinor: z.number(),
  tipMinor: z.number(),
})

/**
 * One shift: an operator's time signed in at the counter (sign-in to sign-out, the next operator's
 * sign-in or the close), and what they charged in it, per currency: the sales they rang up in that
 * time, as byOperator counts them (returns are counted apart, as there).
 */
export const shiftTotalsViewSchema = z.object({
  operatorId: z.string(),
  /** The sign-in (epoch ms). */
  start: z.number(),
  /** When it ended (epoch ms); absent while the operator is still signed in. */
  end: z.number().optional(),
  /** Sales charged in it. */
  count: z.number(),
  /** Amount charged, per currency, in minor units. */
  amountMinor: minorAmounts,
  /** Tips on those sales, per currency, in minor units. */
  tipMinor: minorAmounts,
})

export const dayReportViewSchema = z.object({
  /** The batch this report is about: the open one, or a closed one with its totals as closed. */
  batch: batchViewSchema,
  /** The terminal's local day the batch was closed on, or today while it is open. */
  businessDay: z.string(),
  /** Only the open batch, with sales in it and nothing blocking, can be closed. */
  closable: z.boolean(),
  blockedReason: z.string().optional(),
  counts: z.object({
    approved: z.number(),
    declined: z.number(),
    offline: z.number(),
    stored: z.number(),
    reversed: z.number(),
    cancelled: z.number(),
    needsAttention: z.number(),
    abandoned: z.number(),
    /** Stored payments the bank declined when forwarded: approved at the counter, never paid. */
    notReceived: z.number(),
    /** Returns credited, or being credited, to a card. */
    returns: z.number(),
  }),
  /** What the store did not get (notReceived), per currency, in minor units. */
  notReceivedMinor: minorAmounts,
  /** Approved offline and still stored on this terminal (not at the bank yet), amount plus tip, per currency. */
  storedMinor: minorAmounts,
  /** The net (grandTotalMinor) less what is still stored on this terminal: what the bank has confirmed. */
  confirmedNetMinor: minorAmounts,
  /**
   * A closed batch only: its payments still stored on this terminal, and those the bank did not pay, as
   * they stand now (the counts and amounts above are as they were at the close).
   */
  sinceClose: z
    .object({ stored: z.number(), storedMinor: minorAmounts, notReceived: z.number(), notReceivedMinor: minorAmounts })
    .optional(),
  /**
   * Blocked only by sales that need a manager: a manager may close anyway, and that is recorded on
   * each of those sales. False when something else blocks (a reversal waiting, a sale at the counter).
   */
  overridable: z.boolean(),
  totals: z.array(dayTotalsViewSchema),
  tipsMinor: minorAmounts,
  /** What returns credited, or are crediting, per currency, in minor units. */
  returnsMinor: minorAmounts,
  /** What was charged, amount plus tips, less returns, per currency: the Z-report's grand total. */
  grandTotalMinor: minorAmounts,
  /** What each operator charged, per currency; sales without an operator (the POS's) in a row without one. */
  byOperator: z.array(operatorTotalsViewSchema),
  /** Each operator's shifts at the counter, oldest first (none for batches closed before shifts were kept). */
  byShift: z.array(shiftTotalsViewSchema),
  sales: z.array(saleViewSchema),
  /**
   * The audit trail's head when the batch closed (the open batch: now): its last record's number and
   * the first 8 hex digits of that record's seal. Printed on the Z-report, it is a copy of the head
   * kept outside the terminal, to hold the trail against later (`pos-agent audit verify --head`).
   */
  auditHead: z.object({ seq: z.number().int(), check: z.string() }).optional(),
})

export const devicePromptSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('waitingForCard'),
    prompt: z.string(),
    /** When the wait for the card ends (epoch ms), unless the customer asks for more time (extendCardRead). */
    expiresAt: z.number().int().optional(),
    /** How many more times extendCardRead can move `expiresAt`. */
    extensionsLeft: z.number().int().min(0).optional(),
  }),
  z.object({ type: z.literal('cardRead'), maskedPan: z.string(), method: z.string() }),
  z.object({ type: z.literal('enterPin') }),
  z.object({ type: z.literal('pinEntered') }),
  z.object({ type: z.literal('processing') }),
  z.object({ type: z.literal('removeCard') }),
  z.object({ type: z.literal('insertChip'), reason: z.string() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({
    type: z.literal('connection'),
    state: z.enum(['connected', 'disconnected', 'reconnecting']),
    port: z.string().optional(),
  }),
  z.object({ type: z.literal('interrupted'), purpose: z.enum(['purchase', 'void']) }),
])

/** extendCardRead's answer: the card prompt's new end, and how many more times it can be moved. */
export const cardReadExtensionViewSchema = z.object({ expiresAt: z.number().int(), extensionsLeft: z.number().int().min(0) })
export const deviceStatusViewSchema = z.object({ connected: z.boolean(), port: z.string().optional(), busy: z.boolean() })

export const alarmViewSchema = z.object({ code: z.string(), message: z.string() })

/** The receipt printer as the agent last found it (docs/receipts.md). */
export const printerStatusViewSchema = z.object({
  configured: z.boolean(),
  state: z.enum(PRINTER_STATES),
  /** Paper width, 58 or 80 mm. */
  paperMm: z.number().optional(),
  /** When the printer was last asked (epoch ms). */
  checkedAt: z.number().optional(),
})

/** A test card of the simulated PIN pad, in the words a trainee picks it by. */
export const trainingCardViewSchema = z.object({
  /** What presentTestCard takes. */
  name: z.string(),
  label: z.string(),
  description: z.string(),
})

export const appInfoSchema = z.object({
  mode: z.enum(['production', 'training']),
  currency: z.string(),
  terminalId: z.string(),
  storeName: z.string().optional(),
  /** The merchant id and the store's address lines, as receipts print them. */
  merchantId: z.string(),
  storeAddress: z.array(z.string()),
  /** Where receipts can go besides the screen: a receipt printer, email. */
  receipts: z.object({ printer: z.boolean(), email: z.boolean() }),
  restaurantMode: z.boolean(),
  tipTolerancePercent: z.number(),
  /**
   * Sale amounts in minor units of `currency`: above `maxSaleMinor` a sale is refused; above
   * `confirmAboveMinor` it starts only with `amountConfirmed: true`. A return without a sale credits
   * at most `unreferencedReturnMaxMinor` at once, `unreferencedReturnPerCardDayMinor` to one card and
   * `unreferencedReturnPerDayMinor` in all per business day (absent: not told by this agent).
   */
  saleLimits: z.object({
    maxSaleMinor: z.number(),
    confirmAboveMinor: z.number(),
    unreferencedReturnMaxMinor: z.number().optional(),
    unreferencedReturnPerCardDayMinor: z.number().optional(),
    unreferencedReturnPerDayMinor: z.number().optional(),
  }),
  /** Training mode: the simulated PIN pad's test cards, to choose which one the "customer" presents. */
  trainingCards: z.array(trainingCardViewSchema),
  alarms: z.array(alarmViewSchema),
})

export const settingsViewSchema = z.object({
  offlineBaseUrl: z.string(),
  aid: z.string(),
  storeId: z.string(),
  terminalId: z.string(),
  merchantId: z.string(),
  signingKey: z.object({ present: z.boolean(), kcv: z.string().optional() }),
})

export const dayExportSchema = z.object({ filename: z.string(), contentType: z.string(), content: z.string() })

export const errorViewSchema = z.object({
  code: z.enum(ERROR_CODES as readonly [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  retryable: z.boolean(),
  words: z.string(),
})

/** An operator (cashier or manager) as the screens and the API show one: never the PIN or its hash. */
export const operatorSchema = z.object({
  /** The operator number typed at sign-in. */
  id: z.string(),
  name: z.string(),
  role: z.enum(['cashier', 'manager']),
  createdAt: epochMs,
  /** Locked after too many wrong PINs, until then. */
  lockedUntil: epochMs.optional(),
  disabled: z.boolean(),
})

/** An operator whose lockout was lifted (unlockOperator), and whether they were locked at all. */
export const unlockedOperatorSchema = operatorSchema.extend({ wasLocked: z.boolean() })

/** The counter's operator: whether the terminal asks for a sign-in (it has operators), and who is signed in. */
export const counterOperatorSchema = z.object({
  required: z.boolean(),
  operator: operatorSchema.optional(),
  /** A void of a sale older than this needs a manager. */
  voidWithoutManagerMinutes: z.number(),
})

/** An integrator token as a manager sees it: never the token itself, which is shown once, when created. */
export const integratorTokenSchema = z.object({
  id: z.string(),
  /** What it is for, e.g. the POS it was given to. */
  name: z.string(),
  createdAt: epochMs,
  lastUsedAt: epochMs.optional(),
  /** Revoked: the token no longer opens anything. */
  revokedAt: epochMs.optional(),
  /** What it may do (src-shared/contract/access.ts). */
  scopes: z.array(z.enum(TOKEN_SCOPES)),
})

/**
 * What a manager is asked to approve (the `describeApproval` operation), in the words the audit trail
 * keeps for that approval: the operation, the money (amount and currency), the card (masked) and the
 * sale; or the person; or the batch's totals. Masked card only.
 */
export const approvalRequestSchema = z.object({
  operation: z.string(),
  /** One sentence: what is approved, as the audit trail records it. */
  words: z.string(),
  /** The same, fact by fact, for a screen to lay out ("Amount": "USD 500.00", "Card": "VISA …0010"). */
  facts: z.array(z.object({ label: z.string(), value: z.string() })),
})

/** A manager's approval of one request (the `approve` operation): send it as that request's `approval`. */
export const approvalProofSchema = z.object({
  approval: z.string(),
  operation: z.string(),
  /** The manager who approved. */
  operatorId: z.string(),
  expiresAt: epochMs,
})
/** A one-time link that opens a window (good once, for ten minutes). */
export const windowLinkSchema = z.object({ url: z.string() })
/** A browser window a launch link opened, as a manager sees it in Settings: never its secret. */
export const pairedWindowSchema = z.object({
  /** A short, one-way name for it. */
  id: z.string(),
  view: z.enum(['cashier', 'customer']),
  /** What opened it, in words: the machine's owner, a token by name, another window. */
  openedBy: z.string(),
  createdAt: epochMs,
  lastSeenAt: epochMs,
  /** It is the window asking. */
  current: z.boolean(),
})
/** One record of the audit trail: what happened, who did it, through which door. */
export const auditRecordSchema = z.object({
  seq: z.number(),
  at: epochMs,
  /** What happened, e.g. signIn, signInRefused, lockout, approval, windowOpened, tokenCreated, keyChanged. */
  action: z.string(),
  /** How it reached the agent: counter, display, pos, nexo, cli, setup. */
  door: z.string(),
  /** Which window or token it came through (a token's id, a window's short fingerprint). */
  via: z.string().optional(),
  /** The operator who did it or approved it. */
  actor: z.string().optional(),
  /** What it was about: an operation, an operator, a token, a sale. */
  subject: z.string().optional(),
  /** Whether it was done (false: refused). */
  ok: z.boolean(),
  detail: z.string().optional(),
})
export const auditTrailSchema = z.object({
  records: z.array(auditRecordSchema),
  /**
   * The whole trail proves itself: every record's seal (HMAC under the trail's key in the keychain)
   * follows from the one before, and its last record is the head kept outside the journal file:
   * nothing was changed, removed, cut off or slipped in.
   */
  intact: z.boolean(),
  /** When not intact: where it breaks, in plain words, first problem first. */
  problems: z.array(z.string()).optional(),
})
/** One scrape of the agent's metrics, in the Prometheus text format. */
export const metricsScrapeSchema = z.object({ contentType: z.string(), text: z.string() })

/**
 * Which sale an event is about, when it is about one: the agent's id and the POS's own `reference`
 * (absent for a sale rung up without one), so an integrator can follow its sale without knowing the
 * agent's id first.
 */
export const saleTagSchema = z.object({ saleId: z.string().optional(), reference: z.string().optional() })
const saleTag = saleTagSchema.shape

/**
 * A large amount the cashier is checking with the customer before the card is asked for (the amount
 * confirmation), as the customer display shows it; `at` is when the cashier was asked (epoch ms).
 */
export const amountCheckSchema = z.object({ amountMinor: z.number().int(), currency: z.string(), at: epochMs })

/**
 * Live updates pushed to the UI (IPC in Electron, server-sent events in the browser). A `sale` event
 * carries `seq`, the journal position of the change it reports: the SSE `id`, from which a dropped
 * stream resumes (docs/local-api.md). A `device` prompt names the sale it belongs to; a reader
 * connection change with no sale at the counter names none.
 */
export const posEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sale'), sale: saleViewSchema, seq: z.number().optional(), ...saleTag }),
  z.object({ type: z.literal('queue'), queue: queueStatusViewSchema }),
  z.object({ type: z.literal('device'), prompt: devicePromptSchema, ...saleTag }),
  z.object({ type: z.literal('alarm'), alarm: alarmViewSchema, ...saleTag }),
  /** The cashier is checking a large amount with the customer (null: no longer; the sale, if any, follows). */
  z.object({ type: z.literal('amountCheck'), amount: amountCheckSchema.nullable() }),
])

/**
 * What the event stream sends first on every (re)connect, after any missed sale changes: the state
 * that queue, device and alarm events only report changes of.
 */
export const posStreamSnapshotSchema = z.object({
  /** The journal position this snapshot reflects: every sale change up to it was delivered. */
  seq: z.number(),
  at: epochMs,
  /** The sale at the counter, if one is. */
  sale: saleViewSchema.optional(),
  /** The reader's latest prompt for that sale. */
  prompt: devicePromptSchema.optional(),
  queue: queueStatusViewSchema,
  device: deviceStatusViewSchema,
  alarms: z.array(alarmViewSchema),
  /** A large amount the cashier is checking with the customer now, if any. */
  amountCheck: amountCheckSchema.optional(),
})

/** The data of the event stream's `heartbeat` event: the agent's clock when it was sent. */
export const posStreamHeartbeatSchema = z.object({ at: epochMs })

/**
 * The schemas the OpenAPI document names as components, by name: each is written once there and
 * referred to wherever it appears.
 */
export const NAMED_RESULT_SCHEMAS = {
  SaleView: saleViewSchema,
  QueueItemView: queueItemViewSchema,
  QueueStatusView: queueStatusViewSchema,
  DayTotalsView: dayTotalsViewSchema,
  BatchView: batchViewSchema,
  BatchSummaryView: batchSummaryViewSchema,
  DayReportView: dayReportViewSchema,
  DevicePrompt: devicePromptSchema,
  DeviceStatusView: deviceStatusViewSchema,
  CardReadExtensionView: cardReadExtensionViewSchema,
  AlarmView: alarmViewSchema,
  AppInfo: appInfoSchema,
  SettingsView: settingsViewSchema,
  OperatorView: operatorSchema,
  CounterOperatorView: counterOperatorSchema,
  IntegratorTokenView: integratorTokenSchema,
  ApprovalProofView: approvalProofSchema,
  ApprovalRequestView: approvalRequestSchema,
  AuditRecordView: auditRecordSchema,
  PairedWindowView: pairedWindowSchema,
  PrinterStatusView: printerStatusViewSchema,
  DayExport: dayExportSchema,
  ErrorView: errorViewSchema,
  AmountCheck: amountCheckSchema,
  PosEvent: posEventSchema,
  PosStreamSnapshot: posStreamSnapshotSchema,
  PosStreamHeartbeat: posStreamHeartbeatSchema,
} as const
