/**
 * The counter tried as a hurried cashier would, in Chromium against `pos-agent serve` in training mode,
 * at 800x480, 1024x768 and 1280x800: the bank's state is said before the first sale; a test card picked
 * before Charge, or after it however late, is the one read (an expired card is declined, never approved
 * by a card the simulator chose), and after a refused card the amount is still keyed; the receipt opens at its top; the
 * customer's copy of a reversed sale speaks to the customer; every field is as tall as a tap needs and
 * in readable type; each screen opens at its top, whatever the last one was scrolled to; an amount over
 * the terminal's limit is refused with the limit; the sales search reads an amount the sale's way; no
 * internal word shows. Then with staff: the
 * keypad never shows before the sign-in, which opens on the operator number, and the page's event stream
 * is opened once and kept through the sign-in; and with an operator
 * signed in and an alarm in the header, keying "1" then "0" keys 0.10 and starts nothing. The tests
 * build on each other, in order. Screenshots go to test-artifacts/e2e/tryout-*.png.
 */
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { goTo, keyAmount, newSale, presentCard, salePrompt, sell, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { internalWords } from './plain-words'
import { addStaff, raiseManagerAlarm, signInIfAsked, type StaffMember } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

const MANAGER: StaffMember = { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' }
const CASHIER: StaffMember = { operatorId: '17', name: 'Anna', role: 'cashier', pin: '1234' }

/** Records, from the page's first script on, which of the counter's parts were ever in the page. */
const SEEN_SCRIPT = `(() => {
  const seen = []
  window.__seen = seen
  new MutationObserver(() => {
    for (const id of ['amount-input', 'key-0', 'charge-button', 'sign-in-form'])
      if (!seen.includes(id) && document.querySelector('[data-testid="' + id + '"]')) seen.push(id)
  }).observe(document, { subtree: true, childList: true })
})()`

/** A field a finger can hit and an eye can read: at least 44 px tall, in type of at least 16 px. */
async function fieldProblems(field: Locator, name: string): Promise<string[]> {
  await field.waitFor()
  const box = await field.boundingBox()
  const fontPx = await field.evaluate((el) => parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).fontSize))
  const problems: string[] = []
  if (!box || box.height < 44) problems.push(`${name} is ${box?.height ?? '?'} px tall (a tap needs 44)`)
  if (fontPx < 16) problems.push(`${name} is in ${fontPx} px type`)
  return problems
}

const focusedTestId = (page: Page): Promise<string> => page.evaluate(`document.activeElement?.getAttribute('data-testid') ?? 'none'`)

describe.skipIf(!e2eComponentsPresent())('the counter tried as a cashier, at three sizes', () => {
  const e2e = useE2E('tryout')

  for (const [index, size] of SIZES.entries()) {
    const label = `${size.width}x${size.height}`
    /** Amounts of this size's own, so no sale looks like an earlier size's (the duplicate question). */
    const cents = (whole: number, tail: number) => `${whole + index}${String(tail).padStart(2, '0')}`
    const shown = (digits: string) => `${digits.slice(0, -2)}.${digits.slice(-2)}`

    it(`${label}: bank state, test cards, refused card, receipt, reversal, fields, scrolling, limit, words`, async () => {
      const { page } = e2e.cashier
      const problems: string[] = []
      await page.setViewportSize(size)
      // (From the second size on the terminal has staff, added below.)
      await signInIfAsked(page, CASHIER)

      // The bank's state is said before any sale, in words.
      const bank = await page.locator('[data-status-item="bank"]').textContent()
      expect(index === 0 ? ['Bank not tried yet'] : ['Bank online', 'Bank offline']).toContain(bank)

      // The trainee picks the expired card before Charge: that card is read, and declined.
      const refused = cents(30, 12)
      await keyAmount(page, refused, shown(refused))
      await presentCard(page, 'expired')
      // Longer than the simulator waits before holding out its own card when none was picked.
      await page.waitForTimeout(3_000)
      await page.getByTestId('charge-button').click()
      await waitForResult(page, 'declined')
      await screenshot(page, `tryout-${label}-refused-card`)
      // The amount is still keyed: the cashier asks for another card and charges again.
      expect(await page.getByTestId('amount-input').inputValue()).toBe(shown(refused))
      await page
        .getByTestId('charge-button')
        .filter({ hasText: `Charge USD ${shown(refused)} again` })
        .click()
      await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
      // A trainee slower than the simulator's own pace: the prompt waits for the pick, and the card
      // picked then (the expired one) is the card read, refused as expired, not a card of the simulator's.
      await page.waitForTimeout(3_500)
      expect(await page.getByTestId('sale-result').count()).toBe(0)
      expect(await salePrompt(page).innerText()).toContain('Insert, tap or swipe')
      await presentCard(page, 'expired')
      await waitForResult(page, 'declined')
      expect(await page.getByTestId('sale-result').innerText()).toMatch(/expired/i)
      await screenshot(page, `tryout-${label}-slow-pick-refused`)
      await page
        .getByTestId('charge-button')
        .filter({ hasText: `Charge USD ${shown(refused)} again` })
        .click()
      await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
      await presentCard(page, 'chip-visa')
      const approved = await waitForResult(page, 'approved')

      // The receipt opens at its top.
      await page.getByTestId('show-receipt-button').click()
      const receipt = page.getByTestId('receipt')
      await receipt.waitFor()
      expect(await receipt.evaluate((el) => el.scrollTop)).toBe(0)
      await screenshot(page, `tryout-${label}-receipt`)
      await page.getByTestId('close-receipt-button').click()
      await newSale(page)

      // The bank answered these sales: the Queue screen, asking the agent afresh, says it is reached, and
      // the header goes on saying online (not "not tried yet" because the queue itself sent nothing).
      await goTo(page, 'queue')
      await expect.poll(() => page.getByTestId('queue-host').textContent()).toBe('Bank reachable')
      expect(await page.locator('[data-status-item="bank"]').textContent()).toBe('Bank online')
      await goTo(page, 'sale')

      // A sale the bank took and never answered is reversed: the customer's copy speaks to the customer.
      await e2e.serve.host.setFault('payment', 'process-then-drop', 1)
      const lost = cents(60, 7)
      await sell(page, lost, shown(lost), ['reversed', 'reversalPending'])
      await page.getByTestId('show-receipt-button').click()
      const customerCopy = await page.getByTestId('receipt-customer').innerText()
      expect(customerCopy).not.toMatch(/the customer/i)
      await screenshot(page, `tryout-${label}-reversed-receipt`)
      await page.getByTestId('close-receipt-button').click()
      await newSale(page)
      await e2e.serve.host.clearFaults()

      // An amount over the terminal's limit is refused with the limit.
      await keyAmount(page, '1000001', '10,000.01')
      await page.getByTestId('charge-button').click()
      await expect.poll(() => page.locator('main').innerText()).toContain('USD 10,000.00')
      await screenshot(page, `tryout-${label}-over-limit`)
      // The refusal the browser logged (422, over the limit) is the point of this step.
      e2e.cashier.consoleErrors.splice(0)
      await page.getByTestId('key-clear').click()

      // Every screen opens at its top and in plain words; the fields are a finger's size.
      await goTo(page, 'transactions')
      await page.getByTestId(`sale-row-${approved}`).waitFor()
      await page.locator('main').evaluate((el) => el.scrollTo(0, el.scrollHeight))
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)')
      await goTo(page, 'tips')
      await page.getByTestId(`tip-input-${approved}`).waitFor()
      expect(await page.locator('main').evaluate((el) => el.scrollTop)).toBe(0)
      expect(await page.evaluate('window.scrollY')).toBe(0)
      problems.push(...(await fieldProblems(page.getByTestId(`tip-input-${approved}`), 'the tip field')))
      await screenshot(page, `tryout-${label}-tips`)
      problems.push(...(await internalWords(page)).map((word) => `tips: "${word}"`))
      await goTo(page, 'transactions')
      // The search waits behind "Find a sale" (so a keypad reaches the list first); it reads an amount
      // as the sale does: the refused card's digits are that sale's amount.
      await page.getByTestId('find-sale').click()
      const search = page.getByLabel('Amount (USD)')
      await search.pressSequentially(refused)
      expect(await search.inputValue()).toBe(shown(refused))
      await page.getByTestId('search-button').click()
      await expect
        .poll(() => page.locator('[data-testid^="sale-row-"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid'))))
        .toContain(`sale-row-${approved}`)
      await screenshot(page, `tryout-${label}-transactions`)
      problems.push(...(await internalWords(page)).map((word) => `transactions: "${word}"`))
      await page.getByTestId(`return-${approved}`).click()
      problems.push(...(await fieldProblems(page.getByTestId('return-amount'), 'the return amount')))
      await screenshot(page, `tryout-${label}-return`)
      await page.getByTestId('return-panel').getByRole('button', { name: 'Cancel' }).click()
      await goTo(page, 'settings')
      // A cashier's Settings fold the manager's part away: opened, as a manager at the counter would.
      if ((await page.getByTestId('manager-settings').count()) > 0) await page.getByTestId('settings-manager-only').click()
      problems.push(...(await fieldProblems(page.getByTestId('token-name-input'), 'the token name')))
      await screenshot(page, `tryout-${label}-settings`)
      for (const screen of ['settings', 'close-of-day', 'queue', 'device'] as const) {
        await goTo(page, screen)
        problems.push(...(await internalWords(page)).map((word) => `${screen}: "${word}"`))
      }
      await goTo(page, 'sale')
      expect(problems).toEqual([])
    }, 120_000)

    it(`${label}: with staff, the sign-in comes first and opens on the number; "1" then "0" under an alarm keys 0.10`, async () => {
      const { page, context } = e2e.cashier
      await page.setViewportSize(size)
      if (index === 0) {
        await addStaff(context, e2e.serve, MANAGER, CASHIER)
      }
      await page.addInitScript(SEEN_SCRIPT)
      // The page's event stream: opened once with the page, and kept through the sign-in.
      let streams = 0
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/events') streams++
      })
      await page.reload()
      const form = page.getByTestId('sign-in-form')
      await form.waitFor()
      // Nothing of the counter was there before the sign-in: a tap could not land on a key.
      expect(await page.evaluate('window.__seen')).toEqual(['sign-in-form'])
      expect(await focusedTestId(page)).toBe('operator-id-input')
      const signInProblems = [
        ...(await fieldProblems(page.getByTestId('operator-id-input'), 'the operator number')),
        ...(await fieldProblems(page.getByTestId('operator-pin-input'), 'the PIN')),
      ]
      await screenshot(page, `tryout-${label}-sign-in`)
      await signInIfAsked(page, CASHIER)
      await page.waitForTimeout(1_000)
      expect(streams).toBe(1)

      if (index === 0) {
        await raiseManagerAlarm(page, e2e.serve)
      }
      // In the line on a small display, a banner on a large one: there at every size, for a window opened after it went out.
      await page.getByTestId('alarms-banner').filter({ hasText: 'A sale needs a manager' }).waitFor({ state: 'attached' })

      // A closing asks a manager's number, in a field a finger can hit, where the next key goes.
      // (The stored payment the bank declined holds the day: the manager closes it anyway.)
      await goTo(page, 'close-of-day')
      await page.getByTestId('close-anyway-button').click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Close anyway' }).click()
      const approval = page.getByTestId('approval-dialog')
      await approval.waitFor()
      signInProblems.push(...(await fieldProblems(page.getByTestId('approval-operator-input'), 'the manager number')))
      expect(await focusedTestId(page)).toBe('approval-operator-input')
      await screenshot(page, `tryout-${label}-approval`)
      await approval.getByRole('button', { name: 'Cancel' }).click()
      await approval.waitFor({ state: 'detached' })
      // The refusal the browser logged (a manager is needed) is the point of this step.
      e2e.cashier.consoleErrors.splice(0)

      // The header is as full as it gets; "1" then "0" is 0.10, and no card is asked for.
      await goTo(page, 'sale')
      await keyAmount(page, '10', '0.10')
      const zero = await page.getByTestId('key-0').boundingBox()
      const [x, y] = [zero!.x + zero!.width / 2, zero!.y + zero!.height / 2]
      const under = await page.evaluate(`document.elementFromPoint(${x}, ${y})?.closest('[data-testid]')?.getAttribute('data-testid')`)
      expect(under).toBe('key-0')
      expect(await salePrompt(page).innerText()).not.toMatch(/Insert, tap or swipe/)
      await screenshot(page, `tryout-${label}-alarm-keyed`)
      await page.getByTestId('key-clear').click()
      expect(signInProblems).toEqual([])
    }, 120_000)
  }
})
