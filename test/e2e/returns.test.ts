/**
 * A return in Chromium against `pos-agent serve` in training mode: a sale, then part of it returned
 * from the transactions list with the customer presenting the same card again (the training card
 * picker in the return dialog); the dialog says how it ended in plain words, passes axe, and the
 * training host's ledger holds the credit exactly once, to the card the sale was paid with.
 */
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { goTo, newSale, presentCard, rowStatus, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { internalWords } from './plain-words'
import { notInView } from './in-view'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('a return in the browser', () => {
  const e2e = useE2E('returns')

  it('returns part of a sale to the same card, presented again; the host credits it once', async () => {
    const { page } = e2e.cashier
    const saleId = await sell(page, '4000', '40.00', 'approved')
    await newSale(page)

    await goTo(page, 'transactions')
    await expect.poll(() => rowStatus(page, saleId).innerText()).toBe('Approved')
    await page.getByTestId(`return-${saleId}`).click()
    const panel = page.getByTestId('return-panel')
    await panel.waitFor()
    expect(await panel.getByRole('heading').innerText()).toBe('Return on the sale of USD 40.00')
    // No staff: the dialog never promises a manager's approval nobody can give.
    expect(await panel.innerText()).toContain('The customer presents the same card, once you confirm the return.')
    // What is left to return is offered as a button, never filled in; the cashier returns part of it.
    expect(await panel.getByTestId('return-amount').inputValue()).toBe('')
    await panel.getByTestId('return-all-left').click()
    expect(await panel.getByTestId('return-amount').inputValue()).toBe('40.00')
    expect(await axeViolations(page)).toEqual([])
    await panel.getByTestId('return-amount').fill('15.00')
    await screenshot(page, 'return-amount')
    await panel.getByTestId('return-start-button').click()
    // No staff on this terminal: nobody approves, so the cashier sees what the return credits and
    // confirms it before the card prompt; Back returns to the amount, the safe answer has the focus.
    const confirm = panel.getByTestId('return-confirm')
    await confirm.waitFor()
    expect(await panel.getByTestId('return-confirm-what').innerText()).toMatch(
      /^Return USD 15\.00 to .+, from the sale of USD 40\.00 at \d{2}:\d{2}\.$/,
    )
    expect(await confirm.innerText()).toContain('no manager can approve this return')
    expect(await page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('data-testid')")).toBe(
      'return-confirm-back',
    )
    expect(await panel.getByTestId('test-card-picker').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    for (const size of [
      { width: 800, height: 480 },
      { width: 1024, height: 768 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size)
      expect(await notInView(page, ['return-confirm-what', 'return-confirm-button', 'return-confirm-back'])).toEqual([])
      await screenshot(page, `return-confirm-${size.width}x${size.height}`)
    }
    await panel.getByTestId('return-confirm-back').click()
    expect(await panel.getByTestId('return-amount').inputValue()).toBe('15.00')
    await panel.getByTestId('return-start-button').click()
    await panel.getByTestId('return-confirm-button').click()

    // The reader waits for the card: the customer holds out the same card, picked in the dialog.
    const prompt = panel.getByRole('status', { name: 'Return status' })
    await prompt.waitFor()
    await panel.getByTestId('test-card-picker').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await screenshot(page, 'return-present-card')
    await presentCard(page, 'chip-visa', panel)

    await prompt.filter({ hasText: 'Returned' }).waitFor({ timeout: 20_000 })
    expect(await prompt.innerText()).toContain('The bank credited the amount back to the card.')
    expect(await internalWords(page)).toEqual([])
    expect(await axeViolations(page)).toEqual([])
    await screenshot(page, 'return-done')
    await panel.getByTestId('return-done-button').click()
    await panel.waitFor({ state: 'detached' })

    // The list shows the return in its own row, in plain words.
    const returnRow = page.locator('[data-testid^="sale-row-"]').filter({ hasText: 'Return USD 15.00' })
    await returnRow.waitFor()
    const returnId = (await returnRow.getAttribute('data-testid'))!.replace('sale-row-', '')
    expect(returnId).not.toBe(saleId)

    const ledger = await e2e.serve.host.ledger()
    const credits = ledger.entries.filter((entry) => entry.operation === 'merchandiseCredit')
    expect(credits).toHaveLength(1)
    expect(credits[0]).toMatchObject({ merchantTransID: returnId, status: 'Success', amount: { currency: 'USD', value: '15.00' } })
    // To the card the sale was paid with; the sale itself stands (a return is not a void).
    const payment = ledger.payments.find((p) => p.merchantTransID === saleId)
    expect(credits[0]!.maskedPan).toBe(payment?.maskedPan)
    expect(payment?.status).not.toMatch(/Cancel|Void/i)
    expect(ledger.entries.filter((entry) => entry.merchantTransID === saleId).map((entry) => entry.operation)).toEqual(['payment'])
  })
})
