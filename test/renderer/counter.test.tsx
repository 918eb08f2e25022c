/**
 * One counter, whoever starts the sale: a sale the POS started (or one already running when the
 * window opened) comes onto the sale screen live, marked, cancellable while that is safe, with its
 * result like any other; and a cashier who presses Charge meanwhile sees that sale, not a refusal.
 */
import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { adoptRunningSale, currentSale } from '../../src-renderer/src/store'
import { err, FakeBridge, makeSale, ok } from './fake-bridge'
import { renderApp, typeChars } from './render-app'

const prompt = () => screen.getByRole('status', { name: 'Sale status' })
const posSale = (overrides: Parameters<typeof makeSale>[0] = {}) =>
  makeSale({ id: 'P1', state: 'readingCard', amountMinor: 4321, startedBy: 'pos', updatedAt: 5, ...overrides })

describe('a sale started by the POS', () => {
  it('shows live on the sale screen, from another screen, marked "Started by the POS", and Cancel stops it', async () => {
    const bridge = new FakeBridge().on('cancelSale', (r) => ok(posSale({ id: r.id, state: 'abandoned', updatedAt: 9 })))
    const { emit, store } = await renderApp(bridge, { screen: 'queue' })
    emit({ type: 'sale', sale: posSale({ state: 'created', updatedAt: 4 }) })
    expect(store.getState().screen).toBe('sale')
    emit({ type: 'sale', sale: posSale() })
    expect(prompt().textContent).toContain('Insert, tap or swipe the card')
    expect(screen.getByTestId('sale-origin').textContent).toBe('Started by the POS')
    expect(screen.getByTestId<HTMLInputElement>('amount-input').value).toBe('43.21')
    expect(screen.getByTestId('nav-queue')).toHaveProperty('disabled', true)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel sale' }))
    })
    expect(bridge.callsOf('cancelSale')).toEqual([{ id: 'P1' }])
    expect(screen.getByTestId('result-heading').textContent).toBe('Not completed')
  })

  it('a prompt the reader gave for the last sale does not show on the new one', async () => {
    const { emit } = await renderApp(new FakeBridge())
    emit({ type: 'sale', sale: posSale() })
    emit({ type: 'device', prompt: { type: 'removeCard' }, saleId: 'EARLIER' })
    expect(prompt().textContent).toContain('Insert, tap or swipe the card')
    emit({ type: 'device', prompt: { type: 'enterPin' }, saleId: 'P1' })
    expect(prompt().textContent).toContain('Enter PIN')
  })

  it('cannot be cancelled once the bank answers, and says why', async () => {
    const { emit } = await renderApp(new FakeBridge())
    emit({ type: 'sale', sale: posSale() })
    emit({ type: 'sale', sale: posSale({ state: 'sending', updatedAt: 6 }) })
    const cancel = screen.getByRole('button', { name: 'Cancel sale' })
    expect(cancel).toHaveProperty('disabled', true)
    const why = document.getElementById(cancel.getAttribute('aria-describedby') ?? '')
    expect(why?.textContent).toBe('The bank is answering; this sale can no longer be stopped.')
  })

  it('shows its result like any other sale, and a sale at this screen is not marked', async () => {
    const bridge = new FakeBridge().on('startSale', (r) =>
      ok(makeSale({ id: 'C1', amountMinor: r.amountMinor, startedBy: 'counter', updatedAt: 20 })),
    )
    const { emit } = await renderApp(bridge)
    emit({ type: 'sale', sale: posSale() })
    emit({ type: 'sale', sale: posSale({ state: 'approved', authCode: 'AB12CD', updatedAt: 7 }) })
    expect(screen.getByTestId('result-heading').textContent).toBe('Approved')
    expect(screen.getByTestId('result-auth-code').textContent).toBe('AB12CD')
    fireEvent.click(screen.getByTestId('new-sale-button'))
    typeChars(screen.getByTestId<HTMLInputElement>('amount-input'), '500')
    await act(async () => {
      fireEvent.click(screen.getByTestId('charge-button'))
    })
    expect(screen.queryByTestId('sale-origin')).toBeNull()
  })

  it('a Charge refused because the POS sale holds the counter shows that sale instead of the refusal', async () => {
    const bridge = new FakeBridge().on('startSale', () => err('SALE_IN_PROGRESS', 'another sale is running'))
    const { store } = await renderApp(bridge)
    typeChars(screen.getByTestId<HTMLInputElement>('amount-input'), '500')
    bridge.hold('startSale')
    await act(async () => {
      fireEvent.click(screen.getByTestId('charge-button'))
    })
    // While this window's own start is on its way, an event is not taken for another sale.
    act(() => bridge.emit({ type: 'sale', sale: posSale() }))
    expect(currentSale(store.getState())).toBeNull()
    await act(async () => {
      bridge.release('startSale', err('SALE_IN_PROGRESS', 'another sale is running'))
    })
    expect(currentSale(store.getState())?.id).toBe('P1')
    expect(prompt().textContent).toContain('Insert, tap or swipe the card')
  })

  it('a sale already running when the window opens is put on the screen', async () => {
    const bridge = new FakeBridge().on('listSales', () => ok([posSale({ state: 'approved', id: 'OLD', updatedAt: 1 }), posSale()]))
    const { store } = await renderApp(bridge)
    expect(currentSale(store.getState())?.id).toBe('P1')
  })

  it('is not taken over a sale still at the counter, nor for a void of an earlier sale', () => {
    const running = makeSale({ id: 'C1', state: 'sending' })
    const base = { starting: false, voidingSaleId: null, currentSaleId: 'C1', sales: { C1: running } }
    expect(adoptRunningSale(base, posSale())).toBeNull()
    const free = { ...base, currentSaleId: null, sales: {} }
    expect(adoptRunningSale(free, posSale({ state: 'voidReadingCard' }))).toBeNull()
    expect(adoptRunningSale(free, posSale({ state: 'approved' }))).toBeNull()
    expect(adoptRunningSale(free, posSale())).toMatchObject({ currentSaleId: 'P1', screen: 'sale' })
  })
})
