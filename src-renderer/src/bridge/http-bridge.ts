/**
 * The browser-mode adapter of PosBridge: operations are `POST /v1/ops/{operation}` with the JSON
 * request, answered with the PosResult JSON; live updates are server-sent events on `/v1/events`,
 * each `data:` line one PosEvent. Same-origin cookies authenticate, so no token is handled here.
 */
import type { OperationName, OperationRequest, OperationResults, PosBridge, PosEvent, PosResult } from '../../../src-shared/contract'
import { describeCause, failure, isPosResult } from './bridge-errors'

/** The part of the DOM EventSource this adapter uses (lets tests pass a fake). */
export interface EventSourceLike {
  readonly readyState: number
  onopen: ((event: Event) => unknown) | null
  onmessage: ((event: MessageEvent) => unknown) | null
  onerror: ((event: Event) => unknown) | null
  close(): void
}

export interface HttpBridgeOptions {
  /** Origin prefix, '' (same origin) by default. */
  baseUrl?: string
  fetch?: typeof fetch
  openEvents?: (url: string) => EventSourceLike
  /** Delay before reopening a stream the browser gave up on; grows with the attempt number. */
  retryDelayMs?: (attempt: number) => number
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

/** Whether the agent answers: 'down' from a broken stream or a call that reached nobody, 'up' once it answers again. */
export type AgentConnection = 'up' | 'down'

/**
 * A PosBridge that also reports when the event stream came back after a break (events may have been
 * missed), and whether the agent answers at all (so the screen never shows a stale "connected").
 */
export interface HttpBridge extends PosBridge {
  onReconnect(listener: () => void): () => void
  onConnection(listener: (state: AgentConnection) => void): () => void
}

/** EventSource.CLOSED: the browser will not retry by itself (HTTP error status or wrong content type). */
const CLOSED = 2
const EVENT_TYPES = new Set<PosEvent['type']>(['sale', 'queue', 'device', 'alarm', 'amountCheck'])

/** 1 s, 2 s, 4 s … capped at 30 s. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5))
}

export function parseEventData(data: unknown): PosEvent | undefined {
  if (typeof data !== 'string') return undefined
  try {
    const value: unknown = JSON.parse(data)
    if (typeof value !== 'object' || value === null) return undefined
    const type = (value as { type?: unknown }).type
    return typeof type === 'string' && EVENT_TYPES.has(type as PosEvent['type']) ? (value as PosEvent) : undefined
  } catch {
    return undefined
  }
}

export function createHttpBridge(options: HttpBridgeOptions = {}): HttpBridge {
  const base = options.baseUrl ?? ''
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const openEvents = options.openEvents ?? ((url: string) => new EventSource(url))
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms))
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>))

  const listeners = new Set<(event: PosEvent) => void>()
  const reconnectListeners = new Set<() => void>()
  const connectionListeners = new Set<(state: AgentConnection) => void>()
  let connection: AgentConnection = 'up'
  const report = (state: AgentConnection): void => {
    if (state === connection) return
    connection = state
    for (const listener of [...connectionListeners]) listener(state)
  }
  let source: EventSourceLike | undefined
  let timer: unknown
  let attempt = 0
  let broken = false

  const open = (): void => {
    timer = undefined
    const current = openEvents(`${base}/v1/events`)
    source = current
    current.onopen = () => {
      attempt = 0
      report('up')
      if (!broken) return
      broken = false
      for (const listener of [...reconnectListeners]) listener()
    }
    current.onmessage = (message) => {
      const event = parseEventData(message.data)
      if (!event) return
      for (const listener of [...listeners]) {
        try {
          listener(event)
        } catch (cause) {
          console.error('pos event listener failed', cause)
        }
      }
    }
    current.onerror = () => {
      broken = true
      // A stream that breaks while the agent answers calls is the agent gone (a restart, a crash):
      // the browser's own retry may take seconds, and the screen must not say "connected" meanwhile.
      if (source === current) report('down')
      // While CONNECTING the browser retries on its own; once CLOSED it is up to us.
      if (current.readyState !== CLOSED || source !== current) return
      current.close()
      source = undefined
      timer = setTimer(open, retryDelayMs(attempt++))
    }
  }

  const close = (): void => {
    if (timer !== undefined) clearTimer(timer)
    timer = undefined
    source?.close()
    source = undefined
    attempt = 0
    broken = false
  }

  return {
    async call<K extends OperationName>(operation: K, request: OperationRequest<K>): Promise<PosResult<OperationResults[K]>> {
      let text: string
      let status: number
      try {
        const response = await fetchFn(`${base}/v1/ops/${operation}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(request),
          credentials: 'same-origin',
        })
        status = response.status
        text = await response.text()
        report('up')
      } catch (cause) {
        report('down')
        return failure('AGENT_UNREACHABLE', `Could not reach the agent: ${describeCause(cause)}`)
      }
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      if (isPosResult(body)) return body as PosResult<OperationResults[K]>
      // A server error without a result is the agent failing (worth another try); anything else
      // is an answer this screen cannot read.
      return failure(
        status >= 500 ? 'AGENT_FAILED' : 'AGENT_BAD_RESPONSE',
        `The agent answered "${operation}" with HTTP ${status} and no result`,
      )
    },
    subscribe(listener) {
      listeners.add(listener)
      if (!source && timer === undefined) open()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) close()
      }
    },
    onReconnect(listener) {
      reconnectListeners.add(listener)
      return () => reconnectListeners.delete(listener)
    },
    onConnection(listener) {
      connectionListeners.add(listener)
      return () => connectionListeners.delete(listener)
    },
  }
}
