/**
 * The sale screen on the displays countertop terminals have (800x480, 1024x768) and on a desktop
 * (1280x800), in Chromium against `pos-agent serve` in training mode: for every way a sale ends at
 * the counter (approved, declined, the bank not reached, approved offline and stored, cancelled by
 * the cashier, being reversed and reversed after the bank's answer was lost; the bank's faults are
 * switched on at the training host), the amount, the live prompt, Charge and Cancel while the
 * card is asked for, and the result with its reason and next step are on screen without scrolling,
 * measured on element boxes; prompts and reasons wrap rather than being cut; no internal word shows;
 * the screen buttons fold into a menu on the small displays. Screenshots of each go to test-artifacts/e2e/layout-*.png.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { SaleState } from '../../src-shared/contract'
import { fact, goTo, keyAmount, newSale, presentCard, salePrompt, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { cutText, notInView, pageScrolls } from './in-view'
import { internalWords } from './plain-words'
import { posValue } from './pos-api'
import { useE2E } from './suite'
import type { TestCardName } from '../../src-main/training'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

/** A fault switched on at the training host before the charge (cleared after the result). */
interface Fault {
  operation: string
  fault: string
  times?: number
}

interface Outcome {
  name: string
  /** The last two digits of the amount (the training host declines amounts ending in 51). */
  cents: string
  /** The card the customer presents; null: the cashier cancels while the card is asked for. */
  card: TestCardName | null
  faults: readonly Fault[]
  state: SaleState
  heading: string
  /** Whether the result says why under its heading (a refusal, a reversal, a cancel). */
  reason: boolean
  /**
   * What the sale becomes once the bank is back and the queue is sent: the next sale waits for it, so
   * a stored payment forwarded later never meets (and uses up) a fault meant for another sale.
   */
  settles?: SaleState
}

const BANK_DOWN: Fault = { operation: '*', fault: 'http-503' }

/** The bank answers. */
const ANSWERED: readonly Outcome[] = [
  { name: 'approved', cents: '23', card: 'chip-visa', faults: [], state: 'approved', heading: 'Approved', reason: false },
  { name: 'declined', cents: '51', card: 'chip-visa', faults: [], state: 'declined', heading: 'Declined', reason: true },
  // A swiped card may not be approved offline: with the bank down the sale is refused, and says why.
  {
    name: 'no-bank',
    cents: '77',
    card: 'swipe-magstripe',
    faults: [BANK_DOWN],
    state: 'declined',
    heading: 'Could not reach the bank',
    reason: true,
  },
]

/** Every other way a sale ends at the counter. */
const OTHER_ENDINGS: readonly Outcome[] = [
  // A chip card under the offline limit, the bank down: approved by the terminal and stored.
  {
    name: 'offline',
    cents: '25',
    card: 'chip-visa',
    faults: [BANK_DOWN],
    state: 'storedOffline',
    heading: 'Approved offline (stored)',
    reason: false,
    settles: 'forwarded',
  },
  { name: 'cancelled', cents: '31', card: null, faults: [], state: 'abandoned', heading: 'Not completed', reason: true },
  // The bank takes the payment and its answer is lost; the reversal cannot get through yet.
  {
    name: 'reversal-pending',
    cents: '41',
    card: 'chip-visa',
    faults: [
      { operation: 'payment', fault: 'process-then-drop', times: 1 },
      { operation: 'reversal', fault: 'http-503' },
    ],
    state: 'reversalPending',
    heading: 'Not completed (being reversed)',
    reason: true,
    settles: 'reversed',
  },
  // The same, and the reversal goes through at once.
  {
    name: 'reversed',
    cents: '43',
    card: 'chip-visa',
    faults: [{ operation: 'payment', fault: 'process-then-drop', times: 1 }],
    state: 'reversed',
    heading: 'Not completed (reversed)',
    reason: true,
  },
]

const PROMPT_TEXT = '[data-testid="sale-prompt"] .prompt-text, [data-testid="sale-prompt"] .prompt-detail'

describe.skipIf(!e2eComponentsPresent())('the sale screen at terminal screen sizes', () => {
  const e2e = useE2E('layout')

  /**
   * One sale to its end at the page's size: the amount, prompt, Charge and Cancel while the card is
   * asked for, then the result with its heading, its reason and the next step, all in view.
   */
  async function saleEndsInView(page: Page, label: string, width: number, outcome: Outcome): Promise<void> {
    const whole = String(width / 16)
    const shown = `${whole}.${outcome.cents}`
    await keyAmount(page, `${whole}${outcome.cents}`, shown)
    expect(await notInView(page, ['amount-input', 'charge-button', 'sale-prompt'])).toEqual([])
    for (const { operation, fault, times } of outcome.faults) await e2e.serve.host.setFault(operation, fault, times)

    await page.getByTestId('charge-button').click()
    await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
    // While the card is asked for: the amount, the prompt, Charge (greyed, saying why), Cancel, the test card.
    const reading = ['amount-input', 'charge-button', 'sale-prompt', 'cancel-sale-button', 'test-card-picker']
    expect(await notInView(page, reading), `${label} ${outcome.name}, card asked for`).toEqual([])
    expect(await cutText(page, PROMPT_TEXT)).toEqual([])
    if (outcome.card) {
      await screenshot(page, `layout-${label}-${outcome.name}-card`)
      await presentCard(page, outcome.card)
    } else {
      // At once: the simulated customer holds out the default card 2.5 s after the reader asks.
      await page.getByTestId('cancel-sale-button').click()
    }
    await waitForResult(page, outcome.state)
    expect(await page.getByTestId('result-heading').innerText()).toBe(outcome.heading)
    // The amount stays in the field: the cashier reads what the result is about.
    expect(await page.getByTestId('amount-input').inputValue()).toBe(shown)
    // A refusal's or a reversal's reason too: the cashier tells the customer why.
    expect(await page.getByTestId('result-reason').count(), `${label} ${outcome.name}, reason shown`).toBe(outcome.reason ? 1 : 0)
    const result = [
      'amount-input',
      'charge-button',
      'sale-prompt',
      'result-heading',
      'new-sale-button',
      ...(outcome.reason ? ['result-reason'] : []),
    ]
    expect(await notInView(page, result), `${label} ${outcome.name}, result`).toEqual([])
    expect(await cutText(page, `${PROMPT_TEXT}, [data-testid="result-reason"]`)).toEqual([])
    // The result is said once: the heading, not again in a second box.
    expect(await page.getByTestId('sale-result').getByText(outcome.heading, { exact: true }).count()).toBe(1)
    if (outcome.state === 'approved') expect((await page.locator('main').innerText()).split('Approved')).toHaveLength(2)
    expect(await pageScrolls(page)).toEqual({ horizontal: false, vertical: false })
    expect(await internalWords(page)).toEqual([])
    await screenshot(page, `layout-${label}-${outcome.name}-result`)

    if (outcome.faults.length > 0) await e2e.serve.host.clearFaults()
    if (outcome.settles) {
      await posValue(e2e.serve, 'forwardNow', {})
      await waitForResult(page, outcome.settles)
      // The result follows the sale on screen, and still fits.
      expect(await notInView(page, ['amount-input', 'result-heading', 'new-sale-button']), `${label} ${outcome.settles}`).toEqual([])
      expect(await cutText(page, PROMPT_TEXT)).toEqual([])
      expect(await internalWords(page)).toEqual([])
    }
    await newSale(page)
  }

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`
    const small = size.width < 1200

    it(`${label}: the essentials of the sale stay in view when the bank answers`, async () => {
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

      for (const outcome of ANSWERED) await saleEndsInView(page, label, size.width, outcome)
    })

    it(`${label}: the essentials stay in view when the sale ends otherwise: stored offline, cancelled, being reversed, reversed`, async () => {
      const { page } = e2e.cashier
      await page.setViewportSize(size)
      for (const outcome of OTHER_ENDINGS) await saleEndsInView(page, label, size.width, outcome)
    }, 60_000)
  }

  it('800x480: a new integrator token in Settings is shown whole with its Done button, without scrolling', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize({ width: 800, height: 480 })
    await goTo(page, 'settings')
    const tokens = page.getByTestId('integrator-tokens')
    await tokens.getByTestId('token-name-input').fill('Till 3')
    await tokens.getByTestId('create-token-button').click()
    await page.getByTestId('new-token-text').waitFor()
    // The token is shown only this once: the manager reads it and presses Done without scrolling.
    expect(await notInView(page, ['new-token', 'new-token-text', 'new-token-done'])).toEqual([])
    expect(await cutText(page, '[data-testid="new-token-text"]')).toEqual([])
    expect(await pageScrolls(page)).toEqual({ horizontal: false, vertical: false })
    await screenshot(page, 'layout-800x480-new-token')
    await page.getByTestId('new-token-done').click()
    await page.getByTestId('new-token').waitFor({ state: 'detached' })
    expect(await notInView(page, ['token-Till 3'])).toEqual([])
  })

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
