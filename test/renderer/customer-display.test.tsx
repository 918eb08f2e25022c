/**
 * The customer-facing display: chosen by the address, it follows the sale at the counter from amount
 * to thank-you, then welcomes the next customer, and shows nothing a customer should not see.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { CustomerApp, isCustomerView } from '../../src-renderer/src/features/customer/CustomerApp'
import { spokenLine } from '../../src-renderer/src/features/customer/CustomerDisplay'
import { AMOUNT_CHECK_MS, connectStore, createPosStore, CUSTOMER_RESULT_MS, customerView } from '../../src-renderer/src/store'
import { displayBridge } from '../../src-renderer/src/bridge'
import { FakeBridge, makeAppInfo, makeSale, ok } from './fake-bridge'
import { makeClock } from './render-app'

afterEach(() => cleanup())

describe('the address chooses the customer display', () => {
  it.each([
    ['/customer', '', true],
    ['/customer/', '', true],
    ['/index.html', '?view=customer', true],
    ['/', '', false],
    ['/index.html', '?view=cashier', false],
    ['/customers-list', '', false],
  ])('%s%s → %s', (pathname, search, customer) => {
    expect(isCustomerView({ pathname, search })).toBe(customer)
  })
})

describe('what the customer sees', () => {
  const now = 1_700_000_100_000
  const base = { prompt: null, promptSaleId: null, amountCheck: null, appInfo: makeAppInfo({ storeName: 'Corner Cafe' }) }
  const sale = makeSale({ id: 'S1', amountMinor: 123456, tipMinor: 0, maskedPan: '476173******0010', authCode: 'A1', updatedAt: now })

  it('a welcome when nothing happens', () => {
    expect(customerView({ ...base, sales: {} }, now, null)).toMatchObject({ kind: 'welcome', title: 'Welcome', detail: 'Corner Cafe' })
  })

  it('a large amount the cashier checks with the customer: shown to check, until the sale starts or it is old', () => {
    const checking = { ...base, sales: {}, amountCheck: { amountMinor: 150000, currency: 'USD', at: now } }
    expect(customerView(checking, now + 1000, null)).toMatchObject({
      kind: 'check',
      amountLabel: 'Total',
      amountMinor: 150000,
      currency: 'USD',
      title: 'Please check the amount',
    })
    expect(customerView(checking, now + AMOUNT_CHECK_MS + 1, null).kind).toBe('welcome')
    expect(customerView({ ...checking, sales: { S1: sale } }, now + 1000, null)).toMatchObject({ kind: 'sale', amountMinor: 123456 })
  })

  it('the amount and the instruction while the card is asked for, the PIN in the reader’s words', () => {
    const reading = { ...base, sales: { S1: sale } }
    expect(customerView(reading, now, null)).toMatchObject({ kind: 'sale', amountMinor: 123456, title: 'Insert, tap or swipe your card' })
    expect(customerView({ ...reading, prompt: { type: 'enterPin' } }, now, null)).toMatchObject({ title: 'Enter your PIN' })
    // A prompt the agent gave for another sale is not this one's.
    const other = { ...reading, prompt: { type: 'enterPin' as const }, promptSaleId: 'S0' }
    expect(customerView(other, now, null)).toMatchObject({ title: 'Insert, tap or swipe your card' })
  })

  it('the result with a thank-you for the followed sale, then a welcome again', () => {
    const done = { ...base, sales: { S1: { ...sale, state: 'approved' as const } } }
    expect(customerView(done, now + 1000, 'S1')).toMatchObject({ kind: 'result', title: 'Approved', detail: 'Thank you!' })
    expect(customerView(done, now + CUSTOMER_RESULT_MS + 1, 'S1').kind).toBe('welcome')
    // A sale the display did not follow at the counter (a tip added later, a stored payment sent) is not shown.
    expect(customerView(done, now + 1000, null).kind).toBe('welcome')
  })

  it('a void: present the same card, then cancelled (not "Approved") while the void is on its way', () => {
    const voiding = { ...base, sales: { S1: { ...sale, state: 'voidReadingCard' as const } } }
    expect(customerView(voiding, now, null)).toMatchObject({
      kind: 'sale',
      amountLabel: 'Cancel',
      title: 'Present the same card to cancel this payment',
    })
    const sent = { ...base, sales: { S1: { ...sale, state: 'cancelPending' as const } } }
    expect(customerView(sent, now + 1000, 'S1')).toMatchObject({ kind: 'result', amountLabel: 'Cancel', title: 'Payment cancelled' })
  })

  it('a return: a refund to the card, then "Refunded"; never a total to pay or a payment not completed', () => {
    const refund = { ...sale, kind: 'return' as const, originalId: 'S0' }
    const reading = customerView({ ...base, sales: { S1: { ...refund, state: 'returnReadingCard' as const } } }, now, null)
    expect(reading).toMatchObject({ kind: 'sale', amountLabel: 'Refund', title: 'Insert, tap or swipe your card' })
    expect(spokenLine(reading)).toMatch(/^Refund [\d,]+ US dollars( \d\d)? to your card\. Insert, tap or swipe your card\./)
    for (const state of ['creditPending', 'credited'] as const) {
      const done = customerView({ ...base, sales: { S1: { ...refund, state } } }, now + 1000, 'S1')
      expect(done).toMatchObject({ kind: 'result', amountLabel: 'Refund', title: 'Refunded', tone: 'ok' })
      expect(spokenLine(done)).not.toMatch(/Total|not completed/)
    }
    const refused = customerView({ ...base, sales: { S1: { ...refund, state: 'abandoned' as const } } }, now + 1000, 'S1')
    expect(refused).toMatchObject({ title: 'Not refunded', amountLabel: 'Refund' })
  })

  it('speaks an amount as money, never the currency code or a decimal point', () => {
    const line = (amountMinor: number, currency: string) => spokenLine({ amountMinor, currency, title: 'Approved', detail: '' })
    expect(line(999, 'USD')).toBe('Total 9 US dollars 99. Approved.')
    expect(line(150000, 'USD')).toBe('Total 1,500 US dollars. Approved.')
    expect(line(100, 'USD')).toBe('Total 1 US dollar. Approved.')
    expect(line(1205, 'EUR')).toBe('Total 12 euros 05. Approved.')
    expect(line(1234, 'JPY')).toBe('Total 1,234 Japanese yen. Approved.')
  })

  it('a refusal for want of the bank says so, without the cashier’s reason', () => {
    const noBank = {
      ...sale,
      state: 'declined' as const,
      offline: true,
      reason: 'host unreachable and not allowed offline: the amount is over the offline limit per sale',
    }
    const view = customerView({ ...base, sales: { S1: noBank } }, now, 'S1')
    expect(view).toMatchObject({ title: 'Payment not completed', detail: 'The bank could not be reached. You were not charged.' })
  })

  it('renders large, with no card number, no sale number and no menu', async () => {
    const clock = makeClock(now)
    const bridge = new FakeBridge(makeAppInfo({ mode: 'training' }))
    const store = createPosStore({ bridge, now: clock })
    connectStore(store)
    await act(() => store.getState().load())
    render(<CustomerApp store={store} />)
    expect(screen.getByTestId('customer-message').textContent).toContain('Welcome')
    act(() => bridge.emit({ type: 'sale', sale }))
    expect(screen.getByTestId('customer-amount').textContent).toContain('USD 1,234.56')
    act(() => bridge.emit({ type: 'sale', sale: { ...sale, state: 'approved', updatedAt: now + 1 } }))
    expect(screen.getByTestId('customer-message').textContent).toContain('Approved')
    const text = document.body.textContent ?? ''
    expect(text).not.toMatch(/0010|\*\*\*|S1|A1|Receipt/)
    expect(document.querySelector('nav, input')).toBeNull()
    // Its only controls are the customer's own: high contrast (and spoken help where the platform speaks).
    expect([...document.querySelectorAll('button')].map((b) => b.getAttribute('data-testid'))).toEqual(
      expect.arrayContaining(['customer-contrast']),
    )
    for (const button of document.querySelectorAll('button'))
      expect(['customer-speech', 'customer-contrast']).toContain(button.getAttribute('data-testid'))
    expect(screen.getByTestId('customer-training').textContent).toMatch(/Training/)
  })
})

describe('the card prompt’s time limit', () => {
  const now = 1_700_000_100_000
  const sale = makeSale({ id: 'S1', amountMinor: 1500, state: 'readingCard', updatedAt: now })

  it('warns on screen and by a chime before the end, and More time asks the agent for longer', async () => {
    const notes: number[] = []
    // jsdom has no Web Audio: a recorder in its place hears the chime.
    class RecordingAudio {
      currentTime = 0
      destination = {}
      resume = () => Promise.resolve()
      createOscillator() {
        const tone = { frequency: { value: 0 }, connect() {}, start: () => notes.push(tone.frequency.value), stop() {} }
        return tone
      }
      createGain = () => ({ gain: { value: 1 }, connect() {} })
    }
    Object.defineProperty(window, 'AudioContext', { configurable: true, value: RecordingAudio })
    try {
      const clock = makeClock(now)
      const bridge = new FakeBridge().on('extendCardRead', () => {
        bridge.emit({
          type: 'device',
          prompt: { type: 'waitingForCard', prompt: 'Insert the card', expiresAt: now + 45_000, extensionsLeft: 1 },
        })
        return ok({ expiresAt: now + 45_000, extensionsLeft: 1 })
      })
      const store = createPosStore({ bridge: displayBridge(bridge), now: clock })
      connectStore(store)
      await act(() => store.getState().load())
      render(<CustomerApp store={store} />)
      act(() => bridge.emit({ type: 'sale', sale }))
      // Plenty of time left: no warning, no sound.
      act(() =>
        bridge.emit({
          type: 'device',
          prompt: { type: 'waitingForCard', prompt: 'Insert the card', expiresAt: now + 60_000, extensionsLeft: 2 },
        }),
      )
      expect(screen.queryByTestId('customer-time-warning')).toBeNull()
      expect(notes).toEqual([])
      act(() =>
        bridge.emit({
          type: 'device',
          prompt: { type: 'waitingForCard', prompt: 'Insert the card', expiresAt: now + 15_000, extensionsLeft: 2 },
        }),
      )
      expect(screen.getByRole('alert').textContent).toContain('Time is almost up')
      expect(screen.getByTestId('customer-time-left').textContent).toBe('15 seconds left')
      expect(notes).toEqual([880, 660])
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'More time' }))
      })
      expect(bridge.callsOf('extendCardRead')).toEqual([{}])
      expect(screen.queryByTestId('customer-time-warning')).toBeNull()
      // No extension left: still warned, but no button that would be refused.
      act(() =>
        bridge.emit({
          type: 'device',
          prompt: { type: 'waitingForCard', prompt: 'Insert the card', expiresAt: now + 5_000, extensionsLeft: 0 },
        }),
      )
      expect(screen.getByTestId('customer-time-warning').textContent).toContain('5 seconds left')
      expect(screen.queryByRole('button', { name: 'More time' })).toBeNull()
      expect(notes).toEqual([880, 660, 880, 660])
    } finally {
      Reflect.deleteProperty(window, 'AudioContext')
    }
  })
})

describe('the customer display only reads', () => {
  it('loads and follows sales through read operations alone, whatever the store refreshes', async () => {
    const { displayBridge } = await import('../../src-renderer/src/bridge')
    const { DISPLAY_OPERATIONS } = await import('../../src-shared/contract')
    const bridge = new FakeBridge()
    const store = createPosStore({ bridge: displayBridge(bridge), now: () => 1_700_000_000_000 })
    await store.getState().load()
    expect(store.getState().loadStatus).toBe('ready')
    expect(bridge.calls.length).toBeGreaterThan(0)
    expect(bridge.calls.map((c) => c.operation).filter((operation) => !DISPLAY_OPERATIONS.includes(operation))).toEqual([])
    // An action asked of it is refused here, never sent.
    const refused = await displayBridge(bridge).call('cancelSale', { id: 'S1' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    expect(bridge.callsOf('cancelSale')).toEqual([])
  })
})
