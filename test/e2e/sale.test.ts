/**
 * The sale at the counter, in Chromium against `pos-agent serve` in training mode: an approved chip
 * sale with its receipt, and a declined one (the training host declines amounts ending in 51).
 */
import { describe, expect, it } from 'vitest'
import { fact, keyAmount, receiptField, newSale, presentCard, salePrompt, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('sale in the browser', () => {
  const e2e = useE2E('sale')

  it('approves a chip sale keyed on the keypad and shows its receipt', async () => {
    const { page } = e2e.cashier
    await keyAmount(page, '1234', '12.34')
    await expect.poll(() => page.getByTestId('charge-button').innerText()).toMatch(/^Charge .*12\.34$/)
    await page.getByTestId('charge-button').click()

    // Nobody has presented a card yet: the reader asks for one.
    await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
    expect(await page.getByTestId('amount-input').inputValue()).toBe('12.34')
    expect(await page.getByTestId('cancel-sale-button').isEnabled()).toBe(true)
    await screenshot(page, 'sale-waiting-for-card')

    await presentCard(page, 'chip-visa')
    const saleId = await waitForResult(page, 'approved')
    expect(await page.getByTestId('result-heading').innerText()).toBe('Approved')
    const authCode = await page.getByTestId('result-auth-code').innerText()
    expect(authCode).toMatch(/^[A-Z0-9]{6}$/)
    const card = await fact(page.getByTestId('sale-result'), 'Card').innerText()
    expect(card).toContain('0010')
    expect(card).toContain('Chip')
    await screenshot(page, 'sale-approved')

    // The host has the same payment with the same authorisation code.
    const ledger = await e2e.serve.host.ledger()
    const payment = ledger.payments.find((p) => p.authorizationCode === authCode)
    expect(payment, `ledger payment with auth code ${authCode}: ${JSON.stringify(ledger.payments)}`).toBeDefined()
    expect(payment!.transAmount).toEqual({ currency: 'USD', value: '12.34' })
    expect(payment!.maskedPan).toMatch(/^476173\*+0010$/)

    await page.getByTestId('show-receipt-button').click()
    const receipt = page.getByTestId('receipt')
    await receipt.waitFor()
    for (const copy of ['merchant', 'customer'] as const) {
      const scope = page.getByTestId(`receipt-${copy}`)
      const masked = await receiptField(scope, 'Card').innerText()
      expect(masked).toMatch(/0010$/)
      expect(masked).not.toContain('4761739001010010')
      expect(masked).toMatch(/[*•]/)
      expect(await receiptField(scope, 'Entry').innerText()).toBe('Chip')
      expect(await receiptField(scope, 'AID').innerText()).toBe('A0000000031010')
      expect(await receiptField(scope, 'Application').innerText()).toBe('VISA CREDIT')
      expect(await receiptField(scope, 'Auth code').innerText()).toBe(authCode)
      expect(await receiptField(scope, 'Transaction').innerText()).toBe(saleId)
      expect(await receiptField(scope, 'TOTAL').innerText()).toBe('USD 12.34')
      expect(await scope.innerText()).toContain('APPROVED')
      expect(await scope.innerText()).toContain(copy === 'merchant' ? 'MERCHANT COPY' : 'CUSTOMER COPY')
    }
    await screenshot(page, 'sale-approved-receipt')
    // Training mode drives a simulated receipt printer: Print sends both copies to it.
    await page.getByTestId('print-receipt-button').click()
    await expect.poll(() => page.getByTestId('receipt-notice').innerText(), { timeout: 10_000 }).toBe('Receipt printed.')
    await page.getByTestId('close-receipt-button').click()
    await receipt.waitFor({ state: 'detached' })
    await newSale(page)
  })

  it('shows a declined sale with the reason, and nothing approved at the host', async () => {
    const { page } = e2e.cashier
    await keyAmount(page, '1051', '10.51')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('amount-input').press('Enter')
    const saleId = await waitForResult(page, 'declined')
    expect(await page.getByTestId('result-heading').innerText()).toBe('Declined')
    expect(await page.getByTestId('result-reason').innerText()).toMatch(/insufficient funds/i)
    expect(await page.locator('[data-testid="result-auth-code"]').count()).toBe(0)
    await screenshot(page, 'sale-declined')

    const ledger = await e2e.serve.host.ledger()
    const payment = ledger.payments.find((p) => (p.transAmount as { value?: string }).value === '10.51')
    expect(payment?.status, JSON.stringify(ledger.payments)).toBe('Failed')
    expect(saleId).not.toBe('')
  })
})
