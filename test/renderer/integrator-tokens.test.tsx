/**
 * Settings → Integrator tokens, as a manager uses them: a token made for a named POS is shown once,
 * the list never shows a token, revoking asks first, and leaving Settings forgets the new token.
 */
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { IntegratorTokenView } from '../../src-shared/contract'
import { FakeBridge, makeSettings, ok } from './fake-bridge'
import { renderApp } from './render-app'

function tokenBridge() {
  let tokens: IntegratorTokenView[] = []
  const bridge = new FakeBridge()
    .on('settings', () => ok(makeSettings()))
    .on('listTokens', () => ok(tokens))
    .on('createToken', (r) => {
      const view: IntegratorTokenView = { id: `id-${tokens.length + 1}`, name: r.name, createdAt: 1_700_000_000_000, scopes: ['read', 'sell'] }
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
    expect(bridge.callsOf('createToken')).toEqual([{ name: 'Back-office POS' }])
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
