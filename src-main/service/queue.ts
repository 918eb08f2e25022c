/** The store-and-forward queue: how it stands, what waits in it, and sending now. */
import { timeLeftMs } from '../txn'
import type { Handlers, ServiceParts } from './service-parts'

export function queueHandlers(parts: ServiceParts): Handlers<'queueStatus' | 'queueItems' | 'forwardNow'> {
  const { engine, retry } = parts.deps
  return {
    queueStatus: () => parts.queueStatus(),
    queueItems: () => {
      const now = parts.now()
      return engine.forwarder.waiting().map((item) => ({ ...item, expiresInMs: timeLeftMs(retry, item.operation, item.createdAt, now) }))
    },
    forwardNow: async () => {
      await engine.forwarder.forwardNow()
      return parts.queueStatus()
    },
  }
}
