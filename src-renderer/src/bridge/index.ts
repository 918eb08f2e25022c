/**
 * The renderer's one door to the agent. In Electron the preload exposes `window.pos` (PosBridge over
 * IPC); in a plain browser (`pos-agent serve`) there is none and the HTTP + SSE adapter is used.
 */
import type { PosBridge } from '../../../src-shared/contract'
import { createElectronBridge, isPosBridge } from './electron-bridge'
import { createHttpBridge, type HttpBridge } from './http-bridge'

export type { AgentConnection, EventSourceLike, HttpBridge, HttpBridgeOptions } from './http-bridge'
export { createHttpBridge, parseEventData } from './http-bridge'
export { createElectronBridge, isPosBridge } from './electron-bridge'
export { displayBridge } from './display-bridge'

/** A bridge that may also tell when its live feed came back after a break, and whether the agent answers. */
export type RendererBridge = PosBridge & Partial<Pick<HttpBridge, 'onReconnect' | 'onConnection'>>

/**
 * `baseUrl` is where the page calls the agent in a browser: '' for the cashier, '/customer' for the
 * customer display, whose session cookie is sent only there (src-main/api/window-cookies.ts).
 */
export function chooseBridge(host: { pos?: unknown } = window as unknown as { pos?: unknown }, baseUrl = ''): RendererBridge {
  return isPosBridge(host.pos) ? createElectronBridge(host.pos) : createHttpBridge({ baseUrl })
}
