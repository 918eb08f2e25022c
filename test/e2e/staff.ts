/**
 * The steps with staff that several counter tests share: a manager and a cashier added as the counter
 * adds them, the sign-in when the counter asks for one, and the manager's alarm a payment the bank
 * declined raises (a payment stored offline, declined once the bank is back).
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import { newSale, sell } from './cashier'
import type { Cashier, ServeProcess } from './harness'
import { posValue } from './pos-api'

export interface StaffMember {
  operatorId: string
  name: string
  role: 'manager' | 'cashier'
  pin: string
}

/** The staff the counter tests work with: manager Maria (number 9) and cashier Carl (number 17). */
export const MANAGER: StaffMember = { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' }
export const CASHIER: StaffMember = { operatorId: '17', name: 'Carl', role: 'cashier', pin: '1357' }

/** The terminal's first manager, then `cashier` with that manager's approval, as the counter adds them. */
export async function addStaff(context: BrowserContext, serve: ServeProcess, manager: StaffMember, cashier: StaffMember): Promise<void> {
  const asCounter = (operation: string, data: unknown) => context.request.post(`${serve.uiUrl}/v1/ops/${operation}`, { data })
  expect((await asCounter('addOperator', manager)).ok()).toBe(true)
  const approval = { operatorId: manager.operatorId, pin: manager.pin }
  expect((await asCounter('addOperator', { ...cashier, approval })).ok()).toBe(true)
}

/** Signs `who` in when the counter asks for a sign-in (a terminal with staff); otherwise nothing. */
export async function signInIfAsked(page: Page, who: StaffMember): Promise<void> {
  await page.locator('[data-testid="sign-in-form"], [data-testid="amount-input"]').first().waitFor()
  if ((await page.getByTestId('sign-in-form').count()) === 0) return
  await page.getByTestId('operator-id-input').fill(who.operatorId)
  await page.getByTestId('operator-pin-input').fill(who.pin)
  await page.getByTestId('sign-in-button').click()
  await page.getByTestId('amount-input').waitFor()
}

/**
 * A payment stored while the bank is down, of an amount ending in 51, which the training host declines
 * once it is back (docs/gateway.md §D4): it needs a manager, and the terminal raises an alarm.
 */
export async function raiseManagerAlarm(page: Page, serve: ServeProcess): Promise<void> {
  const [digits, shown] = ['2551', '25.51']
  await serve.host.setFault('*', 'http-503')
  await sell(page, digits, shown, 'storedOffline')
  await newSale(page)
  await serve.host.clearFaults()
  await posValue(serve, 'forwardNow', {})
}

/**
 * The counter with staff and `who` signed in: MANAGER and CASHIER added as the counter adds them
 * (unless `added`: an earlier test of the file did), the page reloaded onto the sign-in, and `who`
 * signed in there.
 */
export async function signedInWithStaff(
  e2e: { cashier: Cashier; serve: ServeProcess },
  who: StaffMember,
  { added = false }: { added?: boolean } = {},
): Promise<void> {
  const { page, context } = e2e.cashier
  if (!added) await addStaff(context, e2e.serve, MANAGER, CASHIER)
  await page.reload()
  await signInIfAsked(page, who)
}
