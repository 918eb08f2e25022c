/**
 * Nothing covers anything: in Chromium against `pos-agent serve` in training mode, every screen and
 * dialog of the counter, under every kind of header (training only; a cashier with a long name signed
 * in; that and an alarm, a queue item needing a manager and the bank offline), at 800x480, 1024x768
 * and 1280x800. For each, every control the cashier can see is brought into view as a tap would need
 * it and must be the element under its own centre (`document.elementFromPoint`), and nothing is drawn
 * past the window's right edge or scrolls sideways. The states build on each other, so the tests run
 * in order. A screenshot of each goes to test-artifacts/e2e/overlap-*.png.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { goTo, keyAmount, newSale, presentCard, salePrompt, sell, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { coveredControls, cutAtRight } from './in-view'
import { addStaff, raiseManagerAlarm, signInIfAsked, type StaffMember } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

type HeaderState = 'training' | 'long-name' | 'alarm'
const HEADERS: readonly HeaderState[] = ['training', 'long-name', 'alarm']

const MANAGER: StaffMember = { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' }
const CASHIER: StaffMember = {
  operatorId: '17',
  name: 'Anna-Katharina Wolkenstein-Trostburg de Montmorency',
  role: 'cashier',
  pin: '1234',
}

const MODAL = '[aria-modal="true"]'

describe.skipIf(!e2eComponentsPresent())('no region covers another, at every size and under every header', () => {
  const e2e = useE2E('overlap')
  /** An approved sale to open the void, return and receipt dialogs on (made in the first state). */
  let approvedId = ''
  let views = 0

  async function check(page: Page, findings: string[], label: string, scope?: string): Promise<void> {
    await screenshot(page, `overlap-${label}`)
    for (const problem of await coveredControls(page, scope)) findings.push(`${label}: ${problem}`)
    for (const problem of await cutAtRight(page)) findings.push(`${label}: ${problem}`)
    // On the smallest display the status line is one line, whatever it holds (the rest is in the Menu).
    if (label.startsWith('800x480')) {
      const line = await page.locator('.top-bar').boundingBox()
      if (!line || line.height > 56)
        findings.push(`${label}: the status line is ${line?.height ?? '?'} px high (one line is at most 56 px)`)
    }
  }

  async function signOut(page: Page): Promise<void> {
    const inLine = page.getByTestId('sign-out-button')
    if (await inLine.isVisible()) await inLine.click()
    else {
      await page.getByTestId('nav-menu').click()
      await page.getByTestId('menu-sign-out-button').click()
    }
    await page.getByTestId('sign-in-form').waitFor()
  }

  /** Every screen and dialog of the counter, each checked, then closed again. */
  async function everyView(page: Page, state: HeaderState, size: string): Promise<string[]> {
    const findings: string[] = []
    const at = (view: string) => `${size}-${state}-${view}`
    await signInIfAsked(page, CASHIER)
    await goTo(page, 'sale')
    await check(page, findings, at('sale'))

    if (await page.getByTestId('nav-menu').isVisible()) {
      await page.getByTestId('nav-menu').click()
      await check(page, findings, at('menu'), 'nav')
      await page.keyboard.press('Escape')
    }

    // A large amount is confirmed first.
    await keyAmount(page, '150000', '1,500.00')
    await page.getByTestId('charge-button').click()
    await page.getByTestId('amount-dialog').waitFor()
    await check(page, findings, at('amount-dialog'), MODAL)
    await page.getByRole('button', { name: 'No, change the amount' }).click()
    await page.getByTestId('key-clear').click()

    // The card is asked for; then the result. An amount of its own, so no earlier sale looks like it.
    const whole = String(12 + views++)
    await keyAmount(page, `${whole}34`, `${whole}.34`)
    await page.getByTestId('charge-button').click()
    await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
    await check(page, findings, at('sale-card'))
    await presentCard(page, 'chip-visa')
    await waitForResult(page, ['approved', 'storedOffline'])
    await check(page, findings, at('sale-result'))
    await page.getByTestId('show-receipt-button').click()
    await page.getByTestId('receipt').waitFor()
    await check(page, findings, at('receipt'), MODAL)
    await page.getByTestId('close-receipt-button').click()
    await newSale(page)

    // The same card and amount again: the cashier is asked whether it is a second purchase.
    await keyAmount(page, `${whole}34`, `${whole}.34`)
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await page.getByTestId('duplicate-dialog').waitFor()
    await check(page, findings, at('duplicate-dialog'), MODAL)
    await page.getByRole('button', { name: 'Stop, do not charge' }).click()
    await page.getByTestId('sale-result').waitFor()
    await newSale(page)

    await goTo(page, 'transactions')
    await page.getByTestId(`sale-row-${approvedId}`).waitFor()
    await check(page, findings, at('transactions'))
    await page.getByTestId(`void-${approvedId}`).click()
    await page.getByTestId('void-confirm-dialog').waitFor()
    await check(page, findings, at('void-dialog'), MODAL)
    await page.getByRole('button', { name: 'Keep the sale' }).click()
    await page.getByTestId(`return-${approvedId}`).click()
    await page.getByTestId('return-panel').waitFor()
    await check(page, findings, at('return-dialog'), MODAL)
    await page.getByTestId('return-panel').getByRole('button', { name: 'Cancel' }).click()

    for (const screen of ['tips', 'queue', 'device', 'settings', 'staff'] as const) {
      await goTo(page, screen)
      await check(page, findings, at(screen))
    }

    if (state !== 'training') {
      await signOut(page)
      await check(page, findings, at('sign-in'))
      await signInIfAsked(page, CASHIER)
    }

    await goTo(page, 'close-of-day')
    await page.getByTestId('close-day-button').waitFor()
    await check(page, findings, at('close-of-day'))
    if (await page.getByTestId('close-day-button').isDisabled()) {
      // Payments still wait for the bank: the day cannot be closed yet, and the screen says why.
      await page.getByTestId('close-blocked-reason').waitFor()
      // Held only by a sale that needs a manager: the close anyway the reason speaks of is there.
      if (await page.getByTestId('close-anyway-button').isVisible()) {
        await page.getByTestId('close-anyway-button').click()
        await page.getByRole('alertdialog').waitFor()
        await check(page, findings, at('close-anyway'), MODAL)
        await page.getByRole('alertdialog').getByRole('button', { name: 'Not yet' }).click()
      }
    } else {
      await page.getByTestId('close-day-button').click()
      const confirm = page.getByRole('alertdialog')
      await confirm.waitFor()
      await check(page, findings, at('close-confirm'), MODAL)
      if (state === 'training') await confirm.getByRole('button', { name: 'Not yet' }).click()
      else {
        // A cashier is signed in: closing the day asks for a manager.
        await confirm.getByRole('button', { name: 'Close the day' }).click()
        await page.getByTestId('approval-dialog').waitFor()
        await check(page, findings, at('approval-dialog'), MODAL)
        await page.getByTestId('approval-dialog').getByRole('button', { name: 'Cancel' }).click()
        await page.getByTestId('approval-dialog').waitFor({ state: 'detached' })
        // The refusal the browser logged (403, a manager is needed) is the point of this step.
        e2e.cashier.consoleErrors.splice(0)
      }
    }
    await goTo(page, 'sale')
    return findings
  }

  for (const state of HEADERS) {
    for (const size of SIZES) {
      const label = `${size.width}x${size.height}`
      it(`${state} header, ${label}: every control of every screen and dialog is under its own centre, nothing cut at the right`, async () => {
        const { page, context } = e2e.cashier
        await page.setViewportSize(size)
        if (state === 'training' && approvedId === '') {
          approvedId = await sell(page, '4000', '40.00', 'approved')
          await newSale(page)
        }
        if (state === 'long-name' && size.width === 800) {
          await addStaff(context, e2e.serve, MANAGER, CASHIER)
          await page.reload()
        }
        if (state === 'alarm' && size.width === 800) {
          await signInIfAsked(page, CASHIER)
          await raiseManagerAlarm(page, e2e.serve)
          await page.getByTestId('alarm-button').waitFor()
        }
        if (state === 'alarm') {
          // The bank is down from here on, with a payment stored: the header says so beside the alarm.
          await e2e.serve.host.setFault('*', 'http-503')
          // (Each test: the faults are cleared between tests, and the queue may have been sent meanwhile.)
          await signInIfAsked(page, CASHIER)
          const cents = String(25 + SIZES.indexOf(size))
          await sell(page, `25${cents}`, `25.${cents}`, 'storedOffline')
          await newSale(page)
        }
        await signInIfAsked(page, CASHIER)
        if (state === 'alarm') {
          // The alarm raised at 800x480 stands in every window opened after it, while a manager has not handled it.
          await page.getByTestId('alarms-banner').waitFor({ state: 'attached' })
          await expect.poll(() => page.locator('[data-status-item="bank"]').textContent()).toBe('Bank offline')
          // Bad news first: at every size the bank being offline stays on the line, never only in the Menu
          // behind a reader that is fine.
          const line = await page
            .locator('[data-status-item]')
            .evaluateAll((items) =>
              items.map((item) => ({ key: item.getAttribute('data-status-item'), inMenu: item.hasAttribute('data-overflowed') })),
            )
          expect(line.find((item) => item.key === 'bank')?.inMenu, `${label}: ${JSON.stringify(line)}`).toBe(false)
          const keys = line.map((item) => item.key)
          expect(keys.indexOf('bank'), `${label}: ${keys.join(', ')}`).toBeLessThan(keys.indexOf('reader'))
        }
        const findings = await everyView(page, state, label)
        expect(findings).toEqual([])
      }, 180_000)
    }
  }
})
