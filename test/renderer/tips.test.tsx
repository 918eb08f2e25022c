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
  it('labels every field and checkbox', async () => {
    await renderApp(bridgeWithSales(), { screen: 'tips' })
    expect(screen.getByLabelText(/^Tip for USD 10.00/)).toBe(input('A'))
    expect(screen.getAllByRole('checkbox', { name: /^Manager override for/ })).toHaveLength(2)
  })

  it('warns above the tolerance and needs the manager override before it sends', async () => {
    const { bridge } = await renderApp(bridgeWithSales(), { screen: 'tips' })
    expect(submit().disabled).toBe(true)
    fireEvent.change(input('A'), { target: { value: '2.01' } })
    expect(screen.getByTestId('tip-warning-A').textContent).toMatch(/More than 20% of the sale \(limit USD 2.00\)/)
    expect(input('A').getAttribute('aria-invalid')).toBe('true')
    expect(submit().disabled).toBe(true)
    fireEvent.click(screen.getByTestId('tip-override-A'))
    expect(screen.getByTestId('tip-warning-A').textContent).toMatch(/Manager override ticked/)
    expect(submit().disabled).toBe(false)
    fireEvent.change(input('B'), { target: { value: '5' } })
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
  })

  it('refuses text that is not an amount', async () => {
    const { bridge } = await renderApp(bridgeWithSales(), { screen: 'tips' })
    fireEvent.change(input('A'), { target: { value: '1.234' } })
    expect(screen.getByTestId('tip-warning-A').textContent).toMatch(/at most 2 decimals/)
    fireEvent.change(input('B'), { target: { value: '1' } })
    expect(submit().disabled).toBe(true)
    fireEvent.submit(submit().closest('form') as HTMLFormElement)
    expect(bridge.callsOf('adjustTip')).toEqual([])
  })

  it('a row the agent refuses keeps its text and shows why', async () => {
    const bridge = bridgeWithSales().on('adjustTip', () => err('TIP_INVALID', 'a tip must be a whole, non-negative amount'))
    await renderApp(bridge, { screen: 'tips' })
    fireEvent.change(input('A'), { target: { value: '1' } })
    await act(async () => {
      fireEvent.click(submit())
    })
    expect(input('A').value).toBe('1')
    expect(screen.getByTestId('tip-row-A').textContent).toContain(ERROR_CATALOGUE.TIP_INVALID.words)
  })
})
