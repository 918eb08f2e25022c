/**
 * The receipt dialog sends the receipt where the terminal can: the receipt printer (its state said
 * before the cashier presses Print, a refusal in plain words), the customer's email, or the browser's
 * printing when the terminal has no receipt printer.
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { err, FakeBridge, makeAppInfo, makeReport, makeSale, ok } from './fake-bridge'
import { renderApp, typeChars } from './render-app'

function bridgeWith(receipts: { printer: boolean; email: boolean }) {
  return new FakeBridge()
    .on('appInfo', () => ok(makeAppInfo({ receipts })))
    .on('startSale', (r) =>
      ok(makeSale({ id: 'S1', state: 'approved', amountMinor: r.amountMinor, maskedPan: '476173******0010', authCode: 'OK1' })),
    )
}

async function openReceipt(bridge: FakeBridge) {
  await renderApp(bridge)
  typeChars(screen.getByTestId<HTMLInputElement>('amount-input'), '1234')
  await act(async () => {
    fireEvent.keyDown(screen.getByTestId('amount-input'), { key: 'Enter' })
  })
  await act(async () => {
    fireEvent.click(screen.getByTestId('show-receipt-button'))
  })
  return screen.getByTestId('receipt')
}

/** The browser's print dialog (happy-dom has none): a stand-in that records the call. */
function stubBrowserPrint() {
  const print = vi.fn()
  Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true })
  return print
}

afterEach(() => {
  Reflect.deleteProperty(window, 'print')
})

describe('the receipt dialog', () => {
  it('prints on the receipt printer, saying first that the paper is low, and how it went', async () => {
    const bridge = bridgeWith({ printer: true, email: false })
      .on('printerStatus', () => ok({ configured: true, state: 'paperLow', paperMm: 80 }))
      .on('printReceipt', () => ok({ configured: true, state: 'paperLow', paperMm: 80 }))
    const browserPrint = stubBrowserPrint()
    const receipt = await openReceipt(bridge)
    expect(within(receipt).getByTestId('printer-state').textContent).toBe('Printer paper low')
    await act(async () => {
      fireEvent.click(within(receipt).getByRole('button', { name: 'Print receipt' }))
    })
    expect(bridge.callsOf('printReceipt')).toEqual([{ id: 'S1' }])
    expect(browserPrint).not.toHaveBeenCalled()
    expect(within(receipt).getByTestId('receipt-notice').textContent).toBe('Receipt printed. Printer paper low: change the roll soon.')
  })

  it('says in plain words why nothing was printed', async () => {
    const bridge = bridgeWith({ printer: true, email: false })
      .on('printerStatus', () => ok({ configured: true, state: 'ready', paperMm: 80 }))
      .on('printReceipt', () => err('PRINTER_PAPER_OUT', 'the printer reports its paper roll empty'))
    const receipt = await openReceipt(bridge)
    expect(within(receipt).queryByTestId('printer-state')).toBeNull()
    await act(async () => {
      fireEvent.click(within(receipt).getByRole('button', { name: 'Print receipt' }))
    })
    const notice = within(receipt).getByTestId('receipt-notice').textContent ?? ''
    expect(notice).toMatch(/^Not printed: The receipt printer is out of paper\. Put in a new roll/)
    expect(notice).not.toMatch(/PRINTER_|roll empty/)
  })

  it("emails the customer's copy to the address typed", async () => {
    const bridge = bridgeWith({ printer: false, email: true }).on('emailReceipt', (r) => ok({ to: r.to }))
    const receipt = await openReceipt(bridge)
    const send = within(receipt).getByRole('button', { name: 'Email receipt' })
    expect(send).toHaveProperty('disabled', true)
    typeChars(within(receipt).getByLabelText("Customer's email"), ' ann@example.com ')
    await act(async () => {
      fireEvent.click(send)
    })
    expect(bridge.callsOf('emailReceipt')).toEqual([{ id: 'S1', to: 'ann@example.com' }])
    expect(within(receipt).getByTestId('receipt-notice').textContent).toBe('Receipt sent to ann@example.com.')
  })

  it('prints through the browser when the terminal has no receipt printer, and offers no email it cannot send', async () => {
    const bridge = bridgeWith({ printer: false, email: false })
    const browserPrint = stubBrowserPrint()
    const receipt = await openReceipt(bridge)
    expect(within(receipt).queryByLabelText("Customer's email")).toBeNull()
    fireEvent.click(within(receipt).getByRole('button', { name: 'Print receipt' }))
    expect(browserPrint).toHaveBeenCalledOnce()
    expect(bridge.callsOf('printReceipt')).toEqual([])
  })
})

describe('the day report on the receipt printer', () => {
  it("prints the open batch's X-report and a closed batch's Z-report, and says when it could not", async () => {
    let printed = 0
    const bridge = new FakeBridge()
      .on('appInfo', () => ok(makeAppInfo({ receipts: { printer: true, email: false } })))
      .on('dayReport', (r) => ok(makeReport(r.batch === undefined ? {} : { batch: { number: r.batch, closedAt: 1_700_000_000_000 } })))
      .on('listBatches', () => ok([]))
      .on('printDayReport', () => (++printed === 1 ? ok({ configured: true, state: 'ready' }) : err('PRINTER_OFFLINE', 'no answer')))
    const { store } = await renderApp(bridge, { screen: 'closeOfDay' })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Print X-report' }))
    })
    expect(bridge.callsOf('printDayReport')).toEqual([{}])
    expect(screen.getByTestId('print-report-notice').textContent).toBe('Report printed.')
    await act(async () => {
      await store.getState().viewBatch(3)
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Print Z-report' }))
    })
    expect(bridge.callsOf('printDayReport')).toEqual([{}, { batch: 3 }])
    expect(screen.getByTestId('print-report-notice').textContent).toMatch(/^Not printed: The receipt printer is not answering/)
  })
})
