/**
 * The transaction state machine: a pure function from (sale, event) to (sale, effects). No I/O:
 * write-ahead.ts journals the new state together with the queue effects in one SQLite transaction,
 * and only then does sale-flow.ts run the device and host effects. docs/transactions.md is this file
 * drawn as a table; test/main/txn/txn-machine.test.ts walks every state/event pair.
 *
 * A sale's `reason` is read by the cashier and the manager: it is written here in their words (the
 * bank, never "host"; no result code, state or message name). A gateway code or the technical cause
 * stays in the journal's event and the log (test/main/txn/plain-reasons.test.ts holds every reason to this).
 */
import { displayAmount } from '../../src-shared/money'
import { COUNTER_BUSY, FINAL, QUEUE_OPERATION_NOUNS, SALE_REASONS, STANDING_PAYMENT, type SaleCause } from '../../src-shared/sale'
import type { ForwardAnswer, PaymentAnswer, QueuedOperation, Sale, TransitionResult, TxnEffect, TxnEvent, TxnState } from './txn-types'

const ok = (sale: Sale, state: TxnState, effects: TxnEffect[] = [], patch: Partial<Sale> = {}): TransitionResult => ({
  ok: true,
  sale: { ...sale, ...patch, state },
  effects,
})
const refuse = (sale: Sale, event: TxnEvent): TransitionResult => ({
  ok: false,
  reason: `${event.type} is not possible while the sale is ${sale.state}`,
})

export function transition(sale: Sale, event: TxnEvent): TransitionResult {
  switch (event.type) {
    case 'readCard':
      return sale.state === 'created' ? ok(sale, 'readingCard', [{ type: 'readCard', purpose: 'purchase' }]) : refuse(sale, event)

    case 'returnRequested':
      return sale.state === 'created' ? ok(sale, 'returnReadingCard', [{ type: 'readCard', purpose: 'return' }]) : refuse(sale, event)

    case 'cardRead':
      if (sale.state !== 'readingCard') return refuse(sale, event)
      // Duplicate guard: same card, same amount, within the window: the cashier decides first.
      if (event.duplicate)
        return ok(sale, 'awaitingConfirmation', [], {
          chip: event.chip,
          reason: 'same card and amount as a recent sale: confirm to charge again',
        })
      return ok(sale, 'sending', [{ type: 'sendPayment' }], { chip: event.chip })

    case 'cardNotRead':
      return sale.state === 'readingCard'
        ? ok(sale, 'abandoned', [{ type: 'purgeCardData' }], { reason: event.reason })
        : refuse(sale, event)

    case 'duplicateConfirmed':
      return sale.state === 'awaitingConfirmation'
        ? ok(sale, 'sending', [{ type: 'sendPayment' }], { reason: undefined })
        : refuse(sale, event)

    case 'duplicateRefused':
      return sale.state === 'awaitingConfirmation'
        ? ok(sale, 'abandoned', [{ type: 'cancelCardRead' }, { type: 'purgeCardData' }], {
            reason: 'not charged: the cashier stopped a possible duplicate',
          })
        : refuse(sale, event)

    case 'paymentAnswered':
      return sale.state === 'sending' ? onPaymentAnswer(sale, event.answer) : refuse(sale, event)

    case 'cardCompleted':
      return sale.state === 'completingCard' ? onCardCompleted(sale, event.decision) : refuse(sale, event)

    case 'storeCopyMissing':
      return onStoreCopyMissing(sale, event)

    case 'forwardAnswered':
      return onForwardAnswer(sale, event.operation, event.answer, event)

    case 'forwardGaveUp':
      if (sale.state === 'needsAttention' || NO_QUEUE_TO_GIVE_UP_ON.has(sale.state)) return refuse(sale, event)
      return ok(sale, 'needsAttention', [], { attentionFrom: sale.state, reason: event.reason })

    case 'managerRetry':
      if (sale.state !== 'needsAttention' || sale.attentionFrom === undefined) return refuse(sale, event)
      return ok(sale, sale.attentionFrom, [{ type: 'retryQueued' }], { attentionFrom: undefined, reason: undefined })

    case 'attentionAcknowledged':
      if (sale.state !== 'needsAttention') return refuse(sale, event)
      // Only a declined stored payment is acknowledged; anything else still has a message to send.
      if (sale.attentionFrom !== undefined) {
        return { ok: false, reason: 'this sale still has a message for the bank: retry it instead', plain: true }
      }
      return ok(sale, 'notReceived', [], {
        reason: 'declined by the bank after it was stored: the money was not received (acknowledged by a manager)',
      })

    case 'closeOverridden':
      return sale.state === 'needsAttention' ? ok(sale, 'needsAttention') : refuse(sale, event)

    case 'voidRequested':
      return onVoidRequested(sale, event)

    case 'voidCardRead':
      return sale.state === 'voidReadingCard' ? ok(sale, 'cancelPending', [{ type: 'enqueue', operation: 'cancel' }]) : refuse(sale, event)

    case 'voidCardNotRead':
      return sale.state === 'voidReadingCard'
        ? ok(sale, sale.offline ? 'forwarded' : 'approved', [{ type: 'purgeCardData' }], { reason: `not voided: ${event.reason}` })
        : refuse(sale, event)

    case 'returnCardRead':
      return sale.state === 'returnReadingCard' ? onReturnCardRead(sale) : refuse(sale, event)

    case 'returnCardNotRead':
      return sale.state === 'returnReadingCard'
        ? ok(sale, 'abandoned', [{ type: 'purgeCardData' }], { reason: `not returned: ${event.reason}` })
        : refuse(sale, event)

    case 'tipRequested':
      if (!STANDING_PAYMENT.has(sale.state) && sale.state !== 'capturePending') return refuse(sale, event)
      if (sale.state === 'capturePending')
        return { ok: false, reason: 'the payment is already being captured: the tip can no longer change', plain: true }
      if (!Number.isSafeInteger(event.tipMinor) || event.tipMinor < 0)
        return { ok: false, reason: 'a tip must be a whole, non-negative amount', plain: true }
      // No approval lifts this: the sum must fit the terminal's maximum and EMV's 12-digit amount.
      if (event.tipMinor > event.maxTotalMinor - sale.amountMinor)
        return {
          ok: false,
          reason: `amount and tip together may not exceed ${displayAmount(event.maxTotalMinor, sale.currency)}`,
          plain: true,
        }
      // The returns credited the customer out of amount plus tip, and one at the counter is about to:
      // a lower tip would leave the bank holding less than was given back.
      if (sale.amountMinor + event.tipMinor < heldForReturns(sale))
        return {
          ok: false,
          reason: `returns credit or are about to credit ${displayAmount(heldForReturns(sale), sale.currency)} of this sale: the tip cannot bring the sale below it`,
          plain: true,
        }
      // A later tip replaces an earlier one (docs/gateway.md §D3 "Tips"); it queues behind the payment's own forwarding.
      return ok(sale, sale.state, [{ type: 'enqueue', operation: 'tips' }], { tipMinor: event.tipMinor, tipState: 'pending' })

    case 'captureRequested':
      if (sale.autoCapture) return { ok: false, reason: 'this payment was captured automatically', plain: true }
      // A stored payment's capture is queued behind the payment itself: the queue sends a sale's items
      // strictly in order, so the capture follows the forward, whenever the bank is back.
      return STANDING_PAYMENT.has(sale.state)
        ? ok(sale, 'capturePending', [{ type: 'enqueue', operation: 'capture' }])
        : refuse(sale, event)

    case 'recovered':
      return onRecovered(sale)
  }
}

/** What the sale's returns credited, are crediting, or ask for at the counter right now. */
function heldForReturns(sale: Sale): number {
  return (sale.returnedMinor ?? 0) + (sale.returningMinor ?? 0)
}

/**
 * The commit that queues a credit checks again what is left to return, read in that same commit:
 * a tip lowered, another return or a void since the return started all count. A return that no
 * longer fits ends here, its card data purged, nothing sent. The credit is journaled with its body
 * (sealed, with the card) before anything is sent; the queue sends it, with the same merchantTransID,
 * until the bank answers. A credit is never reversed: an answer that does not come is asked for again.
 */
function onReturnCardRead(sale: Sale): TransitionResult {
  const room = sale.credit
  if (room === undefined || sale.amountMinor > room.leftMinor) {
    const left = displayAmount(Math.max(0, room?.leftMinor ?? 0), sale.currency)
    return ok(sale, 'abandoned', [{ type: 'purgeCardData' }], {
      reason: `not returned: only ${left} is left to return ${room?.limit ?? 'here'}`,
    })
  }
  return ok(sale, 'creditPending', [{ type: 'enqueue', operation: 'merchandiseCredit' }], { reason: undefined })
}

/** A queued message cannot give up on a sale still at the counter, or one that has ended. */
const NO_QUEUE_TO_GIVE_UP_ON: ReadonlySet<TxnState> = new Set([...COUNTER_BUSY, ...FINAL])

function onPaymentAnswer(sale: Sale, answer: PaymentAnswer): TransitionResult {
  switch (answer.kind) {
    case 'approved':
      if (sale.chip) return ok(sale, 'completingCard', [{ type: 'completeCard', result: 'approved' }], { authCode: answer.authCode })
      return ok(sale, 'approved', [{ type: 'purgeCardData' }], { authCode: answer.authCode })
    case 'declined':
      return ok(
        sale,
        'declined',
        [...(sale.chip ? [{ type: 'completeCard', result: 'declined' } as const] : []), { type: 'purgeCardData' }],
        { reason: answer.reason, cause: 'bankDeclined' },
      )
    case 'rejected':
      // Nothing was recorded at the host (docs/gateway.md §D1), so nothing is charged; but a
      // rejection of a body the agent built is a defect a manager must see.
      return ok(
        sale,
        'declined',
        [...(sale.chip ? [{ type: 'completeCard', result: 'declined' } as const] : []), { type: 'purgeCardData' }],
        {
          reason: 'not charged: the bank refused the message the terminal sent; call support if it happens again',
          cause: 'bankRefusedMessage',
        },
      )
    case 'notDelivered':
      if (!answer.offline.eligible) {
        return ok(
          sale,
          'declined',
          [...(sale.chip ? [{ type: 'completeCard', result: 'declined' } as const] : []), { type: 'purgeCardData' }],
          {
            reason: `the bank could not be reached and this sale cannot be stored: ${answer.offline.reason}`,
            offline: true,
            cause: 'bankUnreachable',
          },
        )
      }
      // A chip card gets the last word on an offline approval (Z3 → TC or AAC).
      if (sale.chip) return ok(sale, 'completingCard', [{ type: 'completeCard', result: 'unableToGoOnline' }], { offline: true })
      return ok(sale, 'storedOffline', [{ type: 'enqueue', operation: 'payment' }], { offline: true })
    case 'unknown':
      // It may have reached the host: reverse at once. A late answer never turns into an approval.
      // The technical cause stays in the journal's event; the cashier reads why in plain words.
      return toReversal(sale, 'timeout', SALE_REASONS.noAnswer, 'noAnswer', sale.chip ? [{ type: 'completeCard', result: 'declined' }] : [])
  }
}

function onCardCompleted(sale: Sale, decision: 'approved' | 'declined' | 'none'): TransitionResult {
  const cardApproved = decision !== 'declined'
  if (sale.offline) {
    if (cardApproved) return ok(sale, 'storedOffline', [{ type: 'enqueue', operation: 'payment' }])
    return ok(sale, 'declined', [{ type: 'purgeCardData' }], { reason: SALE_REASONS.cardRefusedOffline, cause: 'cardRefused' })
  }
  if (cardApproved) return ok(sale, 'approved', [{ type: 'purgeCardData' }])
  // The host approved but the card refused (AAC): the host must forget the approval.
  return toReversal(sale, 'card declined after host approval', SALE_REASONS.cardRefusedAfterApproval, 'cardRefused')
}

/**
 * The store did not acknowledge the copy an offline approval waits for (`store.requireReplica`): the
 * payment was never stored nor sent, so nothing is charged. A chip card that approved offline has
 * already been told (its completion is the step that asked for the copy); a swiped card is declined here.
 */
function onStoreCopyMissing(sale: Sale, event: TxnEvent): TransitionResult {
  const offlineApproval = (sale.state === 'sending' && !sale.chip) || (sale.state === 'completingCard' && sale.offline === true)
  if (!offlineApproval) return refuse(sale, event)
  return ok(sale, 'declined', [{ type: 'purgeCardData' }], { reason: SALE_REASONS.noStoreCopy, offline: true, cause: 'bankUnreachable' })
}

/**
 * Every way into a reversal: the reversal is queued and the card data purged in the same commit.
 * The reversal's body is built from the card before the purge, and nothing after it needs the card
 * (PCI DSS v4.0.1 Requirement 3.3.1: no sensitive data kept once authorisation is over).
 */
function toReversal(sale: Sale, hostReason: string, cashierReason: string, cause: SaleCause, before: TxnEffect[] = []): TransitionResult {
  return ok(
    sale,
    'reversalPending',
    [...before, { type: 'enqueue', operation: 'reversal', reason: hostReason }, { type: 'purgeCardData' }],
    { reason: cashierReason, cause },
  )
}

function onForwardAnswer(sale: Sale, operation: QueuedOperation, answer: ForwardAnswer, event: TxnEvent): TransitionResult {
  // A void of a stored payment that may have reached the host goes out as a reversal from cancelPending.
  const expected: Readonly<Record<QueuedOperation, readonly TxnState[]>> = {
    payment: ['storedOffline', 'capturePending'],
    reversal: ['reversalPending', 'cancelPending'],
    cancel: ['cancelPending'],
    capture: ['capturePending'],
    merchandiseCredit: ['creditPending'],
    tips: [sale.state],
  }
  // Tips answer in whatever state the payment is; the other operations belong to their pending state.
  if (!expected[operation].includes(sale.state)) return refuse(sale, event)
  if (answer.kind === 'rejected') {
    return ok(sale, 'needsAttention', [], {
      attentionFrom: sale.state,
      reason: `the bank refused the ${QUEUE_OPERATION_NOUNS[operation]} the terminal sent; call support if a retry is refused too`,
    })
  }
  const approved = answer.kind === 'approved'
  const declineReason = answer.kind === 'declined' ? answer.reason : ''
  switch (operation) {
    case 'payment':
      // Approved: forwarded, or still waiting for its capture queued behind it (restaurant close).
      if (approved)
        return ok(sale, sale.state === 'capturePending' ? 'capturePending' : 'forwarded', [{ type: 'purgeCardData' }], {
          authCode: answer.authCode,
          reason: undefined,
        })
      // A stored payment declined at forwarding is the merchant's loss to chase: keep it in sight. What
      // was queued behind it (a tip, a capture) would only be refused: withdrawn.
      return ok(sale, 'needsAttention', [{ type: 'withdraw', operation: 'payment' }, { type: 'purgeCardData' }], {
        ...tipOfWithdrawn(sale),
        attentionFrom: undefined,
        reason: `stored payment declined by the bank when forwarded (${declineReason}): the money was not received; a manager must acknowledge it`,
      })
    case 'reversal':
      // Refused: parked for a manager, whose retry sends the same reversal again (it is idempotent).
      if (!approved)
        return ok(sale, 'needsAttention', [{ type: 'purgeCardData' }, { type: 'keepForManager' }], {
          attentionFrom: sale.state,
          reason: `the bank refused the reversal: ${declineReason}`,
        })
      return sale.state === 'cancelPending'
        ? ok(sale, 'cancelled', [{ type: 'purgeCardData' }], { reason: 'the bank confirmed the reversal' })
        : ok(sale, 'reversed', [{ type: 'purgeCardData' }])
    case 'cancel':
      return approved
        ? ok(sale, 'cancelled', [{ type: 'purgeCardData' }], { reason: undefined })
        : ok(sale, sale.offline ? 'forwarded' : 'approved', [{ type: 'purgeCardData' }], {
            reason: `the bank refused the void: ${declineReason}`,
          })
    case 'capture':
      return approved
        ? ok(sale, 'captured')
        : ok(sale, 'needsAttention', [{ type: 'keepForManager' }], {
            attentionFrom: 'capturePending',
            reason: `the bank refused the settlement with tip: ${declineReason}`,
          })
    case 'merchandiseCredit':
      // Answered either way: the card data is no longer needed (PCI DSS v4.0.1 Requirement 3.3.1).
      return approved
        ? ok(sale, 'credited', [{ type: 'purgeCardData' }], { authCode: answer.authCode, reason: undefined })
        : ok(sale, 'declined', [{ type: 'purgeCardData' }], { reason: `the bank refused the return: ${declineReason}` })
    case 'tips':
      return approved
        ? ok(sale, sale.state, [], { tipState: 'adjusted' })
        : ok(sale, sale.state, [], { tipState: 'failed', reason: `the bank refused the tip: ${declineReason}` })
  }
}

/** A withdrawal takes every waiting item of the sale, a tip included: a tip still waiting will never be sent. */
function tipOfWithdrawn(sale: Sale): Partial<Sale> {
  return sale.tipState === 'pending' ? { tipState: 'failed' } : {}
}

function onVoidRequested(sale: Sale, event: Extract<TxnEvent, { type: 'voidRequested' }>): TransitionResult {
  // A void would give back the whole payment on top of what the returns credited: what is left is
  // returned instead.
  if (heldForReturns(sale) > 0)
    return {
      ok: false,
      reason: `a return credits or is about to credit ${displayAmount(heldForReturns(sale), sale.currency)} of this sale: return what is left instead of voiding it`,
      plain: true,
    }
  if (sale.state === 'storedOffline') {
    // Withdrawn locally only when it provably never left the terminal, and no copy of it is left at
    // the store for a rescue to send (the store acknowledged the withdrawal, or there is no store).
    if (event.paymentQueue === 'neverSent' && event.storeCopy !== 'mayRemain') {
      return ok(sale, 'cancelled', [{ type: 'withdraw', operation: 'payment' }, { type: 'purgeCardData' }], {
        ...tipOfWithdrawn(sale),
        reason: 'the stored payment had not been sent to the bank yet',
      })
    }
    if (event.paymentQueue === 'inflight') {
      return { ok: false, reason: 'the stored payment is being forwarded right now: try the void again in a moment', plain: true }
    }
    // It may already be at the host (an answer lost, a send cut by a restart), or a rescue may still
    // send the store's copy of it (the store did not answer the withdrawal): stop resending it and
    // reverse it. A reversal is safe when the host never saw the payment (docs/gateway.md §D3), it
    // goes out even from a fenced terminal (docs/store.md), and the sale reads cancelled only once the
    // host acknowledged it.
    return ok(
      sale,
      'cancelPending',
      [
        { type: 'withdraw', operation: 'payment' },
        { type: 'enqueue', operation: 'reversal', reason: 'voided at the counter' },
        { type: 'purgeCardData' },
      ],
      { ...tipOfWithdrawn(sale), reason: 'void sent: waiting for the bank to confirm' },
    )
  }
  if (sale.state === 'approved' || sale.state === 'forwarded') return ok(sale, 'voidReadingCard', [{ type: 'readCard', purpose: 'void' }])
  return refuse(sale, event)
}

/** At start: whatever was in flight when the agent stopped is settled the safe way. */
function onRecovered(sale: Sale): TransitionResult {
  switch (sale.state) {
    case 'created':
    case 'readingCard':
    case 'awaitingConfirmation':
      return ok(sale, 'abandoned', [{ type: 'cancelCardRead' }, { type: 'purgeCardData' }], {
        reason: 'interrupted before anything was sent',
      })
    case 'sending':
      return toReversal(sale, 'agent restarted while the payment was in flight', SALE_REASONS.stoppedWhileSending, 'interrupted')
    case 'completingCard':
      if (sale.offline)
        return ok(sale, 'declined', [{ type: 'cancelCardRead' }, { type: 'purgeCardData' }], {
          reason: 'interrupted before the card approved offline',
          cause: 'interrupted',
        })
      return toReversal(sale, 'card completion interrupted', SALE_REASONS.stoppedBeforeCard, 'interrupted', [{ type: 'cancelCardRead' }])
    case 'voidReadingCard':
      return ok(sale, sale.offline ? 'forwarded' : 'approved', [{ type: 'cancelCardRead' }, { type: 'purgeCardData' }], {
        reason: 'void interrupted: the payment stands',
      })
    case 'returnReadingCard':
      // Nothing was queued before the card was read: nothing was credited.
      return ok(sale, 'abandoned', [{ type: 'cancelCardRead' }, { type: 'purgeCardData' }], {
        reason: 'not returned: interrupted before anything was sent',
      })
    default:
      return { ok: false, reason: `nothing to recover in ${sale.state}` }
  }
}
