import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ERROR_CATALOGUE } from '../../src-shared/errors'
import { err, FakeBridge, makeSale, ok } from './fake-bridge'
import { renderApp } from './render-app'

const a = makeSale({
  id: 'A',
  state: 'approved',
  amountMinor: 1000,
  maskedPan: '476173******0010',
  createdAt: 1_700_000_000_000,
  updatedAt: 1,
})
const b = makeSale({ id: 'B', state: 'forwarded', amountMinor: 5000, createdAt: 1_700_000_060_000, updatedAt: 1 })

function bridgeWithSales() {
  return new FakeBridge()
    .on('listSales', () => ok([a, b]))
    .on('adjustTip', (r) => ok({ ...(r.id === 'A' ? a : b), tipMinor: r.tipMinor, tipState: 'pending', updatedAt: 2 }))
}

const input = (id: string) => screen.getByTestId<HTMLInputElement>(`tip-input-${id}`)
const submit = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send tips' })

describe('tip adjustment', () => {
  it('labels every field, and offers the override only for a tip above the limit', async () => {
    await renderApp(bridgeWithSales(), { screen: 'tips' })
    expect(screen.getByLabelText(/^Tip for USD 10.00/)).toBe(input('A'))
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0)
    fireEvent.change(input('A'), { target: { value: '2.01' } })
    expect(screen.getAllByRole('checkbox', { name: /^Allow above the limit for USD 10.00/ })).toHaveLength(1)
  })

  it('warns above the tolerance and needs the manager override before it sends', async () => {
    const { bridge } = await renderApp(bridgeWithSales(), { screen: 'tips' })
    expect(submit().disabled).toBe(true)
    fireEvent.change(input('A'), { target: { value: '2.01' } })
    expect(screen.getByTestId('tip-warning-A').textContent).toMatch(/More than 20% of the sale \(limit USD 2.00\)/)
    expect(input('A').getAttribute('aria-invalid')).toBe('true')
    expect(submit().disabled).toBe(true)
    // No staff on this terminal: nobody can approve, so the tick is asked about first.
    fireEvent.click(screen.getByTestId('tip-override-A'))
    expect(submit().disabled).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Allow this tip' }))
    expect(screen.getByTestId('tip-warning-A').textContent).toMatch(/Allowed above the limit/)
    expect(submit().disabled).toBe(false)
    fireEvent.change(input('B'), { target: { value: '500' } })
    expect(input('B').value).toBe('5.00')
    expect(screen.getByTestId('tip-total-USD').textContent).toContain('Tips USD 7.01')
    expect(screen.getByTestId('tip-total-USD').textContent).toContain('With tips USD 67.01')
    await act(async () => {
      fireEvent.click(submit())
    })
    expect(bridge.callsOf('adjustTip')).toEqual([
      { id: 'A', tipMinor: 201, managerOverride: true },
      { id: 'B', tipMinor: 500 },
    ])
    expect(screen.getByTestId('tip-row-A').textContent).toContain('Tip saved')
    // Saved above the limit with a manager's override: nothing asks for the override again.
    expect(screen.getByTestId('tip-warning-A').textContent).toMatch(/Saved, allowed above the limit/)
    expect(screen.getByTestId('tip-warning-A').className).not.toContain('field-error')
    expect(input('A').getAttribute('aria-invalid')).toBe('false')
    expect(screen.getByTestId('tips-submit-why').textContent).toBe('Type a tip first.')
  })

  it("keys a tip the sale's way: digits shift in as cents, a point writes the amount, anything else is not taken", async () => {
    const { bridge } = await renderApp(bridgeWithSales(), { screen: 'tips' })
    const key = (id: string, char: string) => fireEvent.change(input(id), { target: { value: input(id).value + char } })
    for (const char of '200') key('B', char)
    expect(input('B').value).toBe('2.00')
    key('B', 'x')
    expect(input('B').value).toBe('2.00')
    fireEvent.change(input('B'), { target: { value: '2.0' } })
    expect(input('B').value).toBe('0.20')
    // Typed as written: the point switches to decimals, never more than the currency has.
    fireEvent.change(input('A'), { target: { value: '1.234' } })
    expect(input('A').value).toBe('1.23')
    await act(async () => {
      fireEvent.click(submit())
    })
    expect(bridge.callsOf('adjustTip')).toEqual([
      { id: 'A', tipMinor: 123 },
      { id: 'B', tipMinor: 20 },
    ])
  })

  it('a row the agent refuses keeps its text and shows why', async () => {
    const bridge = bridgeWithSales().on('adjustTip', () => err('TIP_INVALID', 'a tip must be a whole, non-negative amount'))
    await renderApp(bridge, { screen: 'tips' })
    fireEvent.change(input('A'), { target: { value: '1' } })
    await act(async () => {
      fireEvent.click(submit())
    })
    expect(input('A').value).toBe('0.01')
    expect(screen.getByTestId('tip-row-A').textContent).toContain(ERROR_CATALOGUE.TIP_INVALID.words)
  })
})
