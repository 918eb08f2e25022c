/**
 * The Staff screen as a manager uses it: the first manager of a terminal without operators; adding a
 * cashier with a manager's approval; a new PIN; letting a locked-out cashier sign in again; disabling
 * someone only once confirmed; and a cashier told plainly that staff is a manager's.
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { MANAGER_APPROVED_OPERATIONS, type CounterOperatorView, type OperatorView } from '../../src-shared/contract'
import { ACTION_WORDS } from '../../src-renderer/src/features/operators/ApprovalDialog'
import { err, FakeBridge, ok } from './fake-bridge'
import { renderApp } from './render-app'

const MARIA: OperatorView = { id: '9', name: 'Maria', role: 'manager', createdAt: 1, disabled: false }

function staffBridge(counter: CounterOperatorView, start: OperatorView[]) {
  let staff = [...start]
  const bridge = new FakeBridge()
    .on('counterOperator', () => ok(counter))
    .on('listOperators', () => ok(staff))
    .on('addOperator', (r) => {
      if (staff.length > 0 && !r.approval) return err('MANAGER_REQUIRED', 'needs a manager')
      const made: OperatorView = { id: r.operatorId, name: r.name, role: r.role, createdAt: 2, disabled: false }
      staff = [...staff, made]
      return ok(made)
    })
    .on('setOperatorPin', (r) => ok(staff.find((o) => o.id === r.operatorId)!))
    .on('unlockOperator', (r) => {
      const wasLocked = staff.some((o) => o.id === r.operatorId && o.lockedUntil !== undefined)
      staff = staff.map((o) => (o.id === r.operatorId ? { ...o, lockedUntil: undefined } : o))
      return ok({ ...staff.find((o) => o.id === r.operatorId)!, wasLocked })
    })
    .on('disableOperator', (r) => {
      staff = staff.map((o) => (o.id === r.operatorId ? { ...o, disabled: true } : o))
      return ok(staff.find((o) => o.id === r.operatorId)!)
    })
  return bridge
}

const typeIn = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } })

describe('the Staff screen', () => {
  it('every action a manager approves has words in the approval dialog', () => {
    expect(MANAGER_APPROVED_OPERATIONS.filter((operation) => ACTION_WORDS[operation] === undefined)).toEqual([])
  })

  it('a terminal without operators adds its first manager here', async () => {
    const bridge = staffBridge({ required: false, voidWithoutManagerMinutes: 30 }, [])
    await renderApp(bridge, { screen: 'staff' })
    expect(screen.getByTestId('staff-first-manager')).toBeTruthy()
    const form = screen.getByTestId('add-staff')
    expect(within(form).queryByText('Role')).toBeNull()
    typeIn(form, 'Operator number', '9')
    typeIn(form, 'Name', 'Maria')
    typeIn(form, 'PIN (4 to 8 digits)', '4321')
    typeIn(form, 'The same PIN again', '4321')
    await act(async () => {
      fireEvent.click(within(form).getByTestId('add-staff-button'))
    })
    expect(bridge.callsOf('addOperator')).toEqual([{ operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' }])
    expect(screen.getByTestId('staff-notice').textContent).toBe('Maria can now sign in with number 9.')
  })

  it("adds a cashier with a manager's approval, sets a PIN, unlocks, and disables once confirmed", async () => {
    const locked: OperatorView = {
      id: '17',
      name: 'Ann',
      role: 'cashier',
      createdAt: 1,
      disabled: false,
      lockedUntil: Date.now() + 600_000,
    }
    const bridge = staffBridge({ required: true, operator: MARIA, voidWithoutManagerMinutes: 30 }, [MARIA, locked])
    await renderApp(bridge, { screen: 'staff' })
    expect(screen.getByTestId('staff-status-17').textContent).toMatch(/^Locked after wrong PINs until/)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Let Ann sign in again' }))
    })
    expect(bridge.callsOf('unlockOperator')).toEqual([{ operatorId: '17' }])
    expect(screen.getByTestId('staff-status-17').textContent).toBe('Can sign in')

    const row = screen.getByTestId('staff-17')
    typeIn(row, 'New PIN for Ann', '12')
    expect(row.textContent).toContain('A PIN is 4 to 8 digits.')
    typeIn(row, 'New PIN for Ann', '5555')
    // Typed once, it is not taken: the same PIN again, below it.
    expect(within(row).getByRole('button', { name: 'Set PIN' })).toHaveProperty('disabled', true)
    expect(row.textContent).toContain('Type the same PIN again below it.')
    typeIn(row, 'The same PIN again', '5555')
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Set PIN' }))
    })
    expect(bridge.callsOf('setOperatorPin')).toEqual([{ operatorId: '17', pin: '5555' }])

    const form = screen.getByTestId('add-staff')
    typeIn(form, 'Operator number', '23')
    typeIn(form, 'Name', 'Bob')
    typeIn(form, 'PIN (4 to 8 digits)', '2468')
    typeIn(form, 'The same PIN again', '2468')
    await act(async () => {
      fireEvent.click(within(form).getByTestId('add-staff-button'))
    })
    // The agent wants a manager: the dialog asks, and the same request goes again with the approval.
    const dialog = screen.getByTestId('approval-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('A manager approves adding this person')
    fireEvent.change(within(dialog).getByTestId('approval-operator-input'), { target: { value: '9' } })
    fireEvent.change(within(dialog).getByTestId('approval-pin-input'), { target: { value: '4321' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('approve-button'))
    })
    expect(bridge.callsOf('addOperator').at(-1)).toEqual({
      operatorId: '23',
      name: 'Bob',
      role: 'cashier',
      pin: '2468',
      approval: { operatorId: '9', pin: '4321' },
    })
    expect(screen.getByTestId('staff-23')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Disable Bob' }))
    expect(bridge.callsOf('disableOperator')).toEqual([])
    await act(async () => {
      fireEvent.click(within(screen.getByTestId('disable-staff-dialog')).getByRole('button', { name: 'Disable' }))
    })
    expect(bridge.callsOf('disableOperator')).toEqual([{ operatorId: '23' }])
    expect(screen.getByTestId('staff-status-23').textContent).toBe('Disabled')
  })

  it("a cashier signed in is told staff is a manager's, and sees no one", async () => {
    const ann: OperatorView = { id: '17', name: 'Ann', role: 'cashier', createdAt: 1, disabled: false }
    const bridge = staffBridge({ required: true, operator: ann, voidWithoutManagerMinutes: 30 }, [MARIA, ann])
    await renderApp(bridge, { screen: 'staff' })
    expect(screen.getByTestId('staff-managers-only').textContent).toContain('Ask a manager to sign in')
    expect(screen.queryByTestId('staff-list')).toBeNull()
  })
})
