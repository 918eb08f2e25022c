/**
 * The search above the transactions: the amount typed as at the counter, the card's last four digits,
 * the reference and the operator go to listSales as filters; the picker looks at today, an earlier
 * day or a closed batch; a whole card number is never kept or sent; Clear goes back to the open batch.
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { localDay } from '../../src-renderer/src/components/time-text'
import { err, FakeBridge, makeSale, ok } from './fake-bridge'
import { renderApp, typeChars } from './render-app'

const open = makeSale({ id: 'OPEN1', state: 'approved', amountMinor: 900, maskedPan: '541333******0434', createdAt: 1_700_000_000_000 })
const found = makeSale({
  id: 'OLD1',
  state: 'approved',
  amountMinor: 1250,
  maskedPan: '476173******0010',
  brand: 'VISA',
  reference: 'ECR-7',
  operatorId: '17',
  createdAt: 1_699_900_000_000,
})

function searchingBridge() {
  return new FakeBridge()
    .on('listSales', (r) => ok(Object.keys(r).length === 0 ? [open] : [found]))
    .on('listBatches', () =>
      ok([
        {
          number: 3,
          closedAt: 1_699_950_000_000,
          businessDay: '2023-11-14',
          saleCount: 4,
          managerOverride: false,
          totalMinor: { USD: 5000 },
        },
      ]),
    )
}

const lastSearch = (bridge: FakeBridge) => bridge.callsOf('listSales').at(-1)

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('search-button'))
  })
}

describe('finding sales on the transactions screen', () => {
  it('searches by the amount as cashiers key it and by the last four digits, and lists what it found', async () => {
    const bridge = searchingBridge()
    await renderApp(bridge, { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('find-sale'))
    const form = screen.getByRole('search', { name: 'Find sales' })
    expect(screen.getByTestId('sale-row-OPEN1')).toBeTruthy()

    const amount = within(form).getByLabelText<HTMLInputElement>('Amount (USD)')
    typeChars(amount, '1250')
    expect(amount.value).toBe('12.50')
    typeChars(within(form).getByLabelText<HTMLInputElement>('Card ends in'), '0010')
    await submit()
    expect(lastSearch(bridge)).toEqual({ amountMinor: 1250, last4: '0010' })
    expect(screen.getByTestId('sale-row-OLD1').textContent).toContain('476173******0010')
    expect(screen.queryByTestId('sale-row-OPEN1')).toBeNull()

    // A point types decimals, as at the counter; the reference is sent as typed.
    fireEvent.change(amount, { target: { value: '' } })
    typeChars(amount, '12.5')
    expect(amount.value).toBe('12.5')
    fireEvent.change(within(form).getByLabelText('Reference'), { target: { value: ' ECR-7 ' } })
    await act(async () => {
      fireEvent.submit(form)
    })
    expect(lastSearch(bridge)).toEqual({ amountMinor: 1250, last4: '0010', reference: 'ECR-7' })

    await act(async () => {
      fireEvent.click(screen.getByTestId('search-clear'))
    })
    expect(amount.value).toBe('')
    expect(screen.getByTestId('sale-row-OPEN1')).toBeTruthy()
    expect(screen.queryByTestId('sale-row-OLD1')).toBeNull()
  })

  it('picks today, an earlier day or a closed batch, in plain words', async () => {
    const bridge = searchingBridge()
    const { clock } = await renderApp(bridge, { screen: 'transactions' })
    // The search opens and asks for the closed batches to offer.
    await act(async () => {
      fireEvent.click(screen.getByTestId('find-sale'))
    })
    const where = screen.getByLabelText<HTMLSelectElement>('Show')
    expect([...where.options].map((o) => o.text)).toEqual([
      'Since the last close',
      'Today',
      'An earlier day',
      expect.stringMatching(/^Batch 3, closed \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
    ])
    await act(async () => {
      fireEvent.change(where, { target: { value: 'batch-3' } })
    })
    expect(lastSearch(bridge)).toEqual({ batch: 3 })
    expect(screen.getByTestId('sale-row-OLD1')).toBeTruthy()

    await act(async () => {
      fireEvent.change(where, { target: { value: 'today' } })
    })
    expect(lastSearch(bridge)).toEqual({ day: localDay(clock.now) })

    const before = bridge.callsOf('listSales').length
    await act(async () => {
      fireEvent.change(where, { target: { value: 'day' } })
    })
    await submit()
    expect(bridge.callsOf('listSales').length).toBe(before)
    expect(screen.getByRole('alert').textContent).toBe('Pick the day to look at.')
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2023-11-10' } })
    })
    expect(lastSearch(bridge)).toEqual({ day: '2023-11-10' })
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('never keeps a whole card number; four digits or nothing', async () => {
    const bridge = searchingBridge()
    await renderApp(bridge, { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('find-sale'))
    const last4 = screen.getByLabelText<HTMLInputElement>('Card ends in')
    fireEvent.change(last4, { target: { value: '4761739001010010' } })
    expect(last4.value).toBe('')
    expect(screen.getByRole('alert').textContent).toMatch(/only the last four digits/)
    typeChars(last4, '12')
    const before = bridge.callsOf('listSales').length
    await submit()
    expect(bridge.callsOf('listSales').length).toBe(before)
    expect(screen.getByRole('alert').textContent).toBe('Type the last four digits of the card.')
    expect(JSON.stringify(bridge.calls)).not.toContain('4761739001010010')
  })

  it('offers the operators once the terminal has them, and says so when nothing matches or the search fails', async () => {
    const bridge = searchingBridge()
      .on('counterOperator', () =>
        ok({
          required: true,
          operator: { id: '9', name: 'Maria', role: 'manager', createdAt: 1, disabled: false },
          voidWithoutManagerMinutes: 30,
        }),
      )
      .on('listOperators', () =>
        ok([
          { id: '9', name: 'Maria', role: 'manager' as const, createdAt: 1, disabled: false },
          { id: '17', name: 'Ann', role: 'cashier' as const, createdAt: 2, disabled: false },
        ]),
      )
    await renderApp(bridge, { screen: 'transactions' })
    // The search opens and asks for the operators to offer.
    await act(async () => {
      fireEvent.click(screen.getByTestId('find-sale'))
    })
    const operator = screen.getByLabelText<HTMLSelectElement>('Operator')
    expect([...operator.options].map((o) => o.text)).toEqual(['Anyone', 'Maria (9)', 'Ann (17)'])
    fireEvent.change(operator, { target: { value: '17' } })
    bridge.on('listSales', (r) => (Object.keys(r).length === 0 ? ok([open]) : ok([])))
    await submit()
    expect(lastSearch(bridge)).toEqual({ operatorId: '17' })
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('No sales match the search.')

    bridge.on('listSales', () => err('NO_SUCH_BATCH'))
    await submit()
    expect(screen.getByRole('alert').textContent).toMatch(/^The search did not work: /)
    expect(screen.getByRole('alert').textContent).not.toMatch(/NO_SUCH_BATCH/)
  })

  it('a terminal without operators has no operator picker', async () => {
    await renderApp(searchingBridge(), { screen: 'transactions' })
    fireEvent.click(screen.getByTestId('find-sale'))
    expect(screen.queryByLabelText('Operator')).toBeNull()
  })
})
