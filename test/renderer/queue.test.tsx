import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { QueueItemView } from '../../src-shared/contract'
import { internalWordsIn } from '../support/internal-words'
import { FakeBridge, makeQueue, makeSale, ok } from './fake-bridge'
import { makeClock, renderApp } from './render-app'

const attention: QueueItemView = {
  seq: 7,
  saleId: 'S7',
  operation: 'payment',
  state: 'attention',
  attempts: 12,
  amountMinor: 4200,
  currency: 'USD',
  createdAt: 1,
  nextAttemptAt: 2,
  lastFailure: 'refused',
  lastError: 'E12: host refused',
  expiresInMs: 0,
}
const waiting: QueueItemView = {
  ...attention,
  seq: 8,
  saleId: 'S8',
  state: 'pending',
  attempts: 1,
  lastFailure: 'bankUnreachable',
  lastError: 'notDelivered: HTTP 503 from a proxy, not signed by the host',
  expiresInMs: 3_600_000,
}

describe('queue panel', () => {
  it('shows count, stored amounts, oldest age with time left, the bank, and counts down', async () => {
    const clock = makeClock(10_000_000)
    const bridge = new FakeBridge()
      .on('queueStatus', () =>
        ok(
          makeQueue({
            count: 2,
            storedCount: 2,
            storedAmountMinor: { USD: 4200, JPY: 500 },
            oldestStoredAt: 10_000_000 - 5 * 60_000,
            oldestExpiresInMs: 2 * 3_600_000,
            hostReachable: false,
            attentionCount: 1,
          }),
        ),
      )
      .on('queueItems', () => ok([attention, waiting]))
    const { emit } = await renderApp(bridge, { screen: 'queue', clock })
    expect(screen.getByTestId('queue-count').textContent).toBe('2')
    expect(screen.getByTestId('queue-stored-amount').textContent).toBe('JPY 500, USD 42.00')
    expect(screen.getByTestId('queue-oldest').textContent).toContain('5 min old')
    expect(screen.getByTestId('queue-expires-in').textContent).toBe('Must reach the bank within 2 h 00 min')
    expect(screen.getByTestId('queue-host').textContent).toBe('Bank not reachable')
    // The countdown follows the clock without a new status.
    clock.now += 61 * 60_000
    emit({ type: 'device', prompt: { type: 'processing' } }) // any render
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1100))
    })
    expect(screen.getByTestId('queue-expires-in').textContent).toBe('Must reach the bank within 59 min')
    emit({ type: 'queue', queue: makeQueue({ count: 0, hostReachable: true }) })
    expect(screen.getByTestId('queue-host').textContent).toBe('Bank reachable')
    expect(screen.getByTestId('queue-oldest').textContent).toBe('None')
  })

  it('says how many items are locked in plain words, one or many', async () => {
    for (const [lockedCount, words] of [
      [1, 'One item was sealed'],
      [3, '3 items were sealed'],
    ] as const) {
      const bridge = new FakeBridge().on('queueStatus', () => ok(makeQueue({ count: lockedCount, lockedCount })))
      const { view } = await renderApp(bridge, { screen: 'queue' })
      const alert = within(view.container).getByRole('alert')
      expect(alert.textContent).toContain(words)
      expect(internalWordsIn(alert.textContent ?? '')).toEqual([])
      view.unmount()
    }
  })

  it('lists needs-attention items with a retry per sale, and forwards now', async () => {
    const bridge = new FakeBridge()
      .on('queueStatus', () => ok(makeQueue({ count: 2, attentionCount: 1 })))
      .on('queueItems', () => ok([attention, waiting]))
      .on('retryAttention', (r) => ok(makeSale({ id: r.id, state: 'storedOffline' })))
      .on('forwardNow', () => ok(makeQueue({ count: 1 })))
    await renderApp(bridge, { screen: 'queue' })
    const items = screen.getByTestId('attention-items')
    expect(within(items).getByTestId('attention-S7').textContent).toContain('The bank refused')
    expect(within(items).getByTestId('attention-S7').textContent).not.toContain('E12')
    expect(within(items).queryByTestId('attention-S8')).toBeNull()
    // Each waiting message says why in the words of its failure's kind, never the log's text.
    const rows = screen.getByTestId('waiting-items')
    expect(rows.textContent).toContain('The bank could not be reached.')
    expect(rows.textContent).not.toMatch(/notDelivered|HTTP|host|E12/)
    await act(async () => {
      fireEvent.click(within(screen.getByTestId('attention-S7')).getByRole('button', { name: /^Retry USD 42\.00 at / }))
    })
    expect(bridge.callsOf('retryAttention')).toEqual([{ id: 'S7' }])
    expect(screen.getByTestId('queue-notice').textContent).toContain('USD 42.00 at')
    expect(screen.getByTestId('queue-notice').textContent).toContain('is back in the queue')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Forward now' }))
    })
    expect(bridge.callsOf('forwardNow')).toHaveLength(1)
    expect(screen.getByTestId('queue-count').textContent).toBe('1')
  })
})
