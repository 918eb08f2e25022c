import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FakeBridge, makeReport, makeSale, ok } from './fake-bridge'
import { renderApp } from './render-app'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('close of day', () => {
  it('shows the blocked reason and keeps the close button disabled', async () => {
    const report = makeReport({
      closable: false,
      blockedReason: '1 reversal(s) are still waiting for the host: the day closes once they are acknowledged',
    })
    const { bridge } = await renderApp(
      new FakeBridge().on('dayReport', () => ok(report)),
      { screen: 'closeOfDay' },
    )
    expect(screen.getByTestId('close-blocked-reason').textContent).toContain('1 reversal(s) are still waiting for the bank')
    const close = screen.getByRole<HTMLButtonElement>('button', { name: 'Close the day' })
    expect(close.disabled).toBe(true)
    fireEvent.click(close)
    expect(bridge.callsOf('closeDay')).toEqual([])
  })

  it('shows counts, totals per brand and currency and tips; closes after confirmation', async () => {
    const report = makeReport({
      counts: {
        approved: 3,
        declined: 1,
        offline: 1,
        stored: 1,
        reversed: 0,
        cancelled: 0,
        needsAttention: 0,
        abandoned: 2,
        notReceived: 0,
        returns: 0,
      },
      totals: [
        { currency: 'USD', brand: 'VISA', count: 2, amountMinor: 3000, tipMinor: 300 },
        { currency: 'USD', brand: 'MASTERCARD', count: 1, amountMinor: 1000, tipMinor: 0 },
      ],
      tipsMinor: { USD: 300 },
    })
    const bridge = new FakeBridge()
      .on('dayReport', () => ok(report))
      .on('closeDay', (r) =>
        ok({ ...report, batch: { number: r.batch ?? 0, closedAt: Date.parse('2026-01-15T18:00:00Z') }, closable: false }),
      )
    await renderApp(bridge, { screen: 'closeOfDay' })
    expect(screen.getByTestId('day-counts').textContent).toContain('Approved3')
    expect(screen.getByTestId('day-totals').textContent).toContain('VISAUSD2USD 30.00USD 3.00')
    expect(screen.getByTestId('day-tips').textContent).toBe('USD 3.00')
    fireEvent.click(screen.getByRole('button', { name: 'Close the day' }))
    const dialog = screen.getByRole('alertdialog')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Close the day' }))
    })
    expect(bridge.callsOf('closeDay')).toEqual([{ batch: 4 }])
    expect(screen.getByTestId('close-notice').textContent).toBe('Batch 4 closed.')
  })

  it('counts a payment refused at the counter because the bank could not be reached under Declined, saying so as the counter did', async () => {
    const report = makeReport({
      counts: { ...makeReport().counts, declined: 2 },
      sales: [
        makeSale({ id: 'T-0001-00000001', state: 'declined', offline: true, amountMinor: 30_000 }),
        makeSale({ id: 'T-0001-00000002', state: 'declined', offline: false }),
        makeSale({ id: 'T-0001-00000003', state: 'approved', offline: true }),
      ],
    })
    await renderApp(
      new FakeBridge().on('dayReport', () => ok(report)),
      { screen: 'closeOfDay' },
    )
    const counts = screen.getByTestId('day-counts').textContent
    expect(counts).toContain('Declined2Refused, or the bank could not be reached; nothing charged.')
    expect(counts).toContain('of these, bank not reached1Could not be approved offline; nothing charged.')
  })

  it('exports CSV as a downloaded file', async () => {
    const bridge = new FakeBridge().on('exportDay', (r) =>
      ok({ filename: `day.${r.format}`, contentType: 'text/csv', content: 'id,state\n' }),
    )
    const created: Blob[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob)
      return 'blob:fake'
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    const clicks: HTMLAnchorElement[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this)
    })
    await renderApp(bridge, { screen: 'closeOfDay' })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }))
    })
    expect(bridge.callsOf('exportDay')).toEqual([{ format: 'csv', batch: 4 }])
    expect(clicks.map((a) => a.download)).toEqual(['day.csv'])
    expect(await created[0]?.text()).toBe('id,state\n')
  })
})

describe('batches', () => {
  it('names the open batch, says the close closes it, and shows an earlier batch picked from the list', async () => {
    const closedAt = new Date(2026, 0, 14, 22, 5).getTime()
    const bridge = new FakeBridge()
      .on('dayReport', (r) =>
        ok(
          r.batch === 3
            ? makeReport({ batch: { number: 3, closedAt }, closable: false, businessDay: '2026-01-14' })
            : makeReport({ batch: { number: 4 } }),
        ),
      )
      .on('listBatches', () =>
        ok([{ number: 3, closedAt, businessDay: '2026-01-14', managerOverride: false, saleCount: 12, totalMinor: { USD: 12345 } }]),
      )
    await renderApp(bridge, { screen: 'closeOfDay' })
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Close of day: Batch 4 (open)')
    fireEvent.click(screen.getByRole('button', { name: 'Close the day' }))
    expect(screen.getByRole('alertdialog', { name: 'Close batch 4?' }).textContent).toContain('Closing closes batch 4')
    fireEvent.click(screen.getByRole('button', { name: 'Not yet' }))

    const picker = screen.getByTestId<HTMLSelectElement>('batch-picker')
    expect([...picker.options].map((o) => o.textContent)).toEqual(['The open batch', 'Batch 3, closed 2026-01-14 22:05 (12 transactions)'])
    await act(async () => {
      fireEvent.change(picker, { target: { value: '3' } })
    })
    expect(bridge.callsOf('dayReport').at(-1)).toEqual({ batch: 3 })
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Close of day: Batch 3, closed at 2026-01-14 22:05')
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Close the day' }).disabled).toBe(true)
  })
})

describe('shifts', () => {
  it("lists each operator's shifts in local time with what they charged, the open one as still signed in", async () => {
    const at = (hours: number, minutes: number, day = 15) => new Date(2026, 0, day, hours, minutes).getTime()
    const report = makeReport({
      byShift: [
        { operatorId: '17', start: at(9, 0), end: at(13, 30), count: 2, amountMinor: { USD: 3000 }, tipMinor: { USD: 300 } },
        { operatorId: '23', start: at(13, 30), end: at(14, 0), count: 0, amountMinor: {}, tipMinor: {} },
        { operatorId: '9', start: at(22, 0, 14), end: at(1, 15), count: 1, amountMinor: { USD: 500 }, tipMinor: { USD: 0 } },
        { operatorId: '17', start: at(14, 5), count: 1, amountMinor: { USD: 700 }, tipMinor: { USD: 0 } },
      ],
    })
    await renderApp(
      new FakeBridge().on('dayReport', () => ok(report)),
      { screen: 'closeOfDay' },
    )
    expect(screen.getByRole('heading', { name: 'Shifts at the counter' })).toBeTruthy()
    const rows = within(screen.getByTestId('day-shifts'))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      )
    expect(rows).toEqual([
      ['Operator 17', '09:00 to 13:30', '2', 'USD 33.00 (USD 3.00 of it tips)'],
      ['Operator 23', '13:30 to 14:00', '0', 'nothing'],
      ['Operator 9', '22:00 to 2026-01-15 01:15', '1', 'USD 5.00'],
      ['Operator 17', 'since 14:05, still signed in', '1', 'USD 7.00'],
    ])
  })

  it('says so when no one signed in, and reads a report from an agent that sends no shifts', async () => {
    const { byShift: _byShift, ...older } = makeReport()
    await renderApp(
      new FakeBridge().on('dayReport', () => ok(older as ReturnType<typeof makeReport>)),
      { screen: 'closeOfDay' },
    )
    expect(screen.getByText('No one signed in at the counter in this batch.')).toBeTruthy()
  })
})
