/**
 * The sales a manager must look at: a message parked in the queue is sent again ("Retry"); a stored
 * payment the bank declined when it was sent is acknowledged as money not received, after a
 * confirmation that says so plainly.
 */
import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { moneyText } from '../../components/money-text'
import { timeOfDay } from '../../components/time-text'
import { managerCases, unlistedAttentionCount, usePos, usePosStore, type ManagerCase } from '../../store'

function amountText(c: ManagerCase): string {
  return c.currency ? moneyText(c.amountMinor, c.currency) : 'No amount'
}

/** The sale in words, for buttons and notices: "USD 42.00 at 10:15". */
function caseLabel(c: ManagerCase): string {
  return `${amountText(c)} at ${timeOfDay(c.at)}`
}

export function NeedsManager() {
  const store = usePosStore()
  const state = usePos(
    useShallow((s) => ({
      queue: s.queue,
      queueItems: s.queueItems,
      queueItemsLoaded: s.queueItemsLoaded,
      sales: s.sales,
      retrying: s.retrying,
      acknowledging: s.acknowledging,
    })),
  )
  const [confirming, setConfirming] = useState<ManagerCase | null>(null)
  const cases = managerCases(state)
  const unlisted = unlistedAttentionCount(state, cases.length)

  return (
    <>
      <h3 id="needs-manager-title">Needs a manager</h3>
      {cases.length === 0 ? (
        <p className="empty">Nothing needs a manager.</p>
      ) : (
        <ul className="item-list" aria-labelledby="needs-manager-title" data-testid="attention-items">
          {cases.map((c) => {
            const label = caseLabel(c)
            return (
              <li key={c.saleId} className="item" data-testid={`attention-${c.saleId}`}>
                <div className="item-text">
                  <strong>{amountText(c)}</strong> · {c.card ?? 'No card'} · {timeOfDay(c.at)} · {c.what}
                  {c.reason && <span className="row-reason">{c.reason}</span>}
                  {c.action === 'none' && <span className="row-reason">This cannot be fixed from this screen: call support.</span>}
                </div>
                {c.action === 'retry' && (
                  <button
                    type="button"
                    className="button button-large"
                    aria-label={`Retry ${label}`}
                    data-testid={`retry-${c.saleId}`}
                    disabled={state.retrying[c.saleId] === true}
                    onClick={() => void store.getState().retryAttention(c.saleId, `the sale of ${label}`)}
                  >
                    Retry
                  </button>
                )}
                {c.action === 'acknowledge' && (
                  <button
                    type="button"
                    className="button button-large button-danger"
                    aria-label={`Acknowledge: money not received for ${label}`}
                    data-testid={`acknowledge-${c.saleId}`}
                    disabled={state.acknowledging[c.saleId] === true}
                    onClick={() => setConfirming(c)}
                  >
                    Acknowledge: money not received
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {unlisted > 0 && (
        <p className="empty" data-testid="attention-unlisted">
          {unlisted === 1
            ? '1 more sale needs a manager that is not among today’s sales.'
            : `${unlisted} more sales need a manager that are not among today’s sales.`}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Money not received: ${caseLabel(confirming)}`}
          confirmLabel="Acknowledge: money not received"
          cancelLabel="Go back"
          testId="acknowledge-confirm-dialog"
          onConfirm={() => {
            const c = confirming
            setConfirming(null)
            void store.getState().acknowledgeAttention(c.saleId, `the sale of ${caseLabel(c)}`)
          }}
          onCancel={() => setConfirming(null)}
        >
          <p>
            This payment was approved offline at the counter, but the bank declined it when the terminal sent it later.{' '}
            <strong>The store will not receive this money.</strong>
          </p>
          <p>
            {amountText(confirming)} · {confirming.card ?? 'No card'} · {timeOfDay(confirming.at)}
          </p>
          {confirming.reason && <p>{confirming.reason}</p>}
          <p>Acknowledging records that the money was not received. It cannot be undone.</p>
        </ConfirmDialog>
      )}
    </>
  )
}
