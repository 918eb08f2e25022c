/**
 * Every operation the cashier UI and integrators can ask of the agent: one declaration, used by the
 * Electron IPC handlers, the preload bridge, the local HTTP API and both renderer adapters.
 * Requests are validated with these zod schemas at every entrance.
 */
import { z } from 'zod'
import type {
  CounterOperatorView,
  OperatorView,
  PrinterStatusView,
  IntegratorTokenView,
  AppInfo,
  BatchSummaryView,
  DayReportView,
  DeviceStatusView,
  QueueItemView,
  QueueStatusView,
  SaleView,
  SettingsView,
} from './dto'
import { OFFLINE_POLICIES } from '../sale'

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

export const OPERATION_SCHEMAS = {
  appInfo: z.strictObject({}),
  startSale: z.strictObject({
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
  }),
  getSale: z.strictObject({ id: saleId }),
  /** A sale by the POS's own `reference` (the one it gave startSale), for a POS that lost the agent's id. */
  getSaleByReference: z.strictObject({ reference: saleReference }),
  cancelSale: z.strictObject({ id: saleId }),
  confirmDuplicate: z.strictObject({ id: saleId, charge: z.boolean() }),
  voidSale: z.strictObject({ id: saleId, approval: credential.optional() }),
  /**
   * A return: credits `amountMinor` of sale `originalId` (at most what is left to return of it) to the
   * card it was paid with, presented again; without `originalId`, a return without a sale on this
   * terminal, within its own limit. Always a manager's (`approval`, or a manager signed in at the counter).
   */
  startReturn: z.strictObject({
    originalId: saleId.optional(),
    amountMinor: minor.min(1, 'the amount must be more than zero'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    /** The integrator's idempotency key: a repeat returns the same return, never a second credit. */
    reference: saleReference.optional(),
    approval: credential.optional(),
  }),
  adjustTip: z.strictObject({ id: saleId, tipMinor: minor, managerOverride: z.boolean().optional(), approval: credential.optional() }),
  /**
   * Sales, oldest first: those of the open batch, or of local day `day`, or of `batch` (a closed batch's
   * number, or "open"), both when both are given; narrowed by the amount (the sale's, or with its tip),
   * the card's last four digits, the POS's reference and the operator who rang it up. Never a card number.
   */
  listSales: z.strictObject({
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
  queueStatus: z.strictObject({}),
  queueItems: z.strictObject({}),
  forwardNow: z.strictObject({}),
  retryAttention: z.strictObject({ id: saleId, approval: credential.optional() }),
  /** The open batch, or closed batch number `batch` with its totals as they were closed. */
  dayReport: z.strictObject({ batch: batchNumber.optional() }),
  /**
   * Closes the open batch. `batch` names the batch the caller means to close: a repeat after it
   * closed returns that batch's report and closes nothing else. `managerOverride` closes a batch
   * blocked only by sales that need a manager; it is recorded on each.
   */
  closeDay: z.strictObject({ batch: batchNumber.optional(), managerOverride: z.boolean().optional(), approval: credential.optional() }),
  /** Closed batches, newest first. */
  listBatches: z.strictObject({}),
  /** A manager takes note that a stored payment the bank declined will not be paid. */
  acknowledgeAttention: z.strictObject({ id: saleId, approval: credential.optional() }),
  exportDay: z.strictObject({ batch: batchNumber.optional(), format: z.enum(['csv', 'json']) }),
  deviceStatus: z.strictObject({}),
  presentTestCard: z.strictObject({ name: z.string().min(1).max(64) }),
  settings: z.strictObject({}),
  setSigningKey: z.strictObject({
    key: z.string().length(32, 'the signing key is exactly 32 characters'),
    approval: credential.optional(),
  }),
  /** A manager, at the cashier screen: a new integrator token for one POS (shown once). */
  createToken: z.strictObject({ name: z.string().trim().min(1).max(64), approval: credential.optional() }),
  listTokens: z.strictObject({}),
  revokeToken: z.strictObject({ id: z.string().min(1).max(64), approval: credential.optional() }),
  listOperators: z.strictObject({}),
  /** The first operator of a terminal is a manager and needs no approval; every later one, a manager's. */
  addOperator: z.strictObject({
    operatorId: operatorId,
    name: z.string().trim().min(1).max(64),
    role: z.enum(['cashier', 'manager']),
    pin,
    approval: credential.optional(),
  }),
  /** Checks an operator's number and PIN (five wrong ones lock the operator for fifteen minutes). */
  signIn: credential,
  signOut: z.strictObject({}),
  /** Who is signed in at the counter, and whether this terminal asks for a sign-in at all. */
  counterOperator: z.strictObject({}),
  setOperatorPin: z.strictObject({ operatorId, pin, approval: credential }),
  disableOperator: z.strictObject({ operatorId, approval: credential }),
  /**
   * Prints a sale's receipt on the receipt printer, again as often as asked: both copies unless one is
   * named; `kind` TIP prints the receipt of a tip added later (docs/receipts.md).
   */
  printReceipt: z.strictObject({ id: saleId, copies: z.enum(['both', 'merchant', 'customer']).optional(), kind: receiptKind.optional() }),
  /** Emails the customer's copy of a sale's receipt through the store's SMTP server. */
  emailReceipt: z.strictObject({ id: saleId, to: z.string().trim().min(3).max(254), kind: receiptKind.optional() }),
  /** Asks the receipt printer how it is now (paper, cover, power). */
  printerStatus: z.strictObject({}),
  /** Prints the day report: the Z-report of a closed batch (as closed), or the open batch's running totals. */
  printDayReport: z.strictObject({ batch: batchNumber.optional() }),
} as const

export type OperationName = keyof typeof OPERATION_SCHEMAS
export type OperationRequest<K extends OperationName> = z.infer<(typeof OPERATION_SCHEMAS)[K]>

export interface OperationResults {
  appInfo: AppInfo
  startSale: SaleView
  getSale: SaleView
  getSaleByReference: SaleView
  cancelSale: SaleView
  confirmDuplicate: SaleView
  voidSale: SaleView
  startReturn: SaleView
  adjustTip: SaleView
  listSales: SaleView[]
  queueStatus: QueueStatusView
  queueItems: QueueItemView[]
  forwardNow: QueueStatusView
  retryAttention: SaleView
  dayReport: DayReportView
  closeDay: DayReportView
  listBatches: BatchSummaryView[]
  acknowledgeAttention: SaleView
  exportDay: { filename: string; contentType: string; content: string }
  deviceStatus: DeviceStatusView
  presentTestCard: { presented: string }
  settings: SettingsView
  setSigningKey: { kcv: string }
  createToken: { token: string; integrator: IntegratorTokenView }
  listTokens: IntegratorTokenView[]
  revokeToken: IntegratorTokenView
  listOperators: OperatorView[]
  addOperator: OperatorView
  signIn: OperatorView
  signOut: CounterOperatorView
  counterOperator: CounterOperatorView
  setOperatorPin: OperatorView
  disableOperator: OperatorView
  printReceipt: PrinterStatusView
  emailReceipt: { to: string }
  printerStatus: PrinterStatusView
  printDayReport: PrinterStatusView
}

export const OPERATION_NAMES = Object.keys(OPERATION_SCHEMAS) as OperationName[]

/**
 * The operations a customer-facing display may call: it reads, it never acts. A customer touching
 * the screen turned towards them cannot start, cancel, void or close anything through it.
 */
export const DISPLAY_OPERATIONS: readonly OperationName[] = ['appInfo', 'settings', 'deviceStatus', 'queueStatus', 'listSales', 'getSale']

/**
 * What a manager approves, once the terminal has operators (docs/local-api.md "Operators"): at the
 * counter a manager signed in approves by being there; otherwise the request carries a manager's
 * `approval` (number and PIN). A tip needs it only past the tolerance (`managerOverride`), a void only
 * of a sale older than AppInfo's `voidWithoutManagerMinutes`; every return needs it.
 */
export const MANAGER_APPROVED_OPERATIONS: readonly OperationName[] = [
  'voidSale',
  'startReturn',
  'adjustTip',
  'retryAttention',
  'closeDay',
  'acknowledgeAttention',
  'setSigningKey',
  'createToken',
  'revokeToken',
]

/** What the counter does only with an operator signed in, once the terminal has operators. */
export const SIGNED_IN_OPERATIONS: readonly OperationName[] = [
  'startSale',
  'cancelSale',
  'confirmDuplicate',
  'voidSale',
  'startReturn',
  'adjustTip',
  'forwardNow',
  'retryAttention',
  'closeDay',
  'acknowledgeAttention',
  'exportDay',
  'presentTestCard',
  'setSigningKey',
  'createToken',
  'listTokens',
  'revokeToken',
]

/**
 * The operations only the cashier screen may call (a manager there), never the POS with its token:
 * a POS that could mint or revoke integrator tokens could lock the others out, or keep itself in.
 */
export const COUNTER_ONLY_OPERATIONS: readonly OperationName[] = [
  'createToken',
  'listTokens',
  'revokeToken',
  'listOperators',
  'addOperator',
  'signIn',
  'signOut',
  'counterOperator',
  'setOperatorPin',
  'disableOperator',
]
