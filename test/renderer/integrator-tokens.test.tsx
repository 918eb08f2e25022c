/**
 * Settings → Integrator tokens, as a manager uses them: a token made for a named POS is shown once,
 * the list never shows a token, revoking asks first, and leaving Settings forgets the new token.
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { IntegratorTokenView, PairedWindowView } from '../../src-shared/contract'
import { FakeBridge, makeSettings, ok } from './fake-bridge'
import { renderApp } from './render-app'

function tokenBridge() {
  let tokens: IntegratorTokenView[] = []
  const bridge = new FakeBridge()
    .on('settings', () => ok(makeSettings()))
    .on('listTokens', () => ok(tokens))
    .on('createToken', (r) => {
      const view: IntegratorTokenView = {
        id: `id-${tokens.length + 1}`,
        name: r.name,
        createdAt: 1_700_000_000_000,
        scopes: r.scopes ?? ['read', 'sell'],
      }
      tokens = [view, ...tokens]
      return ok({ token: 'pat_secret-value-shown-once', integrator: view })
    })
    .on('revokeToken', (r) => {
      tokens = tokens.map((t) => (t.id === r.id ? { ...t, revokedAt: 1_700_000_100_000 } : t))
      return ok(tokens.find((t) => t.id === r.id)!)
    })
  return bridge
}

describe('integrator tokens in Settings', () => {
  it('makes a token for a named POS, shows it once, lists it without it, and forgets it when the manager leaves', async () => {
    const bridge = tokenBridge()
    await renderApp(bridge, { screen: 'settings' })
    const section = screen.getByTestId('integrator-tokens')
    expect(within(section).getByTestId('no-tokens')).toBeTruthy()
    const create = within(section).getByTestId('create-token-button')
    expect(create.hasAttribute('disabled')).toBe(true)
    expect(section.textContent).toContain('Type what the token is for first.')
    fireEvent.change(within(section).getByLabelText('New token for (the POS it is for)'), { target: { value: 'Back-office POS' } })
    await act(async () => {
      fireEvent.click(create)
    })
    expect(bridge.callsOf('createToken')).toEqual([{ name: 'Back-office POS', scopes: ['read', 'sell'] }])
    // Over the page, so it is in view however long Settings is; focus on the token, not on Done.
    const shown = screen.getByRole('dialog', { name: 'Token for Back-office POS' })
    expect(within(shown).getByTestId('new-token-text').textContent).toBe('pat_secret-value-shown-once')
    expect(document.activeElement).toBe(within(shown).getByTestId('new-token-text'))
    fireEvent.keyDown(shown, { key: 'Escape' })
    expect(screen.getByRole('dialog', { name: 'Token for Back-office POS' })).toBe(shown)
    expect(within(screen.getByTestId('token-list')).getByTestId('token-Back-office POS').textContent).toContain('never used')
    expect(screen.getByTestId('token-list').textContent).not.toContain('pat_secret')

    // Leaving Settings forgets the token: coming back shows only the list.
    fireEvent.click(screen.getByRole('button', { name: 'Sale' }))
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    await act(async () => undefined)
    expect(screen.queryByTestId('new-token')).toBeNull()
    expect(document.body.textContent).not.toContain('pat_secret')
  })

  it('makes a token with the scopes the manager ticks, warns before managing the terminal, and lists what each may do', async () => {
    const bridge = tokenBridge()
    await renderApp(bridge, { screen: 'settings' })
    const section = screen.getByTestId('integrator-tokens')
    fireEvent.change(within(section).getByLabelText('New token for (the POS it is for)'), { target: { value: 'Refund desk' } })
    expect(within(section).queryByTestId('token-admin-warning')).toBeNull()
    fireEvent.click(within(section).getByLabelText('Take payments, voids and tips'))
    fireEvent.click(within(section).getByLabelText('Give refunds'))
    fireEvent.click(within(section).getByLabelText('Manage this terminal (signing key, staff, tokens)'))
    expect(within(section).getByTestId('token-admin-warning').textContent).toContain('signing key')
    fireEvent.click(within(section).getByLabelText('Manage this terminal (signing key, staff, tokens)'))
    await act(async () => {
      fireEvent.click(within(section).getByTestId('create-token-button'))
    })
    expect(bridge.callsOf('createToken')).toEqual([{ name: 'Refund desk', scopes: ['read', 'refund'] }])
    fireEvent.click(screen.getByTestId('new-token-done'))
    expect(screen.getByTestId('token-scopes-Refund desk').textContent).toBe('It may: look up sales and reports; give refunds')
    // Nothing ticked: nothing to make.
    fireEvent.change(within(section).getByLabelText('New token for (the POS it is for)'), { target: { value: 'Nothing' } })
    fireEvent.click(within(section).getByLabelText('Look up sales and reports'))
    fireEvent.click(within(section).getByLabelText('Take payments, voids and tips'))
    expect(within(section).getByTestId('create-token-button').hasAttribute('disabled')).toBe(true)
    expect(section.textContent).toContain('Tick at least one thing it may do.')
  })

  it('revokes a token only once the manager confirms', async () => {
    const bridge = tokenBridge()
    await renderApp(bridge, { screen: 'settings' })
    fireEvent.change(screen.getByTestId('token-name-input'), { target: { value: 'Kiosk' } })
    await act(async () => {
      fireEvent.click(screen.getByTestId('create-token-button'))
    })
    fireEvent.click(screen.getByRole('button', { name: 'Done, I have copied it' }))
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Kiosk' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke the token for Kiosk?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }))
    expect(bridge.callsOf('revokeToken')).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Kiosk' }))
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke' }))
    })
    expect(bridge.callsOf('revokeToken')).toEqual([{ id: 'id-1' }])
    expect(screen.getByTestId('token-notice').textContent).toContain('"Kiosk" is revoked')
    expect(screen.getByTestId('no-tokens')).toBeTruthy()
  })
})

describe('paired windows in Settings', () => {
  it('lists the windows with what opened them, marks this one, and closes another once confirmed', async () => {
    let windows: PairedWindowView[] = [
      {
        id: 'aaaaaaaaaaaa',
        view: 'cashier',
        openedBy: "the computer's owner",
        createdAt: 1_700_000_000_000,
        lastSeenAt: 1_700_000_100_000,
        current: true,
      },
      {
        id: 'bbbbbbbbbbbb',
        view: 'customer',
        openedBy: 'the integration "Kitchen"',
        createdAt: 1_700_000_000_000,
        lastSeenAt: 1_700_000_000_000,
        current: false,
      },
    ]
    const bridge = tokenBridge()
      .on('listWindows', () => ok(windows))
      .on('revokeWindow', (r) => {
        windows = windows.filter((w) => w.id !== r.id)
        return ok(windows)
      })
    await renderApp(bridge, { screen: 'settings' })
    const section = screen.getByTestId('paired-windows')
    expect(within(section).getByTestId('window-aaaaaaaaaaaa').textContent).toContain('Cashier window (this one)')
    expect(within(section).getByTestId('window-aaaaaaaaaaaa').querySelector('button')).toBeNull()
    const other = within(section).getByTestId('window-bbbbbbbbbbbb')
    expect(other.textContent).toContain('Opened by the integration "Kitchen"')
    fireEvent.click(within(other).getByRole('button', { name: 'Close this window' }))
    expect(bridge.callsOf('revokeWindow')).toEqual([])
    await act(async () => {
      fireEvent.click(within(screen.getByTestId('close-window-dialog')).getByRole('button', { name: 'Close it' }))
    })
    expect(bridge.callsOf('revokeWindow')).toEqual([{ id: 'bbbbbbbbbbbb' }])
    expect(within(section).queryByTestId('window-bbbbbbbbbbbb')).toBeNull()
  })
})
