import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ERROR_CATALOGUE, wordsOf } from '../../src-shared/errors'
import { err, FakeBridge, makeAppInfo, makeSale, makeSettings, ok, trainingCardsNamed } from './fake-bridge'
import { renderApp } from './render-app'

const KEY = '0123456789abcdef0123456789ABCDEF'

describe('settings: signing key', () => {
  it('shows the settings and key status, stores a key, clears the field and never displays the key', async () => {
    let present = false
    const bridge = new FakeBridge()
      .on('settings', () => ok(makeSettings(present ? { signingKey: { present: true, kcv: 'A1B2C3' } } : {})))
      .on('setSigningKey', () => {
        present = true
        return ok({ kcv: 'A1B2C3' })
      })
    const { view } = await renderApp(bridge, { screen: 'settings' })
    expect(screen.getByTestId('settings-host').textContent).toBe('https://offline.acquirer.example')
    expect(screen.getByTestId('signing-key-status').textContent).toBe('Not stored')
    const field = screen.getByLabelText<HTMLInputElement>('New signing key from the acquirer (32 characters)')
    expect(field.type).toBe('password')
    fireEvent.change(field, { target: { value: KEY.slice(0, 10) } })
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Store the key' }).disabled).toBe(true)
    expect(view.container.textContent).toContain('this is 10')
    fireEvent.change(field, { target: { value: KEY } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Store the key' }))
    })
    expect(bridge.callsOf('setSigningKey')).toEqual([{ key: KEY }])
    expect(field.value).toBe('')
    expect(screen.getByTestId('signing-key-status').textContent).toBe("Stored (check value A1B2C3, to compare with the acquirer's)")
    expect(screen.getByTestId('signing-key-notice').textContent).toContain('A1B2C3')
    expect(document.body.innerHTML).not.toContain(KEY)
    expect(document.body.innerHTML).not.toContain(KEY.slice(0, 10))
  })

  it('clears the field even when the agent refuses the key', async () => {
    const bridge = new FakeBridge().on('setSigningKey', () => err('KEYCHAIN_UNAVAILABLE', 'no keychain'))
    await renderApp(bridge, { screen: 'settings' })
    const field = screen.getByLabelText<HTMLInputElement>('New signing key from the acquirer (32 characters)')
    fireEvent.change(field, { target: { value: KEY } })
    await act(async () => {
      fireEvent.submit(field.closest('form') as HTMLFormElement)
    })
    expect(field.value).toBe('')
    expect(screen.getByTestId('signing-key-notice').textContent).toContain(ERROR_CATALOGUE.KEYCHAIN_UNAVAILABLE.words)
    expect(screen.getByTestId('signing-key-notice').textContent).not.toContain('no keychain')
    expect(document.body.innerHTML).not.toContain(KEY)
  })
})

describe('app shell', () => {
  it('navigates with named buttons and marks the current screen', async () => {
    await renderApp()
    for (const [name, heading] of [
      ['Transactions', 'Transactions of the day'],
      ['Tips', 'Tips'],
      ['Close of day', /Close of day/],
      ['Queue', 'Queue'],
      ['Device', 'Card reader'],
      ['Settings', 'Settings'],
    ] as const) {
      fireEvent.click(screen.getByRole('button', { name }))
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeTruthy()
      expect(screen.getByRole('button', { name }).getAttribute('aria-current')).toBe('page')
    }
    fireEvent.click(screen.getByRole('button', { name: 'Sale' }))
    expect(screen.getByTestId('amount-input')).toBeTruthy()
  })

  it("shows alarms from appInfo and from alarm events, in the catalogue's words, never the detail", async () => {
    const detail = "the journal's data key is missing from the keychain while 3 encrypted rows wait for it"
    const { emit } = await renderApp(new FakeBridge(makeAppInfo({ alarms: [{ code: 'DATA_KEY_MISSING', message: detail }] })))
    expect(screen.getByTestId('alarms-banner').textContent).toContain(wordsOf('DATA_KEY_MISSING'))
    emit({
      type: 'alarm',
      alarm: { code: 'NEEDS_ATTENTION', message: 'payment of sale T1-00000001 needs a manager: (last: notDelivered: HTTP 503)' },
    })
    const banner = screen.getByRole('alert').textContent ?? ''
    expect(banner).toContain('A sale needs a manager. Open the Queue screen')
    expect(banner).not.toMatch(/keychain|T1-0|notDelivered|HTTP/)
  })

  it('device panel follows connection events', async () => {
    const { emit } = await renderApp(undefined, { screen: 'device' })
    expect(screen.getByTestId('device-link').textContent).toBe('Connected')
    expect(screen.getByTestId('device-port').textContent).toBe('/dev/ttyACM0')
    emit({ type: 'device', prompt: { type: 'connection', state: 'reconnecting' } })
    expect(screen.getByTestId('device-link').textContent).toBe('Reconnecting…')
    emit({ type: 'device', prompt: { type: 'connection', state: 'disconnected' } })
    expect(screen.getByTestId('device-link').textContent).toBe('Not connected')
  })

  it('says when the agent cannot be reached, and tries again', async () => {
    let reachable = false
    const bridge = new FakeBridge().on('appInfo', () => (reachable ? ok(makeAppInfo()) : err('AGENT_UNREACHABLE', 'down')))
    await renderApp(bridge)
    expect(screen.getByRole('alert').textContent).toContain('Cannot reach the payment agent')
    reachable = true
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    })
    expect(screen.getByTestId('amount-input')).toBeTruthy()
  })

  it('every button has an accessible name and every input a label', async () => {
    const bridge = new FakeBridge(makeAppInfo({ mode: 'training', trainingCards: trainingCardsNamed('chip-visa') }))
    await renderApp(bridge)
    const screens = ['Sale', 'Transactions', 'Tips', 'Close of day', 'Queue', 'Device', 'Settings']
    for (const name of screens) {
      fireEvent.click(screen.getByRole('button', { name }))
      for (const button of screen.getAllByRole('button')) {
        const name = button.getAttribute('aria-label') ?? button.textContent ?? ''
        expect(name.trim(), button.outerHTML).not.toBe('')
      }
      for (const input of document.querySelectorAll('input')) {
        const labelled = input.labels?.length || input.getAttribute('aria-label') || input.getAttribute('aria-labelledby')
        expect(Boolean(labelled), input.outerHTML).toBe(true)
      }
    }
  })
})

describe('the screen buttons as a menu', () => {
  it('opens and closes with its button and Escape, says why screens are greyed out during a sale', async () => {
    const bridge = new FakeBridge().on('startSale', (r) => ok(makeSale({ id: 'S1', amountMinor: r.amountMinor, updatedAt: 2 })))
    await renderApp(bridge)
    const menu = screen.getByTestId('nav-menu')
    expect(menu.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(menu)
    expect(menu.getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(screen.getByTestId('nav-queue'), { key: 'Escape' })
    expect(menu.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(menu)
    fireEvent.keyDown(document.body, { key: '5' })
    await act(async () => {
      fireEvent.click(screen.getByTestId('charge-button'))
    })
    const queue = screen.getByTestId('nav-queue')
    expect(queue).toHaveProperty('disabled', true)
    expect(document.getElementById(queue.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /once the sale or void at the counter has finished/,
    )
  })
})
