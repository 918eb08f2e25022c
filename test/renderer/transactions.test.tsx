import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeBridge, makeSale, ok } from './fake-bridge'
import { renderApp } from './render-app'

const approved = makeSale({
  id: 'S1',
  state: 'approved',
  amountMinor: 2500,
  maskedPan: '476173******0010',
  brand: 'VISA',
  authCode: 'OK1',
  createdAt: 1_700_000_000_000,
  updatedAt: 10,
})
const declined = makeSale({
  id: 'S2',
  state: 'declined',
  amountMinor: 900,
  reason: '05 do not honour',
  createdAt: 1_700_000_100_000,
  updatedAt: 11,
})

describe('transactions of the day and void', () => {
  it('lists the sales in cashier words; only a standing payment can be voided', async () => {
    await renderApp(
      new FakeBridge().on('listSales', () => ok([approved, declined])),
      { screen: 'transactions' },
    )
    const row1 = screen.getByTestId('sale-row-S1')
    const row2 = screen.getByTestId('sale-row-S2')
    expect(row1.textContent).toContain('Approved')
    expect(row2.textContent).toContain('Declined')
    expect(row2.textContent).toContain('05 do not honour')
    expect(within(row1).queryByRole('button', { name: /^Void/ })).not.toBeNull()
    expect(within(row2).queryByRole('button', { name: /^Void/ })).toBeNull()
  })

  it('void asks first, then prompts the customer to present the card again, and shows the outcome', async () => {
    const bridge = new FakeBridge()
      .on('listSales', () => ok([approved]))
      .on('voidSale', (r) => ok({ ...approved, id: r.id, state: 'voidReadingCard', updatedAt: 20 }))
    const { emit } = await renderApp(bridge, { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('void-S1'))
    const dialog = screen.getByRole('alertdialog', { name: 'Void USD 25.00?' })
    expect(bridge.callsOf('voidSale')).toEqual([])
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Void sale' }))
    })
    expect(bridge.callsOf('voidSale')).toEqual([{ id: 'S1' }])
    const voidPrompt = screen.getByRole('status', { name: 'Void status' })
    expect(voidPrompt.textContent).toContain('present the card again')
    // While the customer presents the card, the cashier stays here and cannot void twice.
    expect(screen.getByTestId('nav-sale')).toHaveProperty('disabled', true)
    expect(screen.queryByTestId('void-S1')).toBeNull()
    emit({ type: 'device', prompt: { type: 'waitingForCard', prompt: 'PRESENT CARD' } })
    expect(voidPrompt.textContent).toContain('Insert, tap or swipe the card')
    emit({ type: 'sale', sale: { ...approved, state: 'cancelPending', updatedAt: 21 } })
    expect(voidPrompt.textContent).toContain('Void being sent')
    emit({ type: 'sale', sale: { ...approved, state: 'cancelled', updatedAt: 22 } })
    expect(voidPrompt.textContent).toContain('Voided')
    expect(screen.getByTestId('sale-row-S1').textContent).toContain('Voided')
    expect(screen.getByTestId('nav-sale')).toHaveProperty('disabled', false)
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(screen.queryByTestId('void-panel')).toBeNull()
  })

  it('stop the void: the payment stands', async () => {
    const bridge = new FakeBridge()
      .on('listSales', () => ok([approved]))
      .on('voidSale', () => ok({ ...approved, state: 'voidReadingCard', updatedAt: 20 }))
      .on('cancelSale', () => ok({ ...approved, state: 'approved', updatedAt: 21 }))
    await renderApp(bridge, { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('void-S1'))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Void sale' }))
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stop the void' }))
    })
    expect(bridge.callsOf('cancelSale')).toEqual([{ id: 'S1' }])
    expect(screen.getByRole('status', { name: 'Void status' }).textContent).toContain('The payment stands')
  })
})
