/**
 * When the host fails, in Chromium against `pos-agent serve` in training mode with faults switched
 * on the training host's admin endpoint: host down (HTTP 503) → approved offline and stored → host
 * back → forwarded; host that takes the payment and never answers → not completed, reversed.
 */
import { describe, expect, it } from 'vitest'
import { goTo, keyAmount, newSale, presentCard, rowStatus, salePrompt, sell, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('host faults in the browser', () => {
  const e2e = useE2E('host-faults')

  it('stores a sale offline while the host is down and forwards it once the host is back', async () => {
    const { page } = e2e.cashier
    const host = e2e.serve.host
    await host.setFault('*', 'http-503')

    const saleId = await sell(page, '2500', '25.00', 'storedOffline')
    expect(await page.getByTestId('result-heading').innerText()).toBe('Approved offline (stored)')
    expect(await page.getByTestId('sale-result').innerText()).toMatch(/stored on this terminal/i)
    await screenshot(page, 'offline-stored')
    // Nothing reached the host: every request got 503.
    expect((await host.ledger()).payments.filter((p) => p.merchantTransID === saleId)).toEqual([])
    // The receipt says so too.
    await page.getByTestId('show-receipt-button').click()
    const customerCopy = await page.getByTestId('receipt-customer').innerText()
    expect(customerCopy).toContain('APPROVED OFFLINE')
    expect(customerCopy).toMatch(/stored on this terminal, sent to the bank later/i)
    expect(customerCopy).toContain('TRAINING – NOT A VALID TRANSACTION')
    await screenshot(page, 'offline-stored-receipt')
    await page.getByTestId('close-receipt-button').click()
    await page.getByTestId('receipt').waitFor({ state: 'detached' })

    await newSale(page)
    await goTo(page, 'queue')
    await expect.poll(() => page.getByTestId('queue-count').innerText()).toBe('1')
    expect(await page.getByTestId('queue-stored-count').innerText()).toBe('1')
    expect(await page.getByTestId('queue-stored-amount').innerText()).toBe('USD 25.00')
    await expect.poll(() => page.getByTestId('queue-host').innerText()).toBe('Bank not reachable')
    expect(await page.getByTestId('waiting-items').innerText()).toContain(saleId)
    await screenshot(page, 'offline-queue-waiting')

    await goTo(page, 'transactions')
    await expect.poll(() => rowStatus(page, saleId).innerText()).toBe('Approved offline (stored)')

    // The host comes back; the cashier forwards now.
    await host.clearFaults()
    await goTo(page, 'queue')
    await page.getByTestId('forward-now-button').click()
    await expect.poll(() => page.getByTestId('queue-count').innerText(), { timeout: 15_000 }).toBe('0')
    expect(await page.getByTestId('queue-stored-count').innerText()).toBe('0')
    expect(await page.getByTestId('queue-stored-amount').innerText()).toBe('None')
    await expect.poll(() => page.getByTestId('queue-host').innerText()).toBe('Bank reachable')
    await screenshot(page, 'offline-queue-forwarded')

    await goTo(page, 'transactions')
    await expect.poll(() => rowStatus(page, saleId).innerText(), { timeout: 10_000 }).toBe('Approved offline, sent to the bank')
    await screenshot(page, 'offline-transactions-forwarded')

    const payment = (await host.ledger()).payments.find((p) => p.merchantTransID === saleId)
    expect(payment?.transAmount).toEqual({ currency: 'USD', value: '25.00' })
    expect(payment?.status).toBe('Captured')
  })

  it('reverses a sale the host took but never answered (process-then-drop)', async () => {
    const { page } = e2e.cashier
    const host = e2e.serve.host
    await host.setFault('payment', 'process-then-drop', 1)

    // The reversal is queued at once and usually acknowledged within a second: either state may show first.
    const saleId = await sell(page, '3000', '30.00', ['reversalPending', 'reversed'])
    expect(await page.getByTestId('result-heading').innerText()).toMatch(/^Not completed/)
    await waitForResult(page, 'reversed')
    expect(await page.getByTestId('result-heading').innerText()).toBe('Not completed (reversed)')
    expect(await page.getByTestId('sale-result').innerText()).toMatch(/does not pay/i)
    expect(await page.locator('[data-testid="result-auth-code"]').count()).toBe(0)
    expect(await salePrompt(page).innerText()).not.toMatch(/^Approved/)
    await screenshot(page, 'silent-host-reversed')

    const ledger = await host.ledger()
    const entries = ledger.entries.filter((e) => e.merchantTransID === saleId || e.originalMerchantTransID === saleId)
    expect(entries.map((e) => e.operation)).toEqual(['payment', 'reversal'])
    expect(entries[0]!.fault).toBe('process-then-drop')
    expect(ledger.payments.find((p) => p.merchantTransID === saleId)?.status).toBe('Reversed')

    await newSale(page)
    await goTo(page, 'transactions')
    await expect.poll(() => rowStatus(page, saleId).innerText()).toBe('Not completed (reversed)')
    await screenshot(page, 'silent-host-transactions')
  })

  it('reverses a sale whose answer comes after the response timeout (payment delayed 10 s; training timeout 8 s)', async () => {
    const { page } = e2e.cashier
    const host = e2e.serve.host
    await host.setFault('payment', 'delay=10000', 1)

    await keyAmount(page, '3500', '35.00')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await salePrompt(page)
      .filter({ hasText: /Processing/ })
      .waitFor()
    await screenshot(page, 'slow-host-waiting')
    const saleId = await waitForResult(page, ['reversalPending', 'reversed'], 20_000)
    expect(await page.getByTestId('result-heading').innerText()).toMatch(/^Not completed/)
    await waitForResult(page, 'reversed')
    await screenshot(page, 'slow-host-reversed')

    // The reversal overtook the late payment at the host, which then refuses the payment (B0042).
    await expect
      .poll(async () => (await host.ledger()).payments.find((p) => p.merchantTransID === saleId)?.status, {
        timeout: 10_000,
        interval: 250,
      })
      .toBe('Failed')
    const ledger = await host.ledger()
    expect(ledger.payments.find((p) => p.merchantTransID === saleId)?.failureCode).toBe('B0042')
    const entries = ledger.entries.filter((e) => e.merchantTransID === saleId || e.originalMerchantTransID === saleId)
    expect(entries.map((e) => e.operation)).toEqual(['reversal', 'payment'])
  }, 60_000)
})
