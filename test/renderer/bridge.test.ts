import { describe, expect, it, vi } from 'vitest'
import type { PosBridge, PosEvent } from '../../src-shared/contract'
import { chooseBridge, createElectronBridge, createHttpBridge, type EventSourceLike } from '../../src-renderer/src/bridge'
import { makeSale } from './fake-bridge'

class FakeEventSource implements EventSourceLike {
  readyState = 0
  onopen: ((event: Event) => unknown) | null = null
  onmessage: ((event: MessageEvent) => unknown) | null = null
  onerror: ((event: Event) => unknown) | null = null
  closed = false
  constructor(readonly url: string) {}
  open() {
    this.readyState = 1
    this.onopen?.(new Event('open'))
  }
  message(data: string) {
    this.onmessage?.(new MessageEvent('message', { data }))
  }
  fail(readyState: 0 | 2) {
    this.readyState = readyState
    this.onerror?.(new Event('error'))
  }
  close() {
    this.closed = true
    this.readyState = 2
  }
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

describe('HTTP bridge: operations', () => {
  it('POSTs the request as JSON to /v1/ops/{operation} and returns the PosResult', async () => {
    const sale = makeSale()
    const fetchMock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => jsonResponse({ ok: true, value: sale }))
    const bridge = createHttpBridge({ fetch: fetchMock, openEvents: (url) => new FakeEventSource(url) })
    const result = await bridge.call('startSale', { amountMinor: 1234, currency: 'USD' })
    expect(result).toEqual({ ok: true, value: sale })
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/v1/ops/startSale')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('same-origin')
    expect(JSON.parse(String(init?.body))).toEqual({ amountMinor: 1234, currency: 'USD' })
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json')
  })

  it('passes the agent errors through as data', async () => {
    const error = { code: 'SALE_IN_PROGRESS', message: 'busy', retryable: true }
    const bridge = createHttpBridge({ fetch: async () => jsonResponse({ ok: false, error }, 409) })
    expect(await bridge.call('startSale', { amountMinor: 1 })).toEqual({ ok: false, error })
  })

  it('turns a network failure into AGENT_UNREACHABLE', async () => {
    const bridge = createHttpBridge({
      fetch: async () => {
        throw new TypeError('Failed to fetch')
      },
    })
    const result = await bridge.call('appInfo', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'AGENT_UNREACHABLE', retryable: true } })
  })

  it('turns an answer that is not a PosResult into AGENT_FAILED (server error) or AGENT_BAD_RESPONSE', async () => {
    const html = createHttpBridge({ fetch: async () => new Response('<html>', { status: 502 }) })
    expect(await html.call('appInfo', {})).toMatchObject({ ok: false, error: { code: 'AGENT_FAILED', retryable: true } })
    const shape = createHttpBridge({ fetch: async () => jsonResponse({ value: 1 }) })
    expect(await shape.call('appInfo', {})).toMatchObject({ ok: false, error: { code: 'AGENT_BAD_RESPONSE', retryable: false } })
  })
})

describe('HTTP bridge: server-sent events', () => {
  function setup() {
    const sources: FakeEventSource[] = []
    const timers: Array<{ run: () => void; ms: number }> = []
    const bridge = createHttpBridge({
      fetch: async () => jsonResponse({ ok: true, value: null }),
      openEvents: (url) => {
        const source = new FakeEventSource(url)
        sources.push(source)
        return source
      },
      setTimer: (run, ms) => timers.push({ run, ms }),
      clearTimer: () => {},
    })
    return { bridge, sources, timers }
  }

  it('opens /v1/events once for all listeners and delivers each JSON event, skipping malformed ones', () => {
    const { bridge, sources } = setup()
    const a: PosEvent[] = []
    const b: PosEvent[] = []
    bridge.subscribe((e) => a.push(e))
    bridge.subscribe((e) => b.push(e))
    expect(sources.map((s) => s.url)).toEqual(['/v1/events'])
    sources[0]?.open()
    sources[0]?.message('not json')
    sources[0]?.message(JSON.stringify({ type: 'unknown' }))
    sources[0]?.message(JSON.stringify({ type: 'device', prompt: { type: 'enterPin' } }))
    expect(a).toEqual([{ type: 'device', prompt: { type: 'enterPin' } }])
    expect(b).toEqual(a)
  })

  it('reopens the stream after the browser gave up, with a growing delay, and reports the reconnect', () => {
    const { bridge, sources, timers } = setup()
    const reconnects = vi.fn()
    bridge.onReconnect(reconnects)
    bridge.subscribe(() => {})
    sources[0]?.open()
    // CONNECTING after an error: the browser retries by itself.
    sources[0]?.fail(0)
    expect(timers).toHaveLength(0)
    sources[0]?.fail(2)
    expect(sources[0]?.closed).toBe(true)
    expect(timers.map((t) => t.ms)).toEqual([1000])
    timers[0]?.run()
    expect(sources).toHaveLength(2)
    sources[1]?.fail(2)
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000])
    timers[1]?.run()
    expect(reconnects).not.toHaveBeenCalled()
    sources[2]?.open()
    expect(reconnects).toHaveBeenCalledTimes(1)
  })

  it('reports the agent down when the stream breaks or a call reaches nobody, and up once it answers', async () => {
    const sources: FakeEventSource[] = []
    let reachable = true
    const bridge = createHttpBridge({
      fetch: async () => {
        if (!reachable) throw new TypeError('Failed to fetch')
        return jsonResponse({ ok: true, value: null })
      },
      openEvents: (url) => {
        const source = new FakeEventSource(url)
        sources.push(source)
        return source
      },
      setTimer: () => 0,
      clearTimer: () => {},
    })
    const states: string[] = []
    bridge.onConnection((state) => states.push(state))
    bridge.subscribe(() => {})
    sources[0]?.open()
    expect(states).toEqual([])
    // The browser is still retrying by itself (CONNECTING), yet the agent is gone already.
    sources[0]?.fail(0)
    expect(states).toEqual(['down'])
    sources[0]?.fail(0)
    expect(states).toEqual(['down'])
    sources[0]?.open()
    expect(states).toEqual(['down', 'up'])
    reachable = false
    expect(await bridge.call('appInfo', {})).toMatchObject({ ok: false, error: { code: 'AGENT_UNREACHABLE' } })
    expect(states).toEqual(['down', 'up', 'down'])
    reachable = true
    expect(await bridge.call('appInfo', {})).toMatchObject({ ok: true })
    expect(states).toEqual(['down', 'up', 'down', 'up'])
  })

  it('closes the stream when the last listener leaves', () => {
    const { bridge, sources } = setup()
    const off1 = bridge.subscribe(() => {})
    const off2 = bridge.subscribe(() => {})
    off1()
    expect(sources[0]?.closed).toBe(false)
    off2()
    expect(sources[0]?.closed).toBe(true)
  })
})

describe('Electron bridge and the choice', () => {
  it('turns a failed IPC call into AGENT_UNREACHABLE', async () => {
    const pos: PosBridge = {
      call: async () => {
        throw new Error('channel closed')
      },
      subscribe: () => () => {},
    }
    const result = await createElectronBridge(pos).call('appInfo', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'AGENT_UNREACHABLE' } })
  })

  it('uses window.pos when it implements PosBridge, the HTTP bridge otherwise', async () => {
    const call = vi.fn(async () => ({ ok: true as const, value: { presented: 'chip-visa' } }))
    const pos = { call, subscribe: () => () => {} }
    const chosen = chooseBridge({ pos })
    expect(await chosen.call('presentTestCard', { name: 'chip-visa' })).toEqual({ ok: true, value: { presented: 'chip-visa' } })
    expect(call).toHaveBeenCalledWith('presentTestCard', { name: 'chip-visa' })
    expect(chosen.onReconnect).toBeUndefined()
    expect(chooseBridge({ pos: { bridgeVersion: 1 } }).onReconnect).toBeTypeOf('function')
    expect(chooseBridge({}).onReconnect).toBeTypeOf('function')
  })
})
