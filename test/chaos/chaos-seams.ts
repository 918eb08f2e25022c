/**
 * The seams the chaos checker searches where two flows meet (docs/transactions.md "Returns"): a tip
 * changed, a void or another return while a return waits for its card; a void while the queue
 * forwards; a tip no approval may allow; nexo payments, refunds, reversals and aborts from two POS,
 * repeated under the same ServiceID; and the invariants they must keep: no amount or sum beyond the
 * limits, and nexo's TransactionStatus in agreement with the journal after every restart.
 */
import fc from 'fast-check'
import { COUNTER_BUSY, type SaleState } from '../../src-shared/sale'
import type { NexoCheck, NexoPos } from '../support/chaos-nexo'
import type { ChaosCard } from '../support/chaos-worker'

export const RACES = ['tipDown', 'tipUp', 'void', 'return', 'nexoReversal'] as const
export type Race = (typeof RACES)[number]

export type SeamCommand =
  /** A return of all that is left of a sale, its card held back `cardAfterMs`, raced by `race` on the same sale. */
  | { kind: 'returnRace'; sale: number; race: Race; cardAfterMs: number }
  /** A void of a sale while the queue forwards. */
  | { kind: 'voidDuringForward'; sale: number }
  /** A tip a manager approves that would take amount plus tip past every limit. */
  | { kind: 'hugeTip'; sale: number }
  | { kind: 'nexoPayment'; pos: NexoPos; service: number; amountMinor: number; card: ChaosCard; refund: boolean; wait: boolean }
  | { kind: 'nexoAbort'; pos: NexoPos; of: NexoPos; service: number; afterMs: number }
  /** A Reversal of a sale from a POS: the whole (a void) or a share of it (a referenced return). */
  | { kind: 'nexoReversal'; pos: NexoPos; service: number; sale: number; percent: number; wait: boolean }

const saleIndex = fc.nat({ max: 30 })
const pos = fc.constantFrom<NexoPos>('POS-A', 'POS-B')
/** A small pool of ServiceIDs, so that a POS repeats one now and then, and the two POS share numbers. */
const service = fc.nat({ max: 4 })

export const seamArbs: Array<{ weight: number; arbitrary: fc.Arbitrary<SeamCommand> }> = [
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('returnRace' as const),
      sale: saleIndex,
      race: fc.constantFrom(...RACES),
      cardAfterMs: fc.integer({ min: 50, max: 400 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('voidDuringForward' as const), sale: saleIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hugeTip' as const), sale: saleIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('nexoPayment' as const),
      pos,
      service,
      amountMinor: fc.tuple(fc.integer({ min: 1, max: 120 }), fc.constantFrom(0, 25, 51, 99)).map(([major, minor]) => major * 100 + minor),
      card: fc.constantFrom<ChaosCard>('chip', 'swipe', 'contactless'),
      refund: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      wait: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('nexoAbort' as const), pos, of: pos, service, afterMs: fc.integer({ min: 0, max: 300 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('nexoReversal' as const),
      pos,
      service,
      sale: saleIndex,
      percent: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 99 })),
      wait: fc.boolean(),
    }),
  },
]

/** A nexo request the model sent, by the POS and ServiceID that name it. */
export interface NexoSent {
  pos: NexoPos
  serviceId: string
  category: 'Payment' | 'Reversal'
}

export const nexoServiceId = (category: 'Payment' | 'Reversal', n: number): string => `${category === 'Payment' ? 'P' : 'R'}${n}`

/** Where a payment (or refund) stands for the POS: it went through. Judged apart from the terminal's own table. */
const POS_SUCCESS: ReadonlySet<string> = new Set<SaleState>([
  'approved',
  'storedOffline',
  'forwarded',
  'capturePending',
  'captured',
  'creditPending',
  'credited',
])

type Answer = {
  Response?: { Result?: string; ErrorCondition?: string }
  RepeatedMessageResponse?: { RepeatedResponseMessageBody?: Record<string, Record<string, unknown>> }
}

/**
 * Does TransactionStatus say what the journal says? `journal` was read before and after the question
 * (the queue may move a sale meanwhile): the answer must agree with one of the two.
 */
export function nexoDisagreement(check: NexoCheck): string | undefined {
  const reasons = [check.journal, check.journalAfter].map((journal) => disagreement(check, journal))
  if (reasons.some((reason) => reason === undefined)) return undefined
  return `${check.category} ${check.pos}/${check.serviceId}: ${reasons[0]}`
}

function disagreement(check: NexoCheck, journal: NexoCheck['journal']): string | undefined {
  const answer = (check.answer ?? {}) as Answer
  const condition = answer.Response?.ErrorCondition
  if (journal === undefined)
    return condition === 'NotFound' ? undefined : `the journal has nothing, TransactionStatus says ${JSON.stringify(answer.Response)}`
  if (check.category === 'Payment' && COUNTER_BUSY.has(journal.state as SaleState))
    return condition === 'InProgress'
      ? undefined
      : `${journal.id} is ${journal.state} (at the counter), TransactionStatus says ${JSON.stringify(answer.Response)}`
  if (answer.Response?.Result !== 'Success')
    return `${journal.id} is ${journal.state}, TransactionStatus says ${JSON.stringify(answer.Response)}`
  const repeated = answer.RepeatedMessageResponse?.RepeatedResponseMessageBody?.[`${check.category}Response`] as
    { Response?: { Result?: string; ErrorCondition?: string }; POIData?: { POITransactionID?: { TransactionID?: string } } } | undefined
  const named = repeated?.POIData?.POITransactionID?.TransactionID
  if (named !== journal.id) return `the journal holds ${journal.id}, TransactionStatus repeats an answer about ${named ?? 'nothing'}`
  const succeeded = repeated?.Response?.Result === 'Success'
  const shouldSucceed =
    check.category === 'Payment'
      ? POS_SUCCESS.has(journal.state)
      : journal.kind === 'return'
        ? journal.state === 'creditPending' || journal.state === 'credited'
        : journal.state === 'cancelled'
  if (succeeded !== shouldSucceed)
    return `${journal.id} is ${journal.state} (${journal.kind}), the repeated answer says ${JSON.stringify(repeated?.Response)}`
  if (check.category === 'Payment' && journal.state === 'abandoned' && journal.aborted && repeated?.Response?.ErrorCondition !== 'Aborted')
    return `${journal.id} was stopped by an Abort, the repeated answer says ${JSON.stringify(repeated?.Response)}`
  return undefined
}

/** A journal row as the limits are checked on it. */
export interface LimitRow {
  id: string
  state: string
  kind: 'sale' | 'return'
  amount_minor: number
  tip_minor: number
  original_id: string | null
  card_fingerprint: string | null
  business_day: string
}

export interface Limits {
  maxSaleMinor: number
  unreferencedReturnMaxMinor: number
  perCardDayMinor: number
  perDayMinor: number
}

/** EMV's Amount, Authorised carries twelve digits (docs/product-defaults.md §6). */
const EMV_MAX_MINOR = 999_999_999_999

/** Every amount and sum within the limits, whatever was approved; every total a safe integer. */
export function limitViolations(rows: LimitRow[], limits: Limits): string[] {
  const found: string[] = []
  let total = 0
  const crediting = new Set(['creditPending', 'credited'])
  const perCard = new Map<string, number>()
  const perDay = new Map<string, number>()
  for (const row of rows) {
    total += row.amount_minor + row.tip_minor
    if (row.kind === 'sale' && row.amount_minor + row.tip_minor > Math.min(limits.maxSaleMinor, EMV_MAX_MINOR))
      found.push(`sale ${row.id}: amount ${row.amount_minor} plus tip ${row.tip_minor} passes the maximum sale ${limits.maxSaleMinor}`)
    if (row.kind !== 'return' || row.original_id !== null || !crediting.has(row.state)) continue
    if (row.amount_minor > limits.unreferencedReturnMaxMinor)
      found.push(`return ${row.id} without a sale credits ${row.amount_minor}, above the limit`)
    const card = `${row.business_day}|${row.card_fingerprint ?? '?'}`
    perCard.set(card, (perCard.get(card) ?? 0) + row.amount_minor)
    perDay.set(row.business_day, (perDay.get(row.business_day) ?? 0) + row.amount_minor)
  }
  if (!Number.isSafeInteger(total)) found.push(`the journal's amounts add up past Number.MAX_SAFE_INTEGER (${total})`)
  for (const [card, sum] of perCard)
    if (sum > limits.perCardDayMinor)
      found.push(`returns without a sale credit ${sum} to one card on ${card.split('|')[0]}, above ${limits.perCardDayMinor}`)
  for (const [day, sum] of perDay)
    if (sum > limits.perDayMinor) found.push(`returns without a sale credit ${sum} on ${day}, above ${limits.perDayMinor}`)
  return found
}
