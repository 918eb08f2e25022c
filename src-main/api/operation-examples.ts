/**
 * One example request per operation, shown in the OpenAPI document (`GET /v1/openapi.json`) and
 * sent by the contract test, which validates each answer against that document. Typed by the
 * contract, so an example that no longer fits its operation does not compile.
 */
import type { OperationName, OperationRequest } from '../../src-shared/contract'

/** A sale id as the agent issues them: `<terminalId>-<epoch>-<sequence>` (docs/architecture.md). */
export const EXAMPLE_SALE_ID = 'T1-ab3de001-00000042'
/**
 * A manager's approval as a POS sends it: a proof `approve` gave for that very request and this
 * caller (a number and PIN approve only at the cashier window).
 */
export const EXAMPLE_APPROVAL = 'apv_Q2hvb3NlIGEgbmV3IHByb29mIGZvciBlYWNoIHJlcXVlc3Q'

export const OPERATION_EXAMPLES: { [K in OperationName]: OperationRequest<K> } = {
  appInfo: {},
  startSale: { amountMinor: 1234, currency: 'USD', reference: 'ECR-42', offlinePolicy: 'preferOnline' },
  getSale: { id: EXAMPLE_SALE_ID },
  getSaleByReference: { reference: 'ECR-42' },
  cancelSale: { id: EXAMPLE_SALE_ID },
  confirmDuplicate: { id: EXAMPLE_SALE_ID, charge: true },
  voidSale: { id: EXAMPLE_SALE_ID },
  startReturn: { originalId: EXAMPLE_SALE_ID, amountMinor: 500, currency: 'USD', approval: EXAMPLE_APPROVAL },
  adjustTip: { id: EXAMPLE_SALE_ID, tipMinor: 200 },
  listSales: { batch: 'open', last4: '0010' },
  queueStatus: {},
  queueItems: {},
  forwardNow: {},
  retryAttention: { id: EXAMPLE_SALE_ID },
  dayReport: {},
  closeDay: { batch: 1 },
  listBatches: {},
  acknowledgeAttention: { id: EXAMPLE_SALE_ID },
  exportDay: { format: 'csv' },
  deviceStatus: {},
  extendCardRead: {},
  showAmountCheck: { amount: { amountMinor: 150000, currency: 'USD' } },
  presentTestCard: { name: 'chip-visa' },
  settings: {},
  setSigningKey: { key: '0123456789abcdef0123456789abcdef' },
  createToken: { name: 'Back-office POS' },
  listTokens: {},
  revokeToken: { id: '6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f' },
  listOperators: {},
  addOperator: { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' },
  signIn: { operatorId: '9', pin: '4321' },
  signOut: {},
  counterOperator: {},
  setOperatorPin: { operatorId: '9', pin: '8642', approval: EXAMPLE_APPROVAL },
  disableOperator: { operatorId: '17', approval: EXAMPLE_APPROVAL },
  printReceipt: { id: EXAMPLE_SALE_ID, copies: 'customer' },
  emailReceipt: { id: EXAMPLE_SALE_ID, to: 'customer@example.com' },
  printerStatus: {},
  printDayReport: { batch: 1 },
  unlockOperator: { operatorId: '17', approval: EXAMPLE_APPROVAL },
  describeApproval: { operation: 'startReturn', request: { originalId: EXAMPLE_SALE_ID, amountMinor: 500 } },
  approve: { operation: 'startReturn', request: { originalId: EXAMPLE_SALE_ID, amountMinor: 500 }, operatorId: '9', pin: '4321' },
  openCashierWindow: {},
  openCustomerDisplay: {},
  auditTrail: { approval: EXAMPLE_APPROVAL },
  snapshot: {},
  listWindows: {},
  revokeWindow: { id: '0123456789ab', approval: EXAMPLE_APPROVAL },
  metrics: {},
}
