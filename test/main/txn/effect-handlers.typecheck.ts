/**
 * Compile-time proof, checked by `npm run typecheck`: the effect handler maps must name every effect.
 * Each map below leaves one out, and the build would fail if that were allowed (an unused
 * `@ts-expect-error` is itself an error).
 */
import type { IoEffectHandlers } from '../../../src-main/txn/step-engine'
import type { JournalEffectHandlers } from '../../../src-main/txn/write-ahead'

const run = async (): Promise<void> => undefined
const note = (): void => undefined

// @ts-expect-error sendPayment has no handler: a sale would stop after its card was read
export const withoutSendPayment: IoEffectHandlers = { readCard: run, completeCard: run, cancelCardRead: run }

// @ts-expect-error purgeCardData has no handler: card data would outlive its use
export const withoutPurge: JournalEffectHandlers = { enqueue: note, withdraw: note, retryQueued: note, keepForManager: note }

export const complete: [IoEffectHandlers, JournalEffectHandlers] = [
  { readCard: run, sendPayment: run, completeCard: run, cancelCardRead: run },
  { enqueue: note, withdraw: note, retryQueued: note, purgeCardData: note, keepForManager: note },
]
