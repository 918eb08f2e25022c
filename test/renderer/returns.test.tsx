/**
 * A return from the transactions list: Return on a sale with something left to return, the amount
 * typed (what is left is a button, never filled in), a manager's approval asked for when the agent says it needs one, the
 * customer asked for the same card, and how it ended, in plain words only.
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SaleView } from '../../src-shared/contract'
import { err, FakeBridge, makeSale, ok } from './fake-bridge'
import { renderApp } from './render-app'

const paid = makeSale({
  id: 'S1',
  state: 'approved',
  amountMinor: 2500,
  tipMinor: 500,
  returnableMinor: 2000,
  returnedMinor: 1000,
  maskedPan: '476173******0010',
  brand: 'VISA',
  createdAt: 1_700_000_000_000,
  updatedAt: 10,
})
const voided = makeSale({ id: 'S2', state: 'cancelled', amountMinor: 900, createdAt: 1_700_000_100_000, updatedAt: 11 })

function type(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } })
}

const credit = (patch: Partial<SaleView>): SaleView =>
  makeSale({ id: 'R1', kind: 'return', originalId: 'S1', amountMinor: 1500, createdAt: 1_700_000_200_000, updatedAt: 30, ...patch })

describe('a return from the transactions list', () => {
  it('offers Return only on a sale with something left to return', async () => {
    await renderApp(
      new FakeBridge().on('listSales', () => ok([paid, voided])),
      { screen: 'transactions' },
    )
    expect(within(screen.getByTestId('sale-row-S1')).queryByRole('button', { name: /^Return/ })).not.toBeNull()
    expect(within(screen.getByTestId('sale-row-S2')).queryByRole('button', { name: /^Return/ })).toBeNull()
    // Part of it was returned: the agent would refuse a void, so none is offered.
    expect(screen.queryByTestId('void-S1')).toBeNull()
  })

  it('starts empty with what is left one press away, asks a manager, asks for the same card, and shows the return in plain words', async () => {
    const bridge = new FakeBridge()
      .on('listSales', () => ok([paid]))
      .on('getSale', () => ok({ ...paid, returnableMinor: 500, returnedMinor: 2500 }))
      .on('startReturn', (r) => {
        if (!r.approval || typeof r.approval === 'string') return err('MANAGER_REQUIRED', 'needs a manager')
        return ok(credit({ state: 'returnReadingCard', amountMinor: r.amountMinor, operatorId: r.approval.operatorId }))
      })
    const { emit } = await renderApp(bridge, { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('return-S1'))
    const panel = screen.getByTestId('return-panel')
    // Nothing is filled in: a hurried Enter asks for no money back. What is left is one press away.
    expect(screen.getByTestId<HTMLInputElement>('return-amount').value).toBe('')
    fireEvent.click(within(panel).getByTestId('return-start-button'))
    expect(within(panel).getByRole('alert').textContent).toBe('Enter the amount to return.')
    fireEvent.click(within(panel).getByTestId('return-all-left'))
    expect(screen.getByTestId<HTMLInputElement>('return-amount').value).toBe('20.00')
    // More than is left is refused on screen, before anything is asked of the agent.
    type('return-amount', '20.01')
    fireEvent.click(within(panel).getByTestId('return-start-button'))
    expect(within(panel).getByRole('alert').textContent).toContain('USD 20.00')
    expect(bridge.callsOf('startReturn')).toEqual([])

    // Keyed the sale's way: 1 5 0 0 is 15.00.
    type('return-amount', '1500')
    expect(screen.getByTestId<HTMLInputElement>('return-amount').value).toBe('15.00')
    await act(async () => {
      fireEvent.click(within(panel).getByTestId('return-start-button'))
    })
    const approval = screen.getByTestId('approval-dialog')
    expect(within(approval).getByRole('heading').textContent).toBe('A manager approves this return')
    type('approval-operator-input', '9')
    type('approval-pin-input', '4321')
    await act(async () => {
      fireEvent.click(screen.getByTestId('approve-button'))
    })
    expect(bridge.callsOf('startReturn')).toEqual([
      { originalId: 'S1', amountMinor: 1500, currency: 'USD' },
      { originalId: 'S1', amountMinor: 1500, currency: 'USD', approval: { operatorId: '9', pin: '4321' } },
    ])
    const prompt = screen.getByRole('status', { name: 'Return status' })
    expect(prompt.textContent).toContain('present the card')
    expect(screen.getByTestId('nav-sale')).toHaveProperty('disabled', true)
    emit({ type: 'sale', sale: credit({ state: 'creditPending', updatedAt: 31 }) })
    expect(prompt.textContent).toContain('Return being sent')
    await act(async () => {
      emit({ type: 'sale', sale: credit({ state: 'credited', updatedAt: 32 }) })
    })
    // How much went back, and what the sale has left now (its view asked again after the return's event).
    expect(prompt.textContent).toContain('Returned: USD 15.00')
    expect(prompt.textContent).toContain('USD 5.00 is left to return on the sale.')
    expect(bridge.callsOf('getSale')).toContainEqual({ id: 'S1' })
    expect(screen.getByTestId('sale-row-R1').textContent).toContain('Return USD 15.00')
    for (const word of ['creditPending', 'returnReadingCard', 'merchandiseCredit', 'MANAGER_REQUIRED'])
      expect(document.body.textContent).not.toContain(word)
    fireEvent.click(screen.getByTestId('return-done-button'))
    expect(screen.queryByTestId('return-panel')).toBeNull()
  })

  it('another card: the return ends, nothing credited, and the screen says why', async () => {
    const bridge = new FakeBridge().on('listSales', () => ok([paid])).on('startReturn', () => ok(credit({ state: 'returnReadingCard' })))
    const { emit } = await renderApp(bridge, { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('return-S1'))
    fireEvent.click(screen.getByTestId('return-all-left'))
    await act(async () => {
      fireEvent.click(screen.getByTestId('return-start-button'))
    })
    emit({
      type: 'sale',
      sale: credit({ state: 'abandoned', reason: 'not returned: this is not the card the sale was paid with', updatedAt: 31 }),
    })
    const prompt = screen.getByRole('status', { name: 'Return status' })
    expect(prompt.textContent).toContain('Return not completed')
    expect(prompt.textContent).toContain('Nothing was credited')
  })
})
