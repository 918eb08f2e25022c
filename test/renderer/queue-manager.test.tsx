import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { QueueItemView, QueueStatusView, SaleView } from '../../src-shared/contract'
import { timeOfDay } from '../../src-renderer/src/components/time-text'
import { SALE_WORDS } from '../../src-renderer/src/store'
import { FakeBridge, makeQueue, makeQueueItem, makeSale, ok } from './fake-bridge'
import { renderApp } from './render-app'

const DECLINED_AT = 1_700_000_000_000
const PARKED_AT = DECLINED_AT + 3 * 60_000
const DECLINED_REASON =
  'stored payment declined by the bank when forwarded (insufficient funds): the money was not received; a manager must acknowledge it'

/** A stored offline payment the bank declined when it was sent: its queue item is done. */
const declined: SaleView = makeSale({
  id: 'D1',
  state: 'needsAttention',
  offline: true,
  amountMinor: 2500,
  brand: 'Visa',
  maskedPan: '************4242',
  reason: DECLINED_REASON,
  createdAt: DECLINED_AT,
  updatedAt: DECLINED_AT + 60_000,
})

/** A sale whose stored payment went past its limits: its queue item is parked. */
const stuck: SaleView = makeSale({
  id: 'S7',
  state: 'needsAttention',
  offline: true,
  amountMinor: 4200,
  brand: 'Mastercard',
  maskedPan: '************5454',
  reason: 'the bank did not confirm the payment after 12 tries: the bank could not be reached',
  createdAt: PARKED_AT,
  updatedAt: PARKED_AT + 60_000,
})

const parked: QueueItemView = makeQueueItem({
  seq: 7,
  saleId: 'S7',
  operation: 'payment',
  state: 'attention',
  attempts: 12,
  amountMinor: 4200,
  lastError: 'not sent after 12 attempts',
  createdAt: PARKED_AT,
  expiresInMs: 0,
})

const waitingTip: QueueItemView = makeQueueItem({ seq: 9, saleId: 'W9', operation: 'tips', amountMinor: 300 })

/** An agent that holds both sales; acknowledging or retrying changes what it answers afterwards. */
function agent(): FakeBridge {
  const sales = new Map<string, SaleView>([
    [declined.id, declined],
    [stuck.id, stuck],
  ])
  let items: QueueItemView[] = [parked, waitingTip]
  const status = (): QueueStatusView =>
    makeQueue({
      count: items.filter((i) => i.state !== 'attention').length,
      attentionCount: [...sales.values()].filter((s) => s.state === 'needsAttention').length,
    })
  return new FakeBridge()
    .on('listSales', () => ok([...sales.values()]))
    .on('queueItems', () => ok(items))
    .on('queueStatus', () => ok(status()))
    .on('acknowledgeAttention', (r) => {
      const sale = { ...declined, state: 'notReceived' as const, updatedAt: declined.updatedAt + 1, reason: 'money not received' }
      sales.set(r.id, sale)
      return ok(sale)
    })
    .on('retryAttention', (r) => {
      const sale = { ...stuck, state: 'storedOffline' as const, updatedAt: stuck.updatedAt + 1 }
      sales.set(r.id, sale)
      items = items.map((i) => (i.saleId === r.id ? { ...i, state: 'pending', attempts: 0, lastError: null } : i))
      return ok(sale)
    })
}

async function openQueue(bridge = agent()) {
  return renderApp(bridge, { screen: 'queue' })
}

function row(saleId: string): HTMLElement {
  return within(screen.getByTestId('attention-items')).getByTestId(`attention-${saleId}`)
}

const ACKNOWLEDGE_D1 = `Acknowledge: money not received for USD 25.00 at ${timeOfDay(DECLINED_AT)}`

/** Every text node and accessible label on the page, one per line (so neighbours do not run together). */
function screenWords(): string {
  const words: string[] = []
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) words.push(node.textContent ?? '')
  for (const element of document.body.querySelectorAll('[aria-label], [title]')) {
    words.push(element.getAttribute('aria-label') ?? '', element.getAttribute('title') ?? '')
  }
  return words.join('\n')
}

async function click(element: HTMLElement): Promise<void> {
  await act(async () => {
    fireEvent.click(element)
  })
}

describe('queue screen: sales that need a manager', () => {
  it('lists a declined stored payment with no queue item next to a parked item, each with its action', async () => {
    await openQueue()
    expect(screen.getByTestId('queue-attention-count').textContent).toBe('2')
    const d1 = row('D1')
    expect(d1.textContent).toContain('USD 25.00')
    expect(d1.textContent).toContain('Visa ************4242')
    expect(d1.textContent).toContain(timeOfDay(DECLINED_AT))
    expect(d1.textContent).toContain('Stored payment declined by the bank')
    expect(d1.textContent).toContain(`S${DECLINED_REASON.slice(1)}`)
    expect(within(d1).getByRole('button', { name: ACKNOWLEDGE_D1 }).textContent).toBe('Acknowledge: money not received')
    expect(within(d1).queryByRole('button', { name: /^Retry/ })).toBeNull()

    const s7 = row('S7')
    expect(s7.textContent).toContain('USD 42.00')
    expect(s7.textContent).toContain('Mastercard ************5454')
    expect(s7.textContent).toContain(timeOfDay(PARKED_AT))
    expect(s7.textContent).toContain('The bank did not confirm the payment after 12 tries: the bank could not be reached')
    expect(within(s7).getByRole('button', { name: `Retry USD 42.00 at ${timeOfDay(PARKED_AT)}` }).textContent).toBe('Retry')
    expect(within(s7).queryByRole('button', { name: /Acknowledge/ })).toBeNull()
    // Every sale the status counts is listed.
    expect(screen.queryByTestId('attention-unlisted')).toBeNull()
  })

  it('acknowledges only after the confirmation, then the row leaves with the refresh', async () => {
    const { bridge } = await openQueue()
    await click(within(row('D1')).getByRole('button', { name: ACKNOWLEDGE_D1 }))
    const dialog = screen.getByRole('alertdialog')
    expect(dialog.textContent).toContain('the bank declined it')
    expect(dialog.textContent).toContain('The store will not receive this money.')
    expect(dialog.textContent).toContain('USD 25.00')
    expect(bridge.callsOf('acknowledgeAttention')).toEqual([])

    const salesBefore = bridge.callsOf('listSales').length
    const statusBefore = bridge.callsOf('queueStatus').length
    await click(within(dialog).getByRole('button', { name: 'Acknowledge: money not received' }))
    expect(bridge.callsOf('acknowledgeAttention')).toEqual([{ id: 'D1' }])
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(bridge.callsOf('listSales').length).toBeGreaterThan(salesBefore)
    expect(bridge.callsOf('queueStatus').length).toBeGreaterThan(statusBefore)
    expect(within(screen.getByTestId('attention-items')).queryByTestId('attention-D1')).toBeNull()
    expect(row('S7')).toBeTruthy()
    expect(screen.getByTestId('queue-attention-count').textContent).toBe('1')
    expect(screen.getByTestId('queue-notice').textContent).toContain('was not received')
  })

  it('retries a parked item, then refreshes the list and the status', async () => {
    const { bridge } = await openQueue()
    const salesBefore = bridge.callsOf('listSales').length
    await click(within(row('S7')).getByRole('button', { name: /^Retry/ }))
    expect(bridge.callsOf('retryAttention')).toEqual([{ id: 'S7' }])
    expect(bridge.callsOf('acknowledgeAttention')).toEqual([])
    expect(bridge.callsOf('listSales').length).toBeGreaterThan(salesBefore)
    expect(within(screen.getByTestId('attention-items')).queryByTestId('attention-S7')).toBeNull()
    expect(row('D1')).toBeTruthy()
    expect(screen.getByTestId('queue-attention-count').textContent).toBe('1')
    expect(screen.getByTestId('queue-notice').textContent).toContain('is back in the queue')
  })

  it('calls nothing when the confirmation is cancelled, by its button or by Escape', async () => {
    const { bridge } = await openQueue()
    const before = bridge.calls.length
    await click(within(row('D1')).getByRole('button', { name: ACKNOWLEDGE_D1 }))
    await click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Go back' }))
    expect(screen.queryByRole('alertdialog')).toBeNull()

    await click(within(row('D1')).getByRole('button', { name: ACKNOWLEDGE_D1 }))
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' })
    })
    expect(screen.queryByRole('alertdialog')).toBeNull()

    expect(bridge.calls.slice(before)).toEqual([])
    expect(row('D1')).toBeTruthy()
  })

  it('says when the status counts a sale the list cannot show', async () => {
    const bridge = agent().on('queueStatus', () => ok(makeQueue({ attentionCount: 3 })))
    await openQueue(bridge)
    expect(screen.getByTestId('attention-unlisted').textContent).toBe('1 more sale needs a manager that is not among today’s sales.')
  })

  it('never shows an internal state, event, operation or code name', async () => {
    await openQueue()
    await click(within(row('D1')).getByRole('button', { name: ACKNOWLEDGE_D1 }))
    expect(screen.getByRole('alertdialog')).toBeTruthy()
    const text = screenWords()
    // The waiting tip is named in words, not by its queue operation.
    expect(within(screen.getByTestId('waiting-items')).getByText('Tip')).toBeTruthy()
    expect(text).not.toMatch(/\btips\b/)
    for (const name of [
      'needsAttention',
      'notReceived',
      'acknowledgeAttention',
      'retryAttention',
      'attentionAcknowledged',
      'storedOffline',
    ]) {
      expect(text).not.toContain(name)
    }
    // No camelCase identifier at all.
    expect(text).not.toMatch(/\b[a-z]+[A-Z][A-Za-z]*\b/)
  })

  it('does not promise a retry for every sale that needs a manager', () => {
    const words = SALE_WORDS.needsAttention
    expect(words.detail).not.toMatch(/retry/i)
    expect(words.detail).toContain('Queue screen')
    expect(SALE_WORDS.notReceived.detail).toContain('did not receive the money')
  })
})
