/** While the agent does not answer, the window says so (grey badge, Charge disabled with the reason) and comes back by itself. */
import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeBridge, makeQueue, makeSale, ok } from './fake-bridge'
import { renderApp } from './render-app'

const statusLine = () => document.querySelector('header')!

describe('a window whose agent does not answer', () => {
  it('shows the status in red, disables Charge with the reason, and reloads and sells once the agent is back', async () => {
    const bridge = new FakeBridge().on('queueStatus', () => ok(makeQueue({ hostReachable: true })))
    bridge.on('startSale', (request) => ok(makeSale({ amountMinor: request.amountMinor, state: 'readingCard' })))
    const { store } = await renderApp(bridge)
    const header = statusLine()
    expect(header.textContent).toContain('Reader connected')
    expect(header.textContent).toContain('Bank online')
    fireEvent.click(screen.getByRole('button', { name: '5' }))
    expect(screen.getByTestId<HTMLButtonElement>('charge-button').disabled).toBe(false)

    act(() => bridge.connection('down'))
    expect(header.textContent).not.toContain('Reader connected')
    expect(header.textContent).not.toContain('Bank online')
    const badge = screen.getByTestId('agent-not-answering')
    expect(badge.textContent).toBe('Payment agent not answering')
    expect(badge.className).toContain('tone-error')
    expect(header.querySelectorAll('.tone-ok')).toHaveLength(0)
    const charge = screen.getByTestId<HTMLButtonElement>('charge-button')
    expect(charge.disabled).toBe(true)
    expect(screen.getByTestId('charge-disabled-reason').textContent).toContain('Payment agent not answering')
    expect(screen.getByRole('status', { name: 'Sale status' }).textContent).toContain('Nothing can be charged now')
    expect(charge.getAttribute('aria-describedby')).toBe(screen.getByTestId('charge-disabled-reason').id)

    const loadsBefore = bridge.callsOf('appInfo').length
    await act(async () => {
      bridge.connection('up')
      bridge.reconnect()
    })
    expect(bridge.callsOf('appInfo').length).toBe(loadsBefore + 1)
    expect(screen.queryByTestId('agent-not-answering')).toBeNull()
    expect(header.textContent).toContain('Reader connected')
    expect(screen.getByTestId<HTMLButtonElement>('charge-button').disabled).toBe(false)
    await act(async () => {
      fireEvent.click(screen.getByTestId('charge-button'))
    })
    expect(bridge.callsOf('startSale')).toHaveLength(1)
    expect(store.getState().agentAnswering).toBe(true)
  })
})
