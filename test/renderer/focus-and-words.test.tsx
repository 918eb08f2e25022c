/**
 * Keyboard and focus (dialogs keep the focus and give it back, the page behind them is inert, disabled
 * controls say why, Enter does what the screen offers) and plain words (no internal state, event,
 * operation or code; "could not reach the bank" is not "declined"; the result said once; no auth code
 * on a sale that did not stand; test cards described).
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { plainReason, saleWords, showsAuthCode } from '../../src-renderer/src/store'
import { FakeBridge, makeAppInfo, makeQueue, makeQueueItem, makeSale, ok, trainingCardsNamed } from './fake-bridge'
import { renderApp, typeChars } from './render-app'

const amountInput = () => screen.getByTestId<HTMLInputElement>('amount-input')

function approvedBridge() {
  const bridge = new FakeBridge()
  bridge.on('startSale', (r) =>
    ok(makeSale({ id: 'S1', state: 'approved', amountMinor: r.amountMinor, maskedPan: '476173******0010', authCode: 'OK1', updatedAt: 3 })),
  )
  return bridge
}

describe('dialogs keep the focus and give it back', () => {
  it('the receipt: focus on Close, Tab stays inside, the page behind is inert, a digit does not reach the amount; Escape returns focus', async () => {
    await renderApp(approvedBridge())
    typeChars(amountInput(), '1234')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    const show = screen.getByTestId('show-receipt-button')
    show.focus()
    fireEvent.click(show)
    const receipt = screen.getByTestId('receipt')
    const close = within(receipt).getByRole('button', { name: 'Close receipt' })
    const print = within(receipt).getByRole('button', { name: 'Print receipt' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close, { key: 'Tab' })
    expect(document.activeElement).toBe(print)
    fireEvent.keyDown(print, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(print)
    // Everything but the dialog is inert while it is open.
    expect(amountInput().closest('[inert]')).not.toBeNull()
    expect(receipt.closest('[inert]')).toBeNull()
    fireEvent.keyDown(print, { key: '9' })
    expect(amountInput().value).toBe('12.34')
    fireEvent.keyDown(print, { key: 'Escape' })
    expect(screen.queryByTestId('receipt')).toBeNull()
    expect(document.activeElement).toBe(show)
    expect(amountInput().closest('[inert]')).toBeNull()
  })

  it('the large-amount question: the safe answer has the focus; going back returns the focus to the amount', async () => {
    const { bridge } = await renderApp(new FakeBridge(makeAppInfo({ saleLimits: { maxSaleMinor: 1_000_000, confirmAboveMinor: 10_000 } })))
    amountInput().focus()
    typeChars(amountInput(), '150000')
    fireEvent.keyDown(amountInput(), { key: 'Enter' })
    const dialog = screen.getByRole('alertdialog', { name: 'Charge USD 1,500.00?' })
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'No, change the amount' }))
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(document.activeElement).toBe(amountInput())
    expect(bridge.callsOf('startSale')).toEqual([])
  })
})

describe('every disabled control says why', () => {
  it('Charge without an amount, and the screens while a sale runs', async () => {
    const bridge = new FakeBridge().on('startSale', (r) => ok(makeSale({ id: 'S1', amountMinor: r.amountMinor, updatedAt: 2 })))
    await renderApp(bridge)
    const charge = screen.getByTestId('charge-button')
    expect(charge).toHaveProperty('disabled', true)
    expect(document.getElementById(charge.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Type the amount first.')
    typeChars(amountInput(), '500')
    expect(charge).toHaveProperty('disabled', false)
    expect(charge.getAttribute('aria-describedby')).toBeNull()
    await act(async () => {
      fireEvent.click(charge)
    })
    const queue = screen.getByTestId('nav-queue')
    expect(queue).toHaveProperty('disabled', true)
    expect(document.getElementById(queue.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/once the sale or void/)
    expect(document.getElementById(charge.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/A sale is running/)
  })

  it('Charge and Cancel say what is true in every phase of a sale, and after its result', async () => {
    const bridge = new FakeBridge().on('startSale', (r) =>
      ok(makeSale({ id: 'S1', state: 'readingCard', amountMinor: r.amountMinor, updatedAt: 2 })),
    )
    const { emit } = await renderApp(bridge)
    const charge = screen.getByTestId('charge-button')
    const why = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent
    typeChars(amountInput(), '500')
    await act(async () => {
      fireEvent.click(charge)
    })
    expect(why(charge)).toBe('A sale is running. Cancel it to start another.')
    expect(screen.getByTestId('cancel-sale-button')).toHaveProperty('disabled', false)

    emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'awaitingConfirmation', amountMinor: 500, updatedAt: 3 }) })
    expect(why(charge)).toBe('A sale is running. Answer the question about the card first.')

    emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'sending', amountMinor: 500, updatedAt: 4 }) })
    const cancel = screen.getByTestId('cancel-sale-button')
    expect(cancel).toHaveProperty('disabled', true)
    expect(why(cancel)).toBe('The bank is answering; this sale can no longer be stopped.')
    // Cancel cannot be pressed now: Charge must not send the cashier to it.
    expect(why(charge)).toBe('A sale is running. The bank is answering: wait for the result.')

    emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'approved', amountMinor: 500, authCode: 'A1', updatedAt: 5 }) })
    expect(screen.getByTestId('result-heading').textContent).toBe('Approved')
    // The ended sale's amount is still in the field: "Type the amount first" would not be true.
    expect(amountInput().value).toBe('5.00')
    expect(charge).toHaveProperty('disabled', true)
    expect(why(charge)).toBe('That sale has ended. Press New sale, or type the next amount.')
    expect(screen.getByTestId('new-sale-button')).toHaveProperty('disabled', false)

    fireEvent.click(screen.getByTestId('new-sale-button'))
    expect(amountInput().value).toBe('')
    expect(why(charge)).toBe('Type the amount first.')
  })

  it('Enter after a result starts the next sale', async () => {
    await renderApp(approvedBridge())
    typeChars(amountInput(), '700')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(screen.getByTestId('result-heading').textContent).toBe('Approved')
    fireEvent.keyDown(amountInput(), { key: 'Enter' })
    expect(screen.queryByTestId('result-heading')).toBeNull()
    expect(amountInput().value).toBe('')
  })
})

describe('every disabled control says why, elsewhere too', () => {
  const describedBy = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent

  it('Send tips, until a tip is typed and while one needs a manager', async () => {
    const sale = makeSale({ id: 'T1', state: 'approved', amountMinor: 5000, updatedAt: 2 })
    await renderApp(
      new FakeBridge().on('listSales', () => ok([sale])),
      { screen: 'tips' },
    )
    const send = screen.getByTestId('submit-tips-button')
    expect(describedBy(send)).toBe('Type a tip first.')
    typeChars(screen.getByTestId<HTMLInputElement>('tip-input-T1'), '20.00')
    expect(describedBy(send)).toBe('A tip above the limit must be allowed first.')
    fireEvent.click(screen.getByTestId('tip-override-T1'))
    fireEvent.click(screen.getByRole('button', { name: 'Allow this tip' }))
    expect(send).toHaveProperty('disabled', false)
    expect(send.getAttribute('aria-describedby')).toBeNull()
  })

  it('Store the key, while the field is empty', async () => {
    await renderApp(new FakeBridge(), { screen: 'settings' })
    expect(describedBy(screen.getByTestId('save-signing-key-button'))).toBe('Paste or type the 32-character signing key.')
  })
})

describe('the void, in view', () => {
  it('opens as a dialog with the test card picker in training; the last refusal is not on the row during the new try', async () => {
    const refused = makeSale({
      id: 'V1',
      state: 'approved',
      amountMinor: 2500,
      reason: 'not voided: a different card was presented',
      updatedAt: 10,
    })
    const bridge = new FakeBridge(makeAppInfo({ mode: 'training', trainingCards: trainingCardsNamed('chip-visa') }))
      .on('listSales', () => ok([refused]))
      .on('voidSale', () => ok({ ...refused, state: 'voidReadingCard', updatedAt: 11 }))
      .on('presentTestCard', (r) => ok({ presented: r.name }))
    await renderApp(bridge, { screen: 'transactions' })
    expect(screen.getByTestId('sale-row-V1').textContent).toContain('Not voided: a different card was presented')
    fireEvent.click(screen.getByTestId('void-V1'))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Void sale' }))
    })
    const panel = screen.getByRole('dialog', { name: 'Void of USD 25.00' })
    expect(panel.contains(document.activeElement)).toBe(true)
    expect(screen.getByTestId('sale-row-V1').textContent).not.toContain('different card')
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Present' }))
    })
    expect(bridge.callsOf('presentTestCard')).toEqual([{ name: 'chip-visa' }])
  })
})

describe('plain words', () => {
  it.each([
    ['notDelivered: HTTP 503', 'The bank could not be reached.'],
    ['unknown: no answer within 45 s', 'The bank did not answer in time.'],
    ['payment refused by the host (B0042: the payment was reversed)', 'The bank refused the payment (the payment was reversed)'],
    ['reversal refused: duplicate', 'The bank refused the reversal: duplicate'],
    ['host unreachable and not allowed offline: a swiped card cannot be approved offline', 'A swiped card cannot be approved offline'],
    [
      'the bank could not be reached and this sale cannot be stored: a swiped card cannot be approved offline',
      'A swiped card cannot be approved offline',
    ],
    ['capture refused by the host (C1: no)', 'The bank refused the settlement with tip (no)'],
    ['E12: host refused', 'The bank refused'],
    ['declined by the issuer: Insufficient funds', 'The card’s bank declined it: Insufficient funds'],
    ['declined by the bank', 'The bank declined it.'],
    ['not completed: no valid answer came from the bank', 'The bank’s answer did not come in time, or could not be read'],
    ['no valid answer came from the bank', 'The bank’s answer did not come in time, or could not be read'],
    ['declined: do not honour', 'The bank declined it: do not honour'],
  ])('%s → %s', (raw, words) => {
    expect(plainReason(raw)).toBe(words)
    expect(plainReason(raw)).not.toMatch(/\bhost\b|notDelivered|HTTP|B0042|E12/)
  })

  it('a sale refused for want of the bank is not "Declined"; a decline is', () => {
    // The agent marks a sale decided without the bank `offline`: a declined one never reached the bank.
    const noBank = makeSale({ state: 'declined', offline: true, reason: 'any words at all' })
    expect(saleWords(noBank).title).toBe('Could not reach the bank')
    expect(saleWords(makeSale({ state: 'declined', reason: 'host unreachable' })).title).toBe('Declined')
  })

  it('the auth code only on a payment that stands', () => {
    expect(showsAuthCode(makeSale({ state: 'approved', authCode: 'A1' }))).toBe(true)
    expect(showsAuthCode(makeSale({ state: 'reversed', authCode: 'A1' }))).toBe(false)
    expect(showsAuthCode(makeSale({ state: 'cancelled', authCode: 'A1' }))).toBe(false)
  })

  it('the queue screen shows no outcome class or operation name', async () => {
    const item = makeQueueItem({ saleId: 'Q1', operation: 'reversal', lastError: 'notDelivered: HTTP 503' })
    const bridge = new FakeBridge().on('queueStatus', () => ok(makeQueue({ count: 1 }))).on('queueItems', () => ok([item]))
    await renderApp(bridge, { screen: 'queue' })
    const table = screen.getByTestId('waiting-items')
    expect(table.textContent).toContain('Reversal')
    expect(table.textContent).toContain('The bank could not be reached.')
    expect(table.textContent).not.toMatch(/notDelivered|HTTP|\breversal\b/)
  })

  it('the result is said once, and a reversed sale shows no auth code', async () => {
    const bridge = new FakeBridge().on('startSale', (r) =>
      ok(makeSale({ id: 'S1', state: 'reversed', amountMinor: r.amountMinor, authCode: 'A1B2', updatedAt: 3 })),
    )
    await renderApp(bridge)
    typeChars(amountInput(), '800')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    const result = screen.getByTestId('sale-result')
    expect(result.textContent?.split('Not completed (reversed)')).toHaveLength(2)
    expect(screen.queryByTestId('result-auth-code')).toBeNull()
  })
})
