/**
 * Every operation the cashier UI and integrators can ask of the agent, declared once: its request
 * (a zod schema, validated at every entrance), who may call it (`access`: access.ts explains the
 * fields; src-main/service/access.ts is the check) and what it answers (a result schema of
 * result-schemas.ts, from which its type is inferred).
 * A new operation is one row here and one handler in src-main/service.
 */
import { z } from 'zod'
import {
  appInfoSchema,
  approvalProofSchema,
  approvalRequestSchema,
  auditTrailSchema,
  batchSummaryViewSchema,
  cardReadExtensionViewSchema,
  counterOperatorSchema,
  dayExportSchema,
  dayReportViewSchema,
  deviceStatusViewSchema,
  integratorTokenSchema,
  metricsScrapeSchema,
  operatorSchema,
  pairedWindowSchema,
  posStreamSnapshotSchema,
  printerStatusViewSchema,
  queueItemViewSchema,
  queueStatusViewSchema,
  saleViewSchema,
  settingsViewSchema,
  unlockedOperatorSchema,
  windowLinkSchema,
} from './result-schemas'
import { OFFLINE_POLICIES } from '../sale'
import { administers, atSetup, atZvt, reads, TOKEN_SCOPES, works, type OperationAccess } from './access'

const saleId = z.string().min(1).max(64)
/** The integrator's own key for a sale (startSale's `reference`). */
const saleReference = z.string().min(1).max(64)
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
const batchNumber = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const operatorId = z.string().regex(/^[A-Za-z0-9]{1,16}$/, 'an operator number is 1 to 16 letters or digits')
/** What a reprinted receipt is the record of (a sale's own kind when absent). */
const receiptKind = z.enum(['SALE', 'VOID', 'TIP'])
const pin = z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits')
/** An operator's number and PIN: a sign-in, or a manager's approval. */
const credential = z.strictObject({ operatorId, pin: z.string().min(1).max(8) })
/** What an approval proof looks like (the `approve` operation gives one). */
export const APPROVAL_PROOF_PATTERN = /^apv_[A-Za-z0-9_-]{32,64}$/
/**
 * A manager's approval of this one request: their number and PIN, or a proof the `approve` operation
 * gave for exactly this operation and request, good once and for two minutes.
 */
const approval = z.union([credential, z.string().regex(APPROVAL_PROOF_PATTERN, 'an approval is a number and PIN, or a proof from approve')])

export const paymentOptionsSchema = z.strictObject({
  metadata: z.string().optional(),
  webhook: z.string().optional(),
  instalment: z.record(z.string(), z.unknown()).optional(),
  DCCBillingAmount: z.strictObject({ currency: z.string(), value: z.string() }).optional(),
  origMerchantTransInfo: z
    .strictObject({ merchantTransID: z.string(), merchantTransTime: z.string(), merchantOrderReference: z.string().optional() })
    .optional(),
  transInitiator: z.record(z.string(), z.string()).optional(),
  merchantOrderReference: z.string().optional(),
})
/** The integrator's optional payment fields, as the schema accepts them (one declaration). */
export type PaymentOptions = z.infer<typeof paymentOptionsSchema>

/** One operation: its request, who may call it, and what it answers (result-schemas.ts). */
interface Declared<R extends z.ZodType, A extends z.ZodType> {
  readonly request: R
  readonly access: OperationAccess
  readonly result: A
}
const declare = <R extends z.ZodType, A extends z.ZodType>(request: R, access: OperationAccess, result: A): Declared<R, A> => ({
  request,
  access,
  result,
})
const noRequest = z.strictObject({})

export const OPERATIONS = {
  appInfo: declare(noRequest, reads(), appInfoSchema),
  startSale: declare(
    z.strictObject({
      amountMinor: minor.min(1, 'the amount must be more than zero'),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
      /** The integrator's idempotency key: a repeat returns the same sale, never a second charge. */
      reference: saleReference.optional(),
      offlinePolicy: z.enum(OFFLINE_POLICIES).optional(),
      options: paymentOptionsSchema.optional(),
      /**
       * The cashier or the POS confirmed the amount: needed above the terminal's confirmation amount
       * (AppInfo `saleLimits.confirmAboveMinor`); without it such a sale is refused with
       * AMOUNT_NEEDS_CONFIRMATION, to be asked and sent again.
       */
      amountConfirmed: z.boolean().optional(),
      /**
       * The customer display speaks this sale's prompts (the amount, present the card, enter the PIN on
       * the pad, the outcome): a customer who asked for it. Only this sale; the customer can still
       * switch it off on the display. Read back as the sale's `speech`.
       */
      speech: z.boolean().optional(),
    }),
    atZvt(works('sell')),
    saleViewSchema,
  ),
  getSale: declare(z.strictObject({ id: saleId }), reads(), saleViewSchema),
  /** A sale by the POS's own `reference` (the one it gave startSale), for a POS that lost the agent's id. */
  getSaleByReference: declare(
    z.strictObject({ reference: saleReference }),
    reads(['counter', 'pos', 'nexo', 'zvt', 'cli']),
    saleViewSchema,
  ),
  cancelSale: declare(z.strictObject({ id: saleId }), atZvt(works('sell')), saleViewSchema),
  confirmDuplicate: declare(z.strictObject({ id: saleId, charge: z.boolean() }), works('sell'), saleViewSchema),
  /** A manager approves the void of a sale older than AppInfo's `voidWithoutManagerMinutes`. */
  voidSale: declare(z.strictObject({ id: saleId, approval: approval.optional() }), atZvt(works('sell', 'voidAge'), true), saleViewSchema),
  /**
   * A return: credits `amountMinor` of sale `originalId` (at most what is left to return of it) to the
   * card it was paid with, presented again; without `originalId`, a return without a sale on this
   * terminal, within its limits. Always a manager's (`approval`, or a manager signed in at the counter);
   * over nexo, the POS's own staff rules approve it, for a token with the refund scope.
   */
  startReturn: declare(
    z.strictObject({
      originalId: saleId.optional(),
      amountMinor: minor.min(1, 'the amount must be more than zero'),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
      /** The integrator's idempotency key: a repeat returns the same return, never a second credit. */
      reference: saleReference.optional(),
      approval: approval.optional(),
    }),
    atZvt(works('refund', 'always', { posApproves: ['nexo'] }), true),
    saleViewSchema,
  ),
  /** A manager approves a tip past the tolerance (`managerOverride`). */
  adjustTip: declare(
    z.strictObject({ id: saleId, tipMinor: minor, managerOverride: z.boolean().optional(), approval: approval.optional() }),
    atZvt(works('sell', 'tipOverride')),
    saleViewSchema,
  ),
  /**
   * Sales, oldest first: those of the open batch, or of local day `day`, or of `batch` (a closed batch's
   * number, or "open"), both when both are given; narrowed by the amount (the sale's, or with its tip),
   * the card's last four digits, the POS's reference and the operator who rang it up. Never a card number.
   */
  listSales: declare(
    z.strictObject({
      day: day.optional(),
      batch: z.union([batchNumber, z.literal('open')]).optional(),
      amountMinor: minor.min(1, 'the amount must be more than zero').optional(),
      last4: z
        .string()
        .regex(/^\d{4}$/, 'last4 is the last four digits of the card, exactly 4 digits (never the card number)')
        .optional(),
      reference: saleReference.optional(),
      operatorId: operatorId.optional(),
    }),
    reads(),
    z.array(saleViewSchema),
  ),
  queueStatus: declare(noRequest, reads(), queueStatusViewSchema),
  queueItems: declare(noRequest, reads(['counter', 'pos', 'cli']), z.array(queueItemViewSchema)),
  forwardNow: declare(noRequest, atZvt(works('sell')), queueStatusViewSchema),
  retryAttention: declare(z.strictObject({ id: saleId, approval: approval.optional() }), works('sell', 'always'), saleViewSchema),
  /** The open batch, or closed batch number `batch` with its totals as they were closed. */
  dayReport: declare(
    z.strictObject({ batch: batchNumber.optional() }),
    reads(['counter', 'pos', 'nexo', 'zvt', 'cli']),
    dayReportViewSchema,
  ),
  /**
   * Closes the open batch. `batch` names the batch the caller means to close: a repeat after it
   * closed returns that batch's report and closes nothing else. `managerOverride` closes a batch
   * blocked only by sales that need a manager; it is recorded on each.
   */
  closeDay: declare(
    z.strictObject({ batch: batchNumber.optional(), managerOverride: z.boolean().optional(), approval: approval.optional() }),
    atZvt(works('sell', 'always'), true),
    dayReportViewSchema,
  ),
  /** Closed batches, newest first. */
  listBatches: declare(noRequest, reads(['counter', 'pos', 'cli']), z.array(batchSummaryViewSchema)),
  /** A manager takes note that a stored payment the bank declined will not be paid. */
  acknowledgeAttention: declare(z.strictObject({ id: saleId, approval: approval.optional() }), works('sell', 'always'), saleViewSchema),
  /**
   * The day's sales and totals as a file; with `audit`, the audit trail of the same time too (a
   * manager's: who signed in, approved, changed keys, tokens and operators).
   */
  exportDay: declare(
    z.strictObject({
      batch: batchNumber.optional(),
      format: z.enum(['csv', 'json']),
      audit: z.boolean().optional(),
      approval: approval.optional(),
    }),
    { ...works('sell', 'auditIncluded'), scope: 'read', scopeWhen: { field: 'audit', scope: 'admin' } },
    dayExportSchema,
  ),
  deviceStatus: declare(noRequest, reads(), deviceStatusViewSchema),
  /**
   * More time at the card prompt (CARD_READ_EXTENSION in src-main/device: a bounded number of times).
   * The customer asks at the display, or the cashier for them; the one thing the display may do, and
   * nothing a POS needs (it cancels or waits).
   */
  extendCardRead: declare(
    noRequest,
    { doors: ['counter', 'display'], scope: 'sell', signIn: false, manager: 'never', audited: false },
    cardReadExtensionViewSchema,
  ),
  /**
   * The cashier is checking a large amount with the customer before the card is asked for (or no
   * longer: `amount` null): the customer display shows it to check. Nothing is charged by it; the
   * cashier window's alone (a POS confirms on its own screen).
   */
  showAmountCheck: declare(
    z.strictObject({
      amount: z.strictObject({ amountMinor: minor.min(1), currency: z.string().regex(/^[A-Z]{3}$/) }).nullable(),
    }),
    { doors: ['counter'], scope: 'sell', signIn: false, manager: 'never', audited: false },
    z.object({ shown: z.boolean() }),
  ),
  presentTestCard: declare(z.strictObject({ name: z.string().min(1).max(64) }), works('sell'), z.object({ presented: z.string() })),
  settings: declare(noRequest, reads(), settingsViewSchema),
  setSigningKey: declare(
    z.strictObject({
      key: z.string().length(32, 'the signing key is exactly 32 characters'),
      approval: approval.optional(),
    }),
    atSetup(administers('always', { posApproves: ['cli'] })),
    z.object({ kcv: z.string() }),
  ),
  /** A manager: a new integrator token for one POS (shown once), doing only what `scopes` name. */
  createToken: declare(
    z.strictObject({
      name: z.string().trim().min(1).max(64),
      scopes: z.array(z.enum(TOKEN_SCOPES)).min(1).max(TOKEN_SCOPES.length).optional(),
      approval: approval.optional(),
    }),
    administers('always'),
    z.object({ token: z.string(), integrator: integratorTokenSchema }),
  ),
  listTokens: declare(noRequest, { ...administers('never'), audited: false }, z.array(integratorTokenSchema)),
  /** Revoking a token also ends every window it opened. */
  revokeToken: declare(
    z.strictObject({ id: z.string().min(1).max(64), approval: approval.optional() }),
    administers('always'),
    integratorTokenSchema,
  ),
  listOperators: declare(noRequest, atSetup({ ...administers('never', { signIn: false }), audited: false }), z.array(operatorSchema)),
  /** The first operator of a terminal is a manager and needs no approval; every later one, a manager's. */
  addOperator: declare(
    z.strictObject({
      operatorId: operatorId,
      name: z.string().trim().min(1).max(64),
      role: z.enum(['cashier', 'manager']),
      pin,
      approval: approval.optional(),
    }),
    atSetup(administers('notFirstOperator', { signIn: false })),
    operatorSchema,
  ),
  /** Signs in at this counter (five wrong PINs in a row lock the operator for fifteen minutes). */
  signIn: declare(credential, { doors: ['counter'], scope: 'admin', signIn: false, manager: 'never', audited: true }, operatorSchema),
  signOut: declare(
    noRequest,
    { doors: ['counter'], scope: 'admin', signIn: false, manager: 'never', audited: true },
    counterOperatorSchema,
  ),
  /** Who is signed in at this counter, and whether this terminal asks for a sign-in at all. */
  counterOperator: declare(
    noRequest,
    { doors: ['counter'], scope: 'admin', signIn: false, manager: 'never', audited: false },
    counterOperatorSchema,
  ),
  // A manager's approval is the whole of what these need: a locked-out cashier's PIN is reset at a
  // counter where nobody can sign in.
  setOperatorPin: declare(
    z.strictObject({ operatorId, pin, approval: approval.optional() }),
    administers('always', { signIn: false }),
    operatorSchema,
  ),
  disableOperator: declare(
    z.strictObject({ operatorId, approval: approval.optional() }),
    administers('always', { signIn: false }),
    operatorSchema,
  ),
  /**
   * Lifts a lockout after wrong PINs, keeping the operator's PIN; `wasLocked` says whether there was
   * one. The machine's owner at the command line stands for the manager: a shop whose only manager
   * is locked has nobody else to approve it.
   */
  unlockOperator: declare(
    z.strictObject({ operatorId, approval: approval.optional() }),
    administers('always', { signIn: false, posApproves: ['cli'] }),
    unlockedOperatorSchema,
  ),
  /**
   * A manager's approval of one request, asked before sending it: the proof approves exactly that
   * operation with exactly that request (its `approval` left out), for the caller that asked it only,
   * once, within two minutes. A token needs the scope of the request it has approved (never `read`).
   */
  approve: declare(
    z.strictObject({
      operation: z.string().min(1).max(64),
      request: z.record(z.string(), z.unknown()),
      operatorId,
      pin: z.string().min(1).max(8),
    }),
    { doors: ['counter', 'pos', 'nexo'], scope: 'read', signIn: false, manager: 'never', audited: true, scopeOfApproved: true },
    approvalProofSchema,
  ),
  /**
   * What a request a manager approves would do, in the words its approval is recorded with in the
   * audit trail: asked before the manager's number and PIN, so the manager sees what they approve.
   * Reads only; refused for an operation no manager approves.
   */
  describeApproval: declare(
    z.strictObject({ operation: z.string().min(1).max(64), request: z.record(z.string(), z.unknown()) }),
    reads(['counter', 'pos', 'nexo', 'cli']),
    approvalRequestSchema,
  ),
  /** A one-time link that opens a cashier window (the machine's owner, or from a cashier window). */
  openCashierWindow: declare(noRequest, administers('never'), windowLinkSchema),
  /** The paired windows (browser windows a launch link opened), for a manager to see and revoke. */
  listWindows: declare(noRequest, { ...administers('never'), audited: false }, z.array(pairedWindowSchema)),
  /** Ends a paired window (and every window opened from it): its next call is refused. */
  revokeWindow: declare(
    z.strictObject({ id: z.string().regex(/^[0-9a-f]{12}$/), approval: approval.optional() }),
    administers('always'),
    z.array(pairedWindowSchema),
  ),
  /** A one-time link that opens a customer display, which only reads. */
  openCustomerDisplay: declare(noRequest, { ...reads(['counter', 'pos', 'cli']), audited: true }, windowLinkSchema),
  /** The audit trail (a manager's): every sign-in, approval, window, token, key and operator change, oldest first. */
  auditTrail: declare(
    z.strictObject({
      batch: batchNumber.optional(),
      afterSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      limit: z.number().int().min(1).max(5000).optional(),
      approval: approval.optional(),
    }),
    { ...administers('always'), audited: false },
    auditTrailSchema,
  ),
  /**
   * Prints a sale's receipt on the receipt printer, again as often as asked: both copies unless one is
   * named; `kind` TIP prints the receipt of a tip added later (docs/receipts.md).
   */
  printReceipt: declare(
    z.strictObject({ id: saleId, copies: z.enum(['both', 'merchant', 'customer']).optional(), kind: receiptKind.optional() }),
    { ...works('sell'), signIn: false },
    printerStatusViewSchema,
  ),
  /** Emails the customer's copy of a sale's receipt through the store's SMTP server. */
  emailReceipt: declare(
    z.strictObject({ id: saleId, to: z.string().trim().min(3).max(254), kind: receiptKind.optional() }),
    {
      ...works('sell'),
      signIn: false,
    },
    z.object({ to: z.string() }),
  ),
  /** Asks the receipt printer how it is now (paper, cover, power). */
  printerStatus: declare(noRequest, reads(['counter', 'pos', 'cli']), printerStatusViewSchema),
  /** Prints the day report: the Z-report of a closed batch (as closed), or the open batch's running totals. */
  printDayReport: declare(z.strictObject({ batch: batchNumber.optional() }), reads(['counter', 'pos', 'cli']), printerStatusViewSchema),
  /** The terminal now (the sale at the counter, its prompt, queue, reader, alarms): what an event stream starts from. */
  snapshot: declare(noRequest, reads(), posStreamSnapshotSchema),
  /** The agent's Prometheus metrics, one scrape in the text format (docs/monitoring.md). */
  metrics: declare(noRequest, reads(['counter', 'pos', 'cli']), metricsScrapeSchema),
} as const

export type OperationName = keyof typeof OPERATIONS
/** Each operation's request schema (OPERATIONS, request by request). */
export const OPERATION_SCHEMAS = Object.fromEntries(Object.entries(OPERATIONS).map(([name, op]) => [name, op.request])) as {
  [K in OperationName]: (typeof OPERATIONS)[K]['request']
}
export type OperationRequest<K extends OperationName> = z.infer<(typeof OPERATIONS)[K]['request']>

/** What each operation answers with, under `value` (docs/local-api.md): the source of the OpenAPI document. */
export const RESULT_SCHEMAS = Object.fromEntries(Object.entries(OPERATIONS).map(([name, op]) => [name, op.result])) as {
  [K in OperationName]: (typeof OPERATIONS)[K]['result']
}
/** Each operation's answer, as its result schema describes it. */
export type OperationResults = { [K in OperationName]: z.infer<(typeof OPERATIONS)[K]['result']> }

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[]

/** Whether `name` is one of the contract's operations. */
export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name)
}

/** The access row of an operation (OPERATIONS). */
export function accessOf(name: OperationName): OperationAccess {
  return OPERATIONS[name].access
}

/** The operations a customer-facing display may call: it reads, and asks for more time at the card prompt. */
export const DISPLAY_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter((name) => accessOf(name).doors.includes('display'))

/**
 * What a manager approves, once the terminal has a manager (docs/local-api.md "Operators"), always or
 * by its rule: a renderer asks for a manager when the agent says MANAGER_REQUIRED for one of these.
 */
export const MANAGER_APPROVED_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter((name) => accessOf(name).manager !== 'never')
