/**
 * The customer display's door to the agent: it reads, it never acts (DISPLAY_OPERATIONS). The agent
 * refuses anything else from the display's session; this bridge does not even ask, so a refresh the
 * cashier's store makes (signed-in operator, tokens, a report) never reaches the agent from the
 * customer's screen, however many of them the store learns to make.
 */
import { DISPLAY_OPERATIONS } from '../../../src-shared/contract'
import { failed } from '../../../src-shared/errors'
import type { RendererBridge } from '.'

export function displayBridge(bridge: RendererBridge): RendererBridge {
  const call: RendererBridge['call'] = async (operation, request) => {
    if (DISPLAY_OPERATIONS.includes(operation)) return bridge.call(operation, request)
    return failed('FORBIDDEN', `the customer display only reads; ${operation} is not asked from it`)
  }
  const reading: RendererBridge = { call, subscribe: (listener) => bridge.subscribe(listener) }
  const onReconnect = bridge.onReconnect
  if (onReconnect) reading.onReconnect = (listener) => onReconnect.call(bridge, listener)
  const onConnection = bridge.onConnection
  if (onConnection) reading.onConnection = (listener) => onConnection.call(bridge, listener)
  return reading
}
