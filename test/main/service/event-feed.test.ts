/**
 * The service's live events (src-main/service/event-feed.ts), fed from engine parts that only emit:
 * a change of the store copy's class is a queue event at once, so the status line's copy words and
 * tone follow the store server's answer without waiting for the queue's next change.
 */
import { EventEmitter } from 'node:events'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { PosEvent, QueueStatusView } from '../../../src-shared/contract'
import { feedEvents } from '../../../src-main/service/event-feed'
import type { SaleEvents } from '../../../src-main/service/sale-events'
import type { ServiceDeps } from '../../../src-main/service/service-parts'

describe('the live events', () => {
  it('a new store copy class is a queue event with its words and tone; listening stops with the feed', () => {
    let copy = { words: 'Copies: not read from the store server yet', synced: false }
    const listeners = new Set<() => void>()
    const engine = {
      txn: new EventEmitter(),
      forwarder: new EventEmitter(),
      onStoreCopy: (listener: () => void) => (listeners.add(listener), () => void listeners.delete(listener)),
    }
    const deps = { engine, logger: pino({ level: 'silent' }), reader: { onEvent: () => () => undefined } } as unknown as ServiceDeps
    const status = (): QueueStatusView => ({
      count: 0,
      storedCount: 0,
      storedAmountMinor: {},
      attentionCount: 0,
      lockedCount: 0,
      storeCopy: copy.words,
      storeCopySynced: copy.synced,
    })
    const events: PosEvent[] = []
    const stop = feedEvents(deps, {} as SaleEvents, status, (event) => events.push(event))

    copy = { words: 'Copies: kept on three servers — one of them can lose power without losing any', synced: true }
    for (const listener of listeners) listener()
    expect(events).toEqual([{ type: 'queue', queue: expect.objectContaining({ storeCopy: copy.words, storeCopySynced: true }) }])

    for (const off of stop) off()
    expect(listeners.size).toBe(0)
  })
})
