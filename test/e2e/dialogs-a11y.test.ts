/**
 * The questions the terminal asks, checked with axe-core in Chromium against `pos-agent serve` in
 * training mode, on a desktop and on a small terminal display: confirming a large amount, the same
 * card and amount as a recent sale, and the integrator tokens of Settings (making one, the token
 * shown once, revoking it). Each is also read for internal words. A file of its own: its duplicate
 * sale must not meet the sales of the other accessibility tests.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { goTo, keyAmount, newSale, presentCard, waitForResult } from './cashier'
import { axeViolations } from './axe'
import { e2eComponentsPresent, screenshot } from './harness'
import { internalWordsIn } from '../support/internal-words'
import { useE2E } from './suite'

const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 480 },
] as const

describe.skipIf(!e2eComponentsPresent())('accessibility of the dialogs', () => {
  const e2e = useE2E('dialogs-a11y')

  /** axe and the internal words at each size; `secret` is left out of the words (a random token may look like code). */
  async function checkAtEachSize(page: Page, seen: Record<string, string[]>, name: string, secret?: string): Promise<void> {
    for (const size of SIZES) {
      await page.setViewportSize(size)
      let text = await page.locator('body').innerText()
      if (secret) text = text.split(secret).join(' ')
      const label = `${name}, ${size.width}x${size.height}`
      seen[label] = [...(await axeViolations(page)), ...internalWordsIn(text).map((word) => `internal word ${word}`)]
      await screenshot(page, `dialogs-${name.replace(/\W+/g, '-')}-${size.width}x${size.height}`)
    }
  }

  function report(seen: Record<string, string[]>): void {
    const found = Object.entries(seen).filter(([, violations]) => violations.length > 0)
    expect(found, found.map(([name, v]) => `${name}:\n  ${v.join('\n  ')}`).join('\n')).toEqual([])
  }

  it('axe-core reports no violation on the large-amount and duplicate-sale questions', async () => {
    const { page } = e2e.cashier
    const seen: Record<string, string[]> = {}
    const question = page.getByRole('alertdialog', { name: 'Charge USD 1,500.50?' })

    // A first sale above the confirmation amount: the terminal asks before the card.
    await keyAmount(page, '150050', '1,500.50')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await question.waitFor()
    await checkAtEachSize(page, seen, 'amount confirmation')
    await question.getByRole('button', { name: 'Charge USD 1,500.50' }).click()
    await waitForResult(page, 'approved')
    await newSale(page)

    // The same card for the same amount again: confirmed, then the duplicate question.
    await keyAmount(page, '150050', '1,500.50')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await question.getByRole('button', { name: 'Charge USD 1,500.50' }).click()
    const duplicate = page.getByTestId('duplicate-dialog')
    await duplicate.waitFor()
    expect(await duplicate.getAttribute('role')).toBe('alertdialog')
    await checkAtEachSize(page, seen, 'duplicate sale')
    await duplicate.getByRole('button', { name: 'Stop, do not charge' }).click()
    await waitForResult(page, 'abandoned')
    // The charge the cashier just refused is not offered again as the big button.
    expect(await page.getByTestId('charge-button').innerText()).not.toMatch(/again/)
    await newSale(page)

    report(seen)
    expect(Object.keys(seen)).toHaveLength(4)
  })

  it('axe-core reports no violation on the integrator tokens: making one, the token shown once, revoking it', async () => {
    const { page } = e2e.cashier
    const seen: Record<string, string[]> = {}
    await goTo(page, 'settings')
    const tokens = page.getByTestId('integrator-tokens')
    await tokens.getByTestId('no-tokens').waitFor()

    await tokens.getByTestId('token-name-input').fill('Till 2')
    await checkAtEachSize(page, seen, 'token, name typed')
    await tokens.getByTestId('create-token-button').click()
    const shown = page.getByRole('dialog', { name: 'Token for Till 2' }).getByTestId('new-token-text')
    await shown.waitFor()
    const secret = (await shown.innerText()).trim()
    expect(secret).toMatch(/^pat_/)
    await checkAtEachSize(page, seen, 'token shown once', secret)
    await page.getByRole('button', { name: 'Done, I have copied it' }).click()
    await page.getByTestId('new-token').waitFor({ state: 'detached' })
    expect(await page.locator('body').innerText()).not.toContain(secret)

    await tokens.getByRole('button', { name: 'Revoke Till 2' }).click()
    const revoke = page.getByRole('alertdialog', { name: 'Revoke the token for Till 2?' })
    await revoke.waitFor()
    await checkAtEachSize(page, seen, 'token, revoke question')
    await revoke.getByRole('button', { name: 'Revoke', exact: true }).click()
    await tokens.getByTestId('token-notice').filter({ hasText: 'is revoked' }).waitFor()
    await checkAtEachSize(page, seen, 'token revoked')

    report(seen)
    expect(Object.keys(seen)).toHaveLength(8)
  })
})
