/**
 * Every state of a sale, declared once, with the classes it belongs to. The machine
 * (src-main/txn/txn-machine.ts), the journal's SQL, close of day, the local API and the cashier UI
 * all take their state lists from here: a new state is one row in this table, and the classes it
 * belongs to are decided in that row. docs/transactions.md explains each state.
 */

interface StateTraits {
  /** The cashier is still at the counter with this sale: no other sale may start. */
  readonly counterBusy: boolean
  /** A payment that stands: the cashier may void it, tip it, or (restaurant) capture it. */
  readonly standingPayment: boolean
  /** The money counts in the day's totals (approved, stored, or being captured or cancelled). */
  readonly charged: boolean
  /** Ended: no further host message will be sent for the payment itself. */
  readonly final: boolean
  /** Settled for good as far as a restart is concerned: recovery has nothing to look at. */
  readonly settled: boolean
  /** The reader waits for the card (a sale's, a void's or a return's): a stop at the counter stops the reader. */
  readonly readingCard: boolean
}

const no: StateTraits = { counterBusy: false, standingPayment: false, charged: false, final: false, settled: false, readingCard: false }

const STATE_TABLE = {
  /** Journaled, nothing asked of the device yet. */
  created: { ...no, counterBusy: true },
  /** The reader waits for, or reads, the card (and PIN). */
  readingCard: { ...no, counterBusy: true, readingCard: true },
  /** Same card and amount as a recent sale: the cashier confirms or stops it. */
  awaitingConfirmation: { ...no, counterBusy: true },
  /** The payment is journaled and on its way to the host. */
  sending: { ...no, counterBusy: true },
  /** The chip gets the host's answer (or "unable to go online"). */
  completingCard: { ...no, counterBusy: true },
  /** Approved online. */
  approved: { ...no, standingPayment: true, charged: true, settled: true },
  /** Declined online, refused, or not allowed offline. */
  declined: { ...no, final: true, settled: true },
  /** Ended before anything reached the host. */
  abandoned: { ...no, final: true, settled: true },
  /** Approved locally, waiting in the store-and-forward queue. */
  storedOffline: { ...no, standingPayment: true, charged: true },
  /** A stored payment the host acknowledged. */
  forwarded: { ...no, standingPayment: true, charged: true, settled: true },
  /** A reversal is queued (no answer, card declined after approval, restart). */
  reversalPending: { ...no },
  /** The host acknowledged the reversal. */
  reversed: { ...no, final: true, settled: true },
  /** The customer presents the card again to void. */
  voidReadingCard: { ...no, counterBusy: true, readingCard: true },
  /** The cancel is queued for the host. */
  cancelPending: { ...no, charged: true },
  /** Voided at the host, or withdrawn from the queue before it was ever sent. */
  cancelled: { ...no, final: true, settled: true },
  /** Restaurant close: capture of base plus tip queued. */
  capturePending: { ...no, charged: true },
  /** Capture acknowledged. */
  captured: { ...no, charged: true, settled: true },
  /** A queued message went past its limits, or the host refused it: a manager looks. */
  needsAttention: { ...no },
  /** A stored payment the bank declined when it was forwarded, acknowledged by a manager: the money did not come. */
  notReceived: { ...no, final: true, settled: true },
  // A return (a sale-like record of kind 'return', docs/transactions.md "Returns") has states of its
  // own: it credits the customer, so none of them is charged, and a credit is never reversed.
  /** A return: the customer presents the card the sale was paid with. */
  returnReadingCard: { ...no, counterBusy: true, readingCard: true },
  /** A return's credit is journaled and queued: it is sent, with the same id, until the bank answers. */
  creditPending: { ...no },
  /** The bank confirmed the return's credit. */
  credited: { ...no, final: true, settled: true },
} as const satisfies Record<string, StateTraits>

export type SaleState = keyof typeof STATE_TABLE

/** Every state, in the order of a sale's life. */
export const SALE_STATES = Object.keys(STATE_TABLE) as readonly SaleState[]

function where(trait: keyof StateTraits): ReadonlySet<SaleState> {
  return new Set(SALE_STATES.filter((state) => STATE_TABLE[state][trait]))
}

/** The cashier waits: one sale at a time, and close of day waits for these. */
export const COUNTER_BUSY = where('counterBusy')
/** Approved and standing: void, tip and capture apply. */
export const STANDING_PAYMENT = where('standingPayment')
/** Counted in the day's totals. */
export const CHARGED = where('charged')
/** Nothing more will be sent for the payment. */
export const FINAL = where('final')
/** Recovery after a restart looks only at sales outside this class. */
export const SETTLED = where('settled')
/** The reader is asked for the card. */
export const READING_CARD = where('readingCard')

/** What a journaled record is: a sale (a charge) or a return (a merchandise credit to the card). */
export const SALE_KINDS = ['sale', 'return'] as const
export type SaleKind = (typeof SALE_KINDS)[number]

/** A sale whose charge stands at the bank with nothing pending on it: it may be returned, in part or whole. */
export const RETURNABLE: ReadonlySet<SaleState> = new Set<SaleState>(['approved', 'forwarded', 'captured'])

/** A return that credits, or will credit, the customer: counted against what is left to return, and in the day's returns. */
export const CREDITING: ReadonlySet<SaleState> = new Set<SaleState>(['creditPending', 'credited'])

/** A return still at the counter (journaled, or waiting for its card): what it asks is held against the sale. */
export const RETURN_AT_COUNTER: ReadonlySet<SaleState> = new Set<SaleState>(['created', 'returnReadingCard'])

export function isSaleState(value: string): value is SaleState {
  return Object.hasOwn(STATE_TABLE, value)
}

/** The same class as an SQL list (`'a', 'b'`), for the journal's queries: state names are plain identifiers. */
export function sqlStateList(states: ReadonlySet<SaleState>): string {
  return [...states].map((state) => `'${state}'`).join(', ')
}
