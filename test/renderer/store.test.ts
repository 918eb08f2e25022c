import { describe, expect, it } from 'vitest'
import { canStartSale, connectStore, createPosStore, salePhase, salePrompt, type PosStore } from '../../src-renderer/src/store'
import { err, FakeBridge, makeAppInfo, makeQueue, makeSale, ok } from './fake-bridge'

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

async function loadedStore(bridge = new FakeBridge(), now = () => 1_700_000_000_000): Promise<PosStore> {
  const store = createPosStore({ bridge, now })
  connectStore(store)
  await store.getState().load()
  return store
}

describe('one press, one sale', () => {
  it('sends startSale once for a double Enter and a double tap while the first is in flight', async () => {
    const bridge = new FakeBridge()
    const store = await loadedStore(bridge)
    store.getState().typeDigits('1234')
    bridge.hold('startSale')
    store.getState().pressEnter()
    store.getState().pressEnter()
    void store.getState().startSale()
    expect(store.getState().starting).toBe(true)
    expect(bridge.callsOf('startSale')).toEqual([{ amountMinor: 1234, currency: 'USD' }])
    bridge.release('startSale', ok(makeSale({ id: 'S1' })))
    await flush()
    expect(store.getState().currentSaleId).toBe('S1')
    expect(salePhase(store.getState())).toBe('reading')
    // The sale runs: Enter still does nothing, even with digits typed.
    store.getState().typeDigits('5')
    store.getState().pressEnter()
    expect(bridge.callsOf('startSale')).toHaveLength(1)
  })

  it('refuses to start while a sale waits at the counter, and allows the next once it ended', async () => {
    const bridge = new FakeBridge()
    bridge.on('startSale', (r) => ok(makeSale({ id: `S${bridge.callsOf('startSale').length}`, amountMinor: r.amountMinor })))
    const store = await loadedStore(bridge)
    store.getState().typeDigits('500')
    await store.getState().startSale()
    expect(store.getState().entryDigits).toBe('')
    store.receive({ type: 'sale', sale: makeSale({ id: 'S1', state: 'sending', updatedAt: 2e12 }) })
    expect(canStartSale(store.getState())).toBe(false)
    store.receive({ type: 'sale', sale: makeSale({ id: 'S1', state: 'approved', authCode: 'A1', updatedAt: 2e12 + 1 }) })
    expect(salePhase(store.getState())).toBe('result')
    // Typing after a result starts the next sale's amount.
    store.getState().typeDigits('7')
    expect(store.getState().currentSaleId).toBeNull()
    expect(canStartSale(store.getState())).toBe(true)
    await store.getState().startSale()
    expect(bridge.callsOf('startSale')).toEqual([
      { amountMinor: 500, currency: 'USD' },
      { amountMinor: 7, currency: 'USD' },
    ])
  })

  it('keeps the amount and says why when the agent refuses', async () => {
    const bridge = new FakeBridge().on('startSale', () => err('AGENT_UNREACHABLE', 'fetch failed'))
    const store = await loadedStore(bridge)
    store.getState().typeDigits('99')
    await store.getState().startSale()
    expect(store.getState().entryDigits).toBe('99')
    expect(salePrompt(store.getState())).toMatchObject({ text: 'The sale did not start', tone: 'error' })
    expect(salePrompt(store.getState()).detail).toMatch(/Cannot reach the payment agent/)
    expect(canStartSale(store.getState())).toBe(true)
  })

  it('cannot start without an amount or before appInfo gave the currency', async () => {
    const bridge = new FakeBridge()
    const store = createPosStore({ bridge, now: () => 0 })
    store.getState().typeDigits('100')
    expect(canStartSale(store.getState())).toBe(false)
    await store.getState().load()
    expect(canStartSale(store.getState())).toBe(true)
    store.getState().clearEntry()
    expect(canStartSale(store.getState())).toBe(false)
    await store.getState().startSale()
    expect(bridge.callsOf('startSale')).toHaveLength(0)
  })

  it('cannot start while a void waits for the card', async () => {
    const approved = makeSale({ id: 'V1', state: 'approved', maskedPan: '476173******0010' })
    const bridge = new FakeBridge()
      .on('listSales', () => ok([approved]))
      .on('voidSale', () => ok({ ...approved, state: 'voidReadingCard', updatedAt: approved.updatedAt + 1 }))
    const store = await loadedStore(bridge)
    await store.getState().voidSale('V1')
    store.getState().typeDigits('100')
    expect(canStartSale(store.getState())).toBe(false)
    expect(store.getState().entryDigits).toBe('')
  })
})

describe('events update the state', () => {
  it('applies sale events, and a late answer never rolls a sale back', async () => {
    const bridge = new FakeBridge()
    const store = await loadedStore(bridge)
    store.getState().typeDigits('1234')
    bridge.hold('startSale')
    const started = store.getState().startSale()
    // The agent publishes the sale before its answer arrives.
    bridge.emit({ type: 'sale', sale: makeSale({ id: 'S9', state: 'sending', updatedAt: 20 }) })
    bridge.release('startSale', ok(makeSale({ id: 'S9', state: 'readingCard', updatedAt: 10 })))
    await started
    expect(store.getState().sales.S9?.state).toBe('sending')
    expect(salePhase(store.getState())).toBe('processing')
  })

  it('applies queue, device connection, prompts and alarms', async () => {
    let now = 1000
    const bridge = new FakeBridge()
    const store = await loadedStore(bridge, () => now)
    now = 5000
    bridge.emit({ type: 'queue', queue: makeQueue({ count: 3, hostReachable: false }) })
    expect(store.getState().queue?.count).toBe(3)
    expect(store.getState().queueAt).toBe(5000)
    bridge.emit({ type: 'device', prompt: { type: 'connection', state: 'reconnecting' } })
    expect(store.getState().device).toMatchObject({ link: 'reconnecting', port: '/dev/ttyACM0' })
    bridge.emit({ type: 'device', prompt: { type: 'connection', state: 'connected', port: '/dev/ttyACM1' } })
    expect(store.getState().device).toMatchObject({ link: 'connected', port: '/dev/ttyACM1' })
    bridge.emit({ type: 'device', prompt: { type: 'enterPin' } })
    expect(store.getState().prompt).toEqual({ type: 'enterPin' })
    bridge.emit({ type: 'alarm', alarm: { code: 'DATA_KEY_MISSING', message: 'data key missing' } })
    bridge.emit({ type: 'alarm', alarm: { code: 'DATA_KEY_MISSING', message: 'data key still missing' } })
    expect(store.getState().alarms).toEqual([{ code: 'DATA_KEY_MISSING', message: 'data key still missing' }])
  })

  it('loads everything again when the live feed comes back after a break', async () => {
    const bridge = new FakeBridge()
    await loadedStore(bridge)
    const before = bridge.callsOf('appInfo').length
    bridge.reconnect()
    await flush()
    expect(bridge.callsOf('appInfo').length).toBe(before + 1)
  })

  it('keeps whether the agent answers, and Charge waits for it', async () => {
    const bridge = new FakeBridge()
    const store = await loadedStore(bridge)
    store.getState().typeDigits('250')
    expect(canStartSale(store.getState())).toBe(true)
    bridge.connection('down')
    expect(store.getState().agentAnswering).toBe(false)
    expect(canStartSale(store.getState())).toBe(false)
    store.getState().pressEnter()
    await flush()
    expect(bridge.callsOf('startSale')).toEqual([])
    bridge.connection('up')
    expect(store.getState().agentAnswering).toBe(true)
    expect(canStartSale(store.getState())).toBe(true)
  })

  it('refreshes the queue items when the attention count changes, once they were loaded', async () => {
    const bridge = new FakeBridge()
    const store = await loadedStore(bridge)
    bridge.emit({ type: 'queue', queue: makeQueue({ attentionCount: 1 }) })
    expect(bridge.callsOf('queueItems')).toHaveLength(0)
    await store.getState().refreshQueueItems()
    bridge.emit({ type: 'queue', queue: makeQueue({ attentionCount: 2 }) })
    bridge.emit({ type: 'queue', queue: makeQueue({ attentionCount: 2 }) })
    expect(bridge.callsOf('queueItems')).toHaveLength(2)
  })
})

describe('sale prompt follows the reader', () => {
  it('shows the reader prompts that fit the sale state and drops stale ones', async () => {
    const bridge = new FakeBridge().on('startSale', () => ok(makeSale({ id: 'S1', state: 'readingCard', updatedAt: 1 })))
    const store = await loadedStore(bridge)
    bridge.emit({ type: 'device', prompt: { type: 'removeCard' } }) // left over from before: cleared by the new sale
    store.getState().typeDigits('100')
    await store.getState().startSale()
    expect(salePrompt(store.getState()).text).toBe('Insert, tap or swipe the card')
    bridge.emit({ type: 'device', prompt: { type: 'enterPin' } })
    expect(salePrompt(store.getState()).text).toBe('Enter PIN')
    bridge.emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'sending', updatedAt: 2 }) })
    expect(salePrompt(store.getState()).text).toBe('Processing')
    bridge.emit({ type: 'device', prompt: { type: 'removeCard' } })
    expect(salePrompt(store.getState()).text).toBe('Remove card')
    bridge.emit({ type: 'sale', sale: makeSale({ id: 'S1', state: 'approved', updatedAt: 3 }) })
    expect(salePrompt(store.getState())).toMatchObject({
      text: 'Approved',
      detail: expect.stringContaining('takes the card out'),
      tone: 'ok',
    })
  })

  it('escape stops the card reading, then clears', async () => {
    const bridge = new FakeBridge()
      .on('startSale', () => ok(makeSale({ id: 'S1', state: 'readingCard', updatedAt: 1 })))
      .on('cancelSale', () => ok(makeSale({ id: 'S1', state: 'abandoned', updatedAt: 2 })))
    const store = await loadedStore(bridge)
    store.getState().typeDigits('100')
    await store.getState().startSale()
    store.getState().pressEscape()
    await flush()
    expect(bridge.callsOf('cancelSale')).toEqual([{ id: 'S1' }])
    expect(salePhase(store.getState())).toBe('result')
    store.getState().pressEscape()
    expect(salePhase(store.getState())).toBe('idle')
  })
})

describe('amount entry', () => {
  it('keys cash-register style, ignores leading zeros and caps the digits', async () => {
    const store = await loadedStore(new FakeBridge(makeAppInfo({ currency: 'JPY' })))
    const s = () => store.getState()
    s().typeDigits('0')
    s().typeDigits('00')
    expect(s().entryDigits).toBe('')
    s().typeDigits('1')
    s().typeDigits('00')
    s().eraseDigit()
    expect(s().entryDigits).toBe('10')
    s().setEntryText('USD 1,234.5x')
    expect(s().entryDigits).toBe('12345')
    s().setEntryText('12345678901')
    expect(s().entryDigits).toBe('123456789')
    s().typeDigits('1')
    expect(s().entryDigits).toBe('123456789')
  })
})
