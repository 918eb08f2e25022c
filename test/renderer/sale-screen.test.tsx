import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ERROR_CATALOGUE } from '../../src-shared/errors'
import { err, FakeBridge, makeAppInfo, makeSale, ok, trainingCardsNamed } from './fake-bridge'
import { renderApp, typeChars } from './render-app'

const amountInput = () => screen.getByTestId<HTMLInputElement>('amount-input')
const prompt = () => screen.getByRole('status', { name: 'Sale status' })

function startingBridge(appInfo = makeAppInfo()) {
  const bridge = new FakeBridge(appInfo)
  bridge.on('startSale', (r) =>
    ok(makeSale({ id: 'S1', state: 'readingCard', amountMinor: r.amountMinor, currency: r.currency ?? 'USD', updatedAt: 1 })),
  )
  return bridge
}

describe('amount keypad and Enter', () => {
  it('USD: typing 1 2 3 4 shows 12.34 and Enter charges 1234 minor units', async () => {
    const { bridge } = await renderApp(startingBridge())
    expect(screen.getByLabelText('Amount (USD)')).toBe(amountInput())
    typeChars(amountInput(), '1234')
    expect(amountInput().value).toBe('12.34')
    expect(screen.getByTestId('charge-button').textContent).toBe('Charge USD 12.34')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 1234, currency: 'USD' }])
  })

  it('JPY: the same keys are 1234 yen, no decimals', async () => {
    const { bridge } = await renderApp(startingBridge(makeAppInfo({ currency: 'JPY' })))
    typeChars(amountInput(), '1234')
    expect(amountInput().value).toBe('1,234')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 1234, currency: 'JPY' }])
  })

  it('a decimal point types the amount as written: 12.3 is 12.30, not 1.23', async () => {
    const { bridge } = await renderApp(startingBridge())
    typeChars(amountInput(), '12.3')
    expect(amountInput().value).toBe('12.3')
    expect(screen.getByTestId('charge-button').textContent).toBe('Charge USD 12.30')
    typeChars(amountInput(), '45')
    // The currency has two decimals: a third is not taken.
    expect(amountInput().value).toBe('12.34')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 1234, currency: 'USD' }])
  })

  it('the point from the keyboard and the keypad, with separators on a large amount', async () => {
    await renderApp(startingBridge())
    for (const key of ['1', '2', '3', '4', '.', '5']) fireEvent.keyDown(document.body, { key })
    expect(amountInput().value).toBe('1,234.5')
    expect(screen.getByTestId('charge-button').textContent).toBe('Charge USD 1,234.50')
    fireEvent.keyDown(document.body, { key: 'Backspace' })
    fireEvent.keyDown(document.body, { key: 'Backspace' })
    // Without its point the entry is cash-register digits again.
    expect(amountInput().value).toBe('12.34')
    fireEvent.keyDown(document.body, { key: 'Escape' })
    const keypad = screen.getByRole('group', { name: 'Amount keypad' })
    for (const key of ['7', 'Decimal point', '2', '5']) fireEvent.click(within(keypad).getByRole('button', { name: key }))
    expect(amountInput().value).toBe('7.25')
  })

  it('a pasted amount is read as written, grouping and currency sign ignored', async () => {
    await renderApp(startingBridge())
    fireEvent.paste(amountInput(), { clipboardData: { getData: () => '$1,234.5' } })
    expect(amountInput().value).toBe('1,234.5')
    expect(screen.getByTestId('charge-button').textContent).toBe('Charge USD 1,234.50')
  })

  it('JPY has no decimals: no point key, and a typed point is ignored', async () => {
    await renderApp(startingBridge(makeAppInfo({ currency: 'JPY' })))
    expect(screen.queryByRole('button', { name: 'Decimal point' })).toBeNull()
    typeChars(amountInput(), '12.3')
    expect(amountInput().value).toBe('123')
  })

  it('the on-screen keypad, Backspace and Escape edit the amount; the charge button charges once', async () => {
    const { bridge } = await renderApp(startingBridge())
    const keypad = screen.getByRole('group', { name: 'Amount keypad' })
    for (const key of ['5', '00', '7']) fireEvent.click(within(keypad).getByRole('button', { name: key }))
    expect(amountInput().value).toBe('50.07')
    fireEvent.click(screen.getByRole('button', { name: 'Erase last digit' }))
    expect(amountInput().value).toBe('5.00')
    fireEvent.keyDown(document.body, { key: '9' })
    expect(amountInput().value).toBe('50.09')
    fireEvent.keyDown(document.body, { key: 'Backspace' })
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(amountInput().value).toBe('')
    expect(screen.getByTestId('charge-button')).toHaveProperty('disabled', true)
    fireEvent.keyDown(document.body, { key: '3' })
    await act(async () => {
      fireEvent.click(screen.getByTestId('charge-button'))
      fireEvent.click(screen.getByTestId('charge-button'))
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 3, currency: 'USD' }])
  })
})

describe('prompts follow the reader', () => {
  it('walks the customer through card, PIN, processing and remove card; cancel only while reading', async () => {
    const { emit } = await renderApp(startingBridge())
    expect(prompt().textContent).toContain('Enter the amount')
    typeChars(amountInput(), '500')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(prompt().textContent).toContain('Insert, tap or swipe the card')
    expect(screen.getByRole('button', { name: 'Cancel sale' })).toHaveProperty('disabled', false)
    expect(amountInput().readOnly).toBe(true)
    expect(amountInput().value).toBe('5.00')
    expect(screen.getByTestId('nav-queue')).toHaveProperty('disabled', true)
    emit({ type: 'device', prompt: { type: 'insertChip', reason: 'This card has a chip.' } })
    expect(prompt().textContent).toContain('Insert the chip')
    emit({ type: 'device', prompt: { type: 'enterPin' } })
    expect(prompt().textContent).toContain('Enter PIN')
    emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'sending', amountMinor: 500, updatedAt: 2 }) })
    expect(prompt().textContent).toContain('Processing')
    expect(screen.getByRole('button', { name: 'Cancel sale' })).toHaveProperty('disabled', true)
    emit({ type: 'device', prompt: { type: 'removeCard' } })
    expect(prompt().textContent).toContain('Remove card')
    emit({ type: 'device', prompt: { type: 'error', code: 'E1', message: 'Card read failed' } })
    expect(prompt().textContent).toContain('Card reader problem')
    expect(prompt().textContent).toContain('Card read failed')
  })

  it('cancel while reading stops the sale: not completed, nothing charged', async () => {
    const bridge = startingBridge().on('cancelSale', (r) =>
      ok(makeSale({ id: r.id, state: 'abandoned', reason: 'cancelled by the cashier', updatedAt: 5 })),
    )
    await renderApp(bridge)
    typeChars(amountInput(), '500')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel sale' }))
    })
    expect(bridge.callsOf('cancelSale')).toEqual([{ id: 'S1' }])
    expect(screen.getByTestId('result-heading').textContent).toBe('Not completed')
    expect(screen.getByTestId('sale-result').textContent).toContain('Nothing was charged')
  })
})

describe('results', () => {
  async function resultFor(sale: Partial<Parameters<typeof makeSale>[0]>) {
    const h = await renderApp(startingBridge())
    typeChars(amountInput(), '1234')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    h.emit({
      type: 'sale',
      sale: makeSale({ id: 'S1', updatedAt: 9, maskedPan: '476173******0010', brand: 'VISA', readMethod: 'chip', ...sale }),
    })
    return h
  }

  it('approved: heading, auth code, receipt with both copies, AID and label, print', async () => {
    await resultFor({ state: 'approved', authCode: 'A1B2C3', applicationId: 'A0000000031010', applicationLabel: 'VISA CREDIT' })
    expect(screen.getByTestId('result-heading').textContent).toBe('Approved')
    expect(screen.getByTestId('result-auth-code').textContent).toBe('A1B2C3')
    expect(screen.getByTestId('nav-queue')).toHaveProperty('disabled', false)
    fireEvent.click(screen.getByRole('button', { name: 'Show receipt' }))
    const receipt = screen.getByTestId('receipt')
    const merchant = within(receipt).getByRole('article', { name: 'Merchant copy' })
    const customer = within(receipt).getByRole('article', { name: 'Customer copy' })
    for (const copy of [merchant, customer]) {
      expect(copy.textContent).toContain('476173******0010')
      expect(copy.textContent).toContain('Chip')
      expect(copy.textContent).toContain('A0000000031010')
      expect(copy.textContent).toContain('VISA CREDIT')
      expect(copy.textContent).toContain('A1B2C3')
      expect(copy.textContent).toContain('USD 12.34')
    }
    // happy-dom has no window.print; the browser's opens the print dialog.
    const print = vi.fn()
    Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true })
    fireEvent.click(within(receipt).getByRole('button', { name: 'Print receipt' }))
    expect(print).toHaveBeenCalledTimes(1)
    fireEvent.click(within(receipt).getByRole('button', { name: 'Close receipt' }))
    expect(screen.queryByTestId('receipt')).toBeNull()
  })

  it('declined: heading and the reason', async () => {
    await resultFor({ state: 'declined', reason: '51 insufficient funds' })
    expect(screen.getByTestId('result-heading').textContent).toBe('Declined')
    expect(screen.getByTestId('result-reason').textContent).toBe('51 insufficient funds')
    expect(prompt().textContent).toContain('Declined')
  })

  it('a refused card: Charge takes the same amount again, without keying it again; an approval does not offer it', async () => {
    const { bridge } = await resultFor({ state: 'declined', amountMinor: 1234, reason: '51 insufficient funds' })
    const charge = screen.getByTestId<HTMLButtonElement>('charge-button')
    expect(charge.disabled).toBe(false)
    expect(charge.textContent).toBe('Charge USD 12.34 again')
    await act(async () => {
      fireEvent.click(charge)
    })
    expect(bridge.callsOf('startSale')).toEqual([
      { amountMinor: 1234, currency: 'USD' },
      { amountMinor: 1234, currency: 'USD' },
    ])
  })

  it('after an approval Charge waits for the next amount', async () => {
    await resultFor({ state: 'approved', amountMinor: 1234 })
    expect(screen.getByTestId<HTMLButtonElement>('charge-button').disabled).toBe(true)
  })

  it('approved offline: clearly marked as stored, to be sent to the bank', async () => {
    await resultFor({ state: 'storedOffline', offline: true })
    expect(screen.getByTestId('result-heading').textContent).toBe('Approved offline (stored)')
    expect(screen.getByTestId('sale-result').textContent).toMatch(/stored on this terminal and will be sent to the bank/)
  })

  it('reversal: being reversed, then reversed; the customer does not pay', async () => {
    const { emit } = await resultFor({ state: 'reversalPending', reason: 'no answer from the host' })
    expect(screen.getByTestId('result-heading').textContent).toBe('Not completed (being reversed)')
    // The right words after a reversal: the first charge is taken back, and the cashier charges again.
    expect(screen.getByTestId('sale-result').textContent).toContain('The first charge is being reversed: the customer does not pay for it.')
    expect(screen.getByTestId('sale-result').textContent).toContain('Charge again to take the payment.')
    expect(screen.getByTestId('charge-button').textContent).toMatch(/again$/)
    emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'reversed', updatedAt: 10 }) })
    expect(screen.getByTestId('result-heading').textContent).toBe('Not completed (reversed)')
  })

  it('typing a digit after a result begins the next sale', async () => {
    await resultFor({ state: 'approved', authCode: 'X' })
    fireEvent.keyDown(document.body, { key: '4' })
    expect(screen.queryByTestId('result-heading')).toBeNull()
    expect(amountInput().value).toBe('0.04')
  })
})

describe('duplicate confirmation', () => {
  async function atDuplicate(bridge: FakeBridge) {
    const h = await renderApp(bridge)
    typeChars(amountInput(), '1234')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    h.emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'awaitingConfirmation', maskedPan: '476173******0010', updatedAt: 2 }) })
    return h
  }

  it('asks, and "Charge again" confirms', async () => {
    const bridge = startingBridge().on('confirmDuplicate', (r) => ok(makeSale({ id: r.id, state: 'sending', updatedAt: 3 })))
    await atDuplicate(bridge)
    const dialog = screen.getByRole('alertdialog', { name: 'Same card and amount as a recent sale — charge again?' })
    expect(document.activeElement?.textContent).toBe('Stop, do not charge')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Charge again' }))
    })
    expect(bridge.callsOf('confirmDuplicate')).toEqual([{ id: 'S1', charge: true }])
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(prompt().textContent).toContain('Processing')
  })

  it('Escape stops it: nothing charged', async () => {
    const bridge = startingBridge().on('confirmDuplicate', (r) => ok(makeSale({ id: r.id, state: 'abandoned', updatedAt: 3 })))
    await atDuplicate(bridge)
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' })
    })
    expect(bridge.callsOf('confirmDuplicate')).toEqual([{ id: 'S1', charge: false }])
    expect(bridge.callsOf('cancelSale')).toEqual([])
    expect(screen.getByTestId('result-heading').textContent).toBe('Not completed')
  })

  it('after "Stop, do not charge" the result offers no "Charge again": Charge waits for an amount, Enter starts the next sale', async () => {
    const bridge = startingBridge().on('confirmDuplicate', (r) => ok(makeSale({ id: r.id, state: 'abandoned', updatedAt: 3 })))
    await atDuplicate(bridge)
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Stop, do not charge' }))
    })
    expect(screen.getByTestId('result-heading').textContent).toBe('Not completed')
    const charge = screen.getByTestId<HTMLButtonElement>('charge-button')
    expect(charge.textContent).not.toMatch(/again/)
    expect(charge.disabled).toBe(true)
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Enter' })
    })
    expect(bridge.callsOf('startSale')).toHaveLength(1)
    expect(screen.queryByTestId('result-heading')).toBeNull()
  })
})

describe('a large amount is confirmed before the card', () => {
  // makeAppInfo: confirmed above USD 1000.00, at most USD 10000.00.
  async function keyAndEnter(digits: string, bridge = startingBridge()) {
    const h = await renderApp(bridge)
    typeChars(amountInput(), digits)
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    return h
  }

  it('asks "Charge USD 1,500.00?" and starts nothing until the cashier says yes; yes sends it confirmed', async () => {
    const { bridge } = await keyAndEnter('150000')
    const dialog = screen.getByRole('alertdialog', { name: 'Charge USD 1,500.00?' })
    expect(bridge.callsOf('startSale')).toEqual([])
    expect(document.activeElement?.textContent).toBe('No, change the amount')
    expect(prompt().textContent).toContain('Confirm the amount')
    // Enter on the field and the keypad do nothing behind the question.
    fireEvent.keyDown(document.body, { key: '9' })
    expect(amountInput().value).toBe('1,500.00')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Charge USD 1,500.00' }))
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 150_000, currency: 'USD', amountConfirmed: true }])
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(prompt().textContent).toContain('Insert, tap or swipe the card')
  })

  it('Escape goes back to the amount: nothing sent, the amount kept to correct', async () => {
    const { bridge } = await keyAndEnter('150000')
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' })
    })
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(bridge.callsOf('startSale')).toEqual([])
    expect(amountInput().value).toBe('1,500.00')
    fireEvent.keyDown(document.body, { key: 'Backspace' })
    expect(amountInput().value).toBe('150.00')
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 15_000, currency: 'USD' }])
  })

  it('up to the confirmation amount nothing is asked', async () => {
    const { bridge } = await keyAndEnter('100000')
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 100_000, currency: 'USD' }])
  })

  it('when the agent asks (its limit is lower than this window knew), the same question, then sent again confirmed', async () => {
    const bridge = startingBridge(makeAppInfo({ saleLimits: { maxSaleMinor: 1_000_000, confirmAboveMinor: 500_000 } }))
    bridge.on('startSale', (r) =>
      r.amountConfirmed
        ? ok(makeSale({ id: 'S1', state: 'readingCard', amountMinor: r.amountMinor, updatedAt: 1 }))
        : err('AMOUNT_NEEDS_CONFIRMATION', 'not started: above USD 1000.00'),
    )
    await keyAndEnter('150000', bridge)
    expect(prompt().textContent).not.toContain(ERROR_CATALOGUE.AMOUNT_NEEDS_CONFIRMATION.words)
    await act(async () => {
      fireEvent.click(
        within(screen.getByRole('alertdialog', { name: 'Charge USD 1,500.00?' })).getByRole('button', { name: 'Charge USD 1,500.00' }),
      )
    })
    expect(bridge.callsOf('startSale')).toEqual([
      { amountMinor: 150_000, currency: 'USD' },
      { amountMinor: 150_000, currency: 'USD', amountConfirmed: true },
    ])
    expect(prompt().textContent).toContain('Insert, tap or swipe the card')
  })

  it('above the maximum nothing is asked: the agent refuses it and the cashier reads why', async () => {
    const bridge = startingBridge().on('startSale', () => err('AMOUNT_ABOVE_LIMIT', 'not started: USD 9999999.99 is above USD 10000.00'))
    await keyAndEnter('999999999', bridge)
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 999_999_999, currency: 'USD' }])
    expect(prompt().textContent).toContain('The sale did not start')
    // It says the limit (appInfo.saleLimits), not only that there is one.
    expect(prompt().textContent).toContain(
      'This terminal charges at most USD 10,000.00 in one sale. Nothing was charged; check the amount.',
    )
    expect(prompt().textContent).not.toContain('not started')
  })
})

describe('training mode', () => {
  it('shows a banner that cannot be missed and a test-card picker that presents cards', async () => {
    const bridge = startingBridge(makeAppInfo({ mode: 'training', trainingCards: trainingCardsNamed('chip-visa', 'pin-aes') }))
    bridge.on('presentTestCard', (r) => ok({ presented: r.name }))
    await renderApp(bridge)
    expect(screen.getByTestId('training-banner').textContent).toMatch(/TRAINING MODE/)
    const picker = screen.getByTestId('test-card-picker')
    const select = within(picker).getByRole<HTMLSelectElement>('combobox', { name: 'Test card' })
    // Each card in words, with what it does.
    expect([...select.options].map((o) => o.textContent)).toEqual(['Visa chip card', 'Mastercard chip card with PIN'])
    await act(async () => {
      fireEvent.change(select, { target: { value: 'pin-aes' } })
    })
    expect(picker.textContent).toContain('Asks for the PIN 1234')
    // Picked before Charge: held out for the next card request at once, so it is the card read, never
    // the simulated PIN pad's own default.
    expect(bridge.callsOf('presentTestCard')).toEqual([{ name: 'pin-aes' }])
    typeChars(amountInput(), '500')
    await act(async () => {
      fireEvent.click(within(picker).getByRole('button', { name: 'Present' }))
    })
    expect(bridge.callsOf('presentTestCard')).toEqual([{ name: 'pin-aes' }, { name: 'pin-aes' }])
    expect(within(picker).getByTestId('test-card-notice').textContent).toBe('The customer holds out: Mastercard chip card with PIN.')
    // The focus is back on the amount, so Enter charges rather than presenting the card again.
    expect(document.activeElement).toBe(amountInput())
    await act(async () => {
      fireEvent.keyDown(amountInput(), { key: 'Enter' })
    })
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 500, currency: 'USD' }])
    expect(bridge.callsOf('presentTestCard')).toHaveLength(2)
  })

  it('production mode has neither', async () => {
    await renderApp(startingBridge(makeAppInfo({ mode: 'production', trainingCards: trainingCardsNamed('chip-visa') })))
    expect(screen.queryByTestId('training-banner')).toBeNull()
    expect(screen.queryByTestId('test-card-picker')).toBeNull()
  })
})
