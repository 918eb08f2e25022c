/**
 * The status line says how safe the store's copies of offline approvals are, in the agent's plain
 * words, whenever the terminal has a store server; without one it says nothing about copies.
 */
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeBridge, makeQueue, ok } from './fake-bridge'
import { renderApp } from './render-app'

describe('the store copy on the status line', () => {
  it('copies held in memory are said with what a power cut there loses', async () => {
    const words = 'Copies: held in memory on the store server — a power cut there can lose the last two minutes'
    const bridge = new FakeBridge().on('queueStatus', () => ok(makeQueue({ storeCopy: words, storeCopySynced: false })))
    await renderApp(bridge)
    const badge = await screen.findByTestId('store-copy')
    expect(badge.textContent).toBe(words)
    expect(badge.className).toContain('tone-warn')
  })

  it('copies kept on three servers are said as good news', async () => {
    const words = 'Copies: kept on three servers — one of them can lose power without losing any'
    const bridge = new FakeBridge().on('queueStatus', () => ok(makeQueue({ storeCopy: words, storeCopySynced: true })))
    await renderApp(bridge)
    const badge = await screen.findByTestId('store-copy')
    expect(badge.textContent).toBe(words)
    expect(badge.className).toContain('tone-ok')
  })

  it('without a store server nothing is said about copies', async () => {
    await renderApp(new FakeBridge())
    await screen.findByText('Bank not tried yet')
    expect(screen.queryByTestId('store-copy')).toBeNull()
    expect(document.body.textContent).not.toMatch(/Copies:/)
  })
})
