/**
 * The sale screen on the displays countertop terminals have (800x480, 1024x768) and on a desktop
 * (1280x800), in Chromium against `pos-agent serve` in training mode: for an approved sale, a declined
 * one and one the bank could not be reached for, the amount, the live prompt, Charge and Cancel while
 * the card is asked for, and the result with its next step are on screen without scrolling, measured
 * on element boxes; prompts wrap rather than being cut; the screen buttons fold into a menu on the
 * small displays. Screenshots of each go to test-artifacts/e2e/layout-*.png.
 */
import { describe, expect, it } from 'vitest'
import type { SaleState } from '../../src-shared/contract'
import { fact, keyAmount, newSale, presentCard, salePrompt, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { cutText, notInView, pageScrolls } from './in-view'
import { internalWords } from './plain-words'
import { useE2E } from './suite'
import type { TestCardName } from '../../src-main/training'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

interface Outcome {
  name: string
  /** The last two digits of the amount (the training host declines amounts ending in 51). */
  cents: string
  card: TestCardName
  hostDown: boolean
  state: SaleState
  heading: string
}

const OUTCOMES: readonly Outcome[] = [
  { name: 'approved', cents: '23', card: 'chip-visa', hostDown: false, state: 'approved', heading: 'Approved' },
  { name: 'declined', cents: '51', card: 'chip-visa', hostDown: false, state: 'declined', heading: 'Declined' },
  // A swiped card may not be approved offline: with the bank down the sale is refused, and says why.
  { name: 'no-bank', cents: '77', card: 'swipe-magstripe', hostDown: true, state: 'declined', heading: 'Could not reach the bank' },
]

const PROMPT_TEXT = '[data-testid="sale-prompt"] .prompt-text, [data-testid="sale-prompt"] .prompt-detail'

describe.skipIf(!e2eComponentsPresent())('the sale screen at terminal screen sizes', () => {
  const e2e = useE2E('layout')

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`
    const small = size.width < 1200

    it(`${label}: the essentials of the sale stay in view for every outcome`, async () => {
      const { page } = e2e.cashier
      await page.setViewportSize(size)

      // The screen buttons: folded into a menu on a small display, a row on a large one.
      if (small) {
        expect(await page.getByTestId('nav-menu').isVisible()).toBe(true)
        expect(await page.getByTestId('nav-transactions').isVisible()).toBe(false)
        await page.getByTestId('nav-menu').click()
        expect(await notInView(page, ['nav-transactions', 'nav-settings'])).toEqual([])
        await page.keyboard.press('Escape')
        await expect.poll(() => page.getByTestId('nav-transactions').isVisible()).toBe(false)
      } else {
        expect(await page.getByTestId('nav-menu').isVisible()).toBe(false)
        expect(await notInView(page, ['nav-sale', 'nav-transactions', 'nav-settings'])).toEqual([])
      }

      for (const outcome of OUTCOMES) {
        const whole = String(size.width / 16)
        await keyAmount(page, `${whole}${outcome.cents}`, `${whole}.${outcome.cents}`)
        expect(await notInView(page, ['amount-input', 'charge-button', 'sale-prompt'])).toEqual([])
        if (outcome.hostDown) await e2e.serve.host.setFault('*', 'http-503')

        await page.getByTestId('charge-button').click()
        await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
        // While the card is asked for: the amount, the prompt, Charge (greyed, saying why), Cancel, the test card.
        const reading = ['amount-input', 'charge-button', 'sale-prompt', 'cancel-sale-button', 'test-card-picker']
        expect(await notInView(page, reading), `${label} ${outcome.name}, card asked for`).toEqual([])
        expect(await cutText(page, PROMPT_TEXT)).toEqual([])
        await screenshot(page, `layout-${label}-${outcome.name}-card`)

        await presentCard(page, outcome.card)
        await waitForResult(page, outcome.state)
        expect(await page.getByTestId('result-heading').innerText()).toBe(outcome.heading)
        // A refusal's reason too: the cashier tells the customer why.
        const result = [
          'amount-input',
          'charge-button',
          'sale-prompt',
          'result-heading',
          'new-sale-button',
          ...(outcome.state === 'declined' ? ['result-reason'] : []),
        ]
        expect(await notInView(page, result), `${label} ${outcome.name}, result`).toEqual([])
        expect(await cutText(page, PROMPT_TEXT)).toEqual([])
        // The result is said once: the heading, not again in a second box.
        expect(await page.getByTestId('sale-result').getByText(outcome.heading, { exact: true }).count()).toBe(1)
        if (outcome.state === 'approved') expect((await page.locator('main').innerText()).split('Approved')).toHaveLength(2)
        expect(await pageScrolls(page)).toEqual({ horizontal: false, vertical: false })
        expect(await internalWords(page)).toEqual([])
        await screenshot(page, `layout-${label}-${outcome.name}-result`)

        if (outcome.hostDown) await e2e.serve.host.clearFaults()
        await newSale(page)
      }
    })
  }

  it('360 px wide: the card number wraps inside the screen, nothing runs off the edge', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize({ width: 360, height: 640 })
    await keyAmount(page, '3699', '36.99')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await waitForResult(page, 'approved')
    // One column: the result comes first, with its next step.
    expect(await notInView(page, ['result-heading', 'new-sale-button'])).toEqual([])
    const card = await fact(page.getByTestId('sale-result'), 'Card').boundingBox()
    expect(card).not.toBeNull()
    expect(card!.x + card!.width).toBeLessThanOrEqual(360)
    expect((await pageScrolls(page)).horizontal).toBe(false)
    await screenshot(page, 'layout-360x640-approved')
  })
})
