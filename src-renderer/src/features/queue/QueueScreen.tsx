/**
 * The store-and-forward queue: what waits, how much money is stored, how long before the oldest
 * stored payment expires, whether the bank answers, forward now, and the sales a manager must look at.
 */
import { useEffect } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { Badge } from '../../components/Badge'
import { moneyText } from '../../components/money-text'
import { NoticeLine } from '../../components/Notice'
import { durationText, timeOfDay } from '../../components/time-text'
import {
  currentQueueNotice,
  expirySoon,
  hostReach,
  itemTimeLeftMs,
  queueErrorWords,
  queueExpiry,
  queueItemWords,
  storedAmounts,
  useNow,
  usePos,
  usePosStore,
  waitingItems,
} from '../../store'
import { NeedsManager } from './NeedsManager'

const HOST_WORDS = { reachable: 'Bank reachable', unreachable: 'Bank not reachable', unknown: 'Bank not tried yet' } as const

export function QueueScreen() {
  const store = usePosStore()
  const now = useNow(1000)
  const state = usePos(
    useShallow((s) => ({
      queue: s.queue,
      queueAt: s.queueAt,
      queueItems: s.queueItems,
      queueItemsAt: s.queueItemsAt,
      forwarding: s.forwarding,
      notice: currentQueueNotice(s),
    })),
  )
  const { queue } = state
  const expiry = queueExpiry(state, now)
  const amounts = storedAmounts(state)
  const reach = hostReach(state)
  const waiting = waitingItems(state)

  useEffect(() => {
    const s = store.getState()
    void s.refreshQueue()
    void s.refreshQueueItems()
    void s.refreshSales()
    // A notice tells of what was done here: it does not wait for the cashier's next visit.
    return () => store.getState().dismissQueueNotice()
  }, [store])

  return (
    <section className="screen" aria-labelledby="queue-title">
      <div className="screen-head">
        <h2 id="queue-title">Queue</h2>
        <button
          type="button"
          className="button button-large button-primary"
          data-testid="forward-now-button"
          disabled={state.forwarding}
          onClick={() => void store.getState().forwardNow()}
        >
          {state.forwarding ? 'Forwarding…' : 'Forward now'}
        </button>
      </div>
      <NoticeLine notice={state.notice} testId="queue-notice" />
      {!queue ? (
        <p className="empty" role="status">
          Loading the queue…
        </p>
      ) : (
        <dl className="facts facts-wide" data-testid="queue-summary">
          <div>
            <dt>Waiting to be sent</dt>
            <dd data-testid="queue-count">{queue.count}</dd>
          </div>
          <div>
            <dt>Stored offline payments</dt>
            <dd data-testid="queue-stored-count">{queue.storedCount}</dd>
          </div>
          <div>
            <dt>Stored amount</dt>
            <dd data-testid="queue-stored-amount">
              {amounts.length === 0 ? 'None' : amounts.map((a) => moneyText(a.minor, a.currency)).join(', ')}
            </dd>
          </div>
          <div>
            <dt>Oldest stored payment</dt>
            <dd data-testid="queue-oldest">
              {expiry.oldestAgeMs === null ? 'None' : `${durationText(expiry.oldestAgeMs)} old`}
              {expiry.timeLeftMs !== null && (
                <>
                  {' · '}
                  {expiry.expired ? (
                    <Badge tone="error">Expired: a manager must look at it</Badge>
                  ) : (
                    <Badge
                      tone={expirySoon(expiry) ? 'warn' : 'info'}
                      testId="queue-expires-in"
                    >{`Must reach the bank within ${durationText(expiry.timeLeftMs)}`}</Badge>
                  )}
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Bank</dt>
            <dd data-testid="queue-host">
              <Badge tone={reach === 'reachable' ? 'ok' : reach === 'unreachable' ? 'error' : 'info'}>{HOST_WORDS[reach]}</Badge>
            </dd>
          </div>
          {queue.lastAttemptAt !== undefined && (
            <div>
              <dt>Last attempt</dt>
              <dd>{timeOfDay(queue.lastAttemptAt)}</dd>
            </div>
          )}
          <div>
            <dt>Needs a manager</dt>
            <dd data-testid="queue-attention-count">{queue.attentionCount}</dd>
          </div>
          {queue.lockedCount > 0 && (
            <div className="fact-alert">
              <dt>Locked</dt>
              <dd role="alert">
                {queue.lockedCount === 1 ? 'One item was' : `${queue.lockedCount} items were`} sealed with a data key this terminal no
                longer has. They are kept; call support.
              </dd>
            </div>
          )}
        </dl>
      )}
      <NeedsManager />
      <h3>Waiting</h3>
      {waiting.length === 0 ? (
        <p className="empty">Nothing waiting.</p>
      ) : (
        <table className="table" data-testid="waiting-items">
          <thead>
            <tr>
              <th scope="col">Sale</th>
              <th scope="col">What</th>
              <th scope="col">Amount</th>
              <th scope="col">Attempts</th>
              <th scope="col">Time left</th>
              <th scope="col">Last try</th>
            </tr>
          </thead>
          <tbody>
            {waiting.map((item) => (
              <tr key={item.seq}>
                <td>{item.saleId}</td>
                <td>{queueItemWords(item)}</td>
                <td>{item.currency ? moneyText(item.amountMinor, item.currency) : '—'}</td>
                <td>{item.attempts}</td>
                <td>{durationText(itemTimeLeftMs(state, item, now))}</td>
                <td>{queueErrorWords(item) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
