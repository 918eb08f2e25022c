/**
 * The counter with operators: the sign-in screen first (nothing else on screen), who is signed in,
 * signing out; and a manager's approval asked for when the agent says an action needs one, sent
 * again with the manager's number and PIN, asked again after a wrong PIN, given up on Cancel.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { CounterOperatorView, OperatorView } from '../../src-shared/contract'
import { App } from '../../src-renderer/src/App'
import { connectStore, createPosStore, signInNeeded } from '../../src-renderer/src/store'
import { err, FakeBridge, makeSettings, ok } from './fake-bridge'
import { renderApp } from './render-app'

const ANN: OperatorView = { id: '17', name: 'Ann', role: 'cashier', createdAt: 1, disabled: false }

function counterBridge() {
  let counter: CounterOperatorView = { required: true, voidWithoutManagerMinutes: 30 }
  return new FakeBridge()
    .on('counterOperator', () => ok(counter))
    .on('signIn', (r) => {
      if (r.pin !== '1234') return err('PIN_WRONG', 'wrong')
      counter = { ...counter, operator: ANN }
      return ok(ANN)
    })
    .on('signOut', () => {
      counter = { required: true, voidWithoutManagerMinutes: 30 }
      return ok(counter)
    })
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } })

describe('signing in at the counter', () => {
  it('asks for a number and PIN before anything else; says a wrong PIN plainly; shows who is signed in; signs out', async () => {
    const bridge = counterBridge()
    await renderApp(bridge)
    expect(screen.getByTestId('sign-in-form')).toBeTruthy()
    expect(screen.queryByTestId('amount-input')).toBeNull()
    expect(screen.queryByRole('navigation')).toBeNull()
    type('operator-id-input', '17')
    type('operator-pin-input', '9999')
    await act(async () => {
      fireEvent.click(screen.getByTestId('sign-in-button'))
    })
    expect(screen.getByTestId('sign-in-problem').textContent).toBe('That operator number and PIN do not match. Try again.')
    expect(screen.getByTestId<HTMLInputElement>('operator-pin-input').value).toBe('')
    type('operator-pin-input', '1234')
    await act(async () => {
      fireEvent.click(screen.getByTestId('sign-in-button'))
    })
    expect(screen.getByTestId('amount-input')).toBeTruthy()
    expect(screen.getByTestId('signed-in-operator').textContent).toContain('Ann (cashier)')
    await act(async () => {
      fireEvent.click(screen.getByTestId('sign-out-button'))
    })
    expect(screen.getByTestId('sign-in-form')).toBeTruthy()
    expect(bridge.callsOf('signIn')).toEqual([
      { operatorId: '17', pin: '9999' },
      { operatorId: '17', pin: '1234' },
    ])
  })

  it('shows nothing of the counter while it is not yet known whether someone must sign in', async () => {
    let answer: (() => void) | undefined
    const bridge = new FakeBridge().on(
      'counterOperator',
      () => new Promise((resolve) => (answer = () => resolve(ok({ required: true, voidWithoutManagerMinutes: 30 })))),
    )
    const store = createPosStore({ bridge, now: () => 0 })
    connectStore(store)
    render(<App store={store} />)
    const loading = store.getState().load()
    // Everything else has answered; who is at the counter has not.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10))
    })
    expect(answer).toBeDefined()
    expect(screen.queryByTestId('amount-input')).toBeNull()
    expect(screen.queryByTestId('key-0')).toBeNull()
    expect(screen.getByText('Connecting to the payment agent…')).toBeTruthy()
    await act(async () => {
      answer!()
      await loading
    })
    expect(screen.getByTestId('sign-in-form')).toBeTruthy()
    expect(screen.queryByTestId('key-0')).toBeNull()
  })

  it('a terminal without operators opens straight onto the sale screen', async () => {
    const bridge = new FakeBridge().on('counterOperator', () => ok({ required: false, voidWithoutManagerMinutes: 30 }))
    await renderApp(bridge)
    expect(screen.queryByTestId('sign-in-form')).toBeNull()
    expect(screen.getByTestId('amount-input')).toBeTruthy()
  })
})

describe("a manager's approval", () => {
  it('a new signing key: asked for, a wrong PIN asked again, then sent with the approval; Cancel gives up', async () => {
    const KEY = '0123456789abcdef0123456789abcdef'
    const bridge = new FakeBridge()
      .on('counterOperator', () => ok({ required: true, operator: ANN, voidWithoutManagerMinutes: 30 }))
      .on('settings', () => ok(makeSettings()))
      .on('setSigningKey', (r) => {
        if (!r.approval) return err('MANAGER_REQUIRED', 'needs a manager')
        if (typeof r.approval === 'string' || r.approval.pin !== '4321') return err('PIN_WRONG', 'wrong')
        return ok({ kcv: 'A1B2C3' })
      })
    await renderApp(bridge, { screen: 'settings' })
    type('signing-key-input', KEY)
    await act(async () => {
      fireEvent.click(screen.getByTestId('save-signing-key-button'))
    })
    const dialog = screen.getByTestId('approval-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('A manager approves the new signing key')
    expect(dialog.contains(document.activeElement)).toBe(true)
    type('approval-operator-input', '9')
    type('approval-pin-input', '0000')
    await act(async () => {
      fireEvent.click(screen.getByTestId('approve-button'))
    })
    expect(within(screen.getByTestId('approval-dialog')).getByRole('alert').textContent).toBe(
      'That operator number and PIN do not match. Try again.',
    )
    type('approval-operator-input', '9')
    type('approval-pin-input', '4321')
    await act(async () => {
      fireEvent.click(screen.getByTestId('approve-button'))
    })
    expect(screen.queryByTestId('approval-dialog')).toBeNull()
    expect(screen.getByTestId('signing-key-notice').textContent).toContain('A1B2C3')
    expect(bridge.callsOf('setSigningKey').map((r) => r.approval)).toEqual([
      undefined,
      { operatorId: '9', pin: '0000' },
      { operatorId: '9', pin: '4321' },
    ])

    // Cancel: the refusal the agent gave is what the screen says.
    type('signing-key-input', KEY)
    await act(async () => {
      fireEvent.click(screen.getByTestId('save-signing-key-button'))
    })
    await act(async () => {
      fireEvent.click(within(screen.getByTestId('approval-dialog')).getByRole('button', { name: 'Cancel' }))
    })
    expect(screen.queryByTestId('approval-dialog')).toBeNull()
    expect(screen.getByTestId('signing-key-notice').textContent).toContain('A manager must approve this.')
  })
})

describe('a late reading of the counter', () => {
  it('never puts a cashier who just signed in back at the sign-in screen', async () => {
    const nobody: CounterOperatorView = { required: true, voidWithoutManagerMinutes: 30 }
    let signedIn = false
    /** The answer to a reading asked before the sign-in, held until the test lets it arrive. */
    let answerLate: (() => void) | undefined
    const bridge = new FakeBridge()
      .on('counterOperator', () => {
        const now = signedIn ? { ...nobody, operator: ANN } : nobody
        if (signedIn || answerLate !== undefined || bridge.callsOf('counterOperator').length === 1) return ok(now)
        return new Promise((resolve) => (answerLate = () => resolve(ok(now))))
      })
      .on('signIn', () => {
        signedIn = true
        return ok(ANN)
      })
    const store = createPosStore({ bridge, now: () => 0 })
    await store.getState().load()
    expect(signInNeeded(store.getState())).toBe(true)
    // A reload (after the event stream reconnected) asks who is signed in: nobody, yet; its answer is slow.
    const reload = store.getState().refreshOperator()
    // The cashier signs in meanwhile, and the sign-in's own reading comes back first.
    expect(await store.getState().signIn('17', '1234')).toBe(true)
    expect(signInNeeded(store.getState())).toBe(false)
    // The reload's answer, from before the sign-in, arrives last: older news, dropped.
    answerLate?.()
    await reload
    expect(signInNeeded(store.getState())).toBe(false)
    expect(store.getState().counter?.operator?.id).toBe('17')
  })
})
