/**
 * The store-and-forward retry policy as tables: the jittered delay (the random draw is passed in, so
 * every row is exact), when an item is tried again and when it goes to needs attention, per queued
 * operation, with the rows exactly at the attempt and age limits.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  afterFailedAttempt,
  DEFAULT_RETRY_POLICY,
  maxAgeHoursOf,
  nextDelayMs,
  timeLeftMs,
  type RetryPolicy,
} from '../../../src-main/txn/retry-policy'
import type { QueuedOperation } from '../../../src-main/txn/txn-types'
import { QUEUE_OPERATION_NOUNS } from '../../../src-shared/sale'

const SECOND = 1_000
const HOUR = 3_600_000
const CREATED_AT = Date.parse('2026-11-21T10:00:00Z')
const OPERATIONS: readonly QueuedOperation[] = ['payment', 'reversal', 'tips', 'cancel', 'capture', 'merchandiseCredit']

/** Rows with a plain-text title each (vitest quotes and shortens `$field` strings). */
const titled = <T>(rows: readonly T[], title: (row: T) => string): Array<[string, T]> => rows.map((row) => [title(row), row])

describe('the defaults', () => {
  it('are the ones docs/product-defaults.md §3 records', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      baseDelayMs: 2 * SECOND,
      maxDelayMs: 5 * 60 * SECOND,
      maxAttempts: 200,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    })
  })
})

describe('nextDelayMs with the default policy (base 2 s, cap 5 min)', () => {
  // ceiling = min(cap, base × 2^attempts); delay = base/2 + random × (ceiling − base/2), rounded.
  const rows = titled(
    [
      { attempts: 0, random: 0, delayMs: 1_000 },
      { attempts: 0, random: 0.5, delayMs: 1_500 },
      { attempts: 0, random: 0.999, delayMs: 1_999 },
      { attempts: 1, random: 0, delayMs: 1_000 },
      { attempts: 1, random: 0.5, delayMs: 2_500 },
      { attempts: 1, random: 0.999, delayMs: 3_997 },
      { attempts: 2, random: 0.5, delayMs: 4_500 },
      { attempts: 3, random: 0.5, delayMs: 8_500 },
      { attempts: 7, random: 0.5, delayMs: 128_500 }, // ceiling 256 s, still under the cap
      { attempts: 7, random: 0.999, delayMs: 255_745 },
      { attempts: 8, random: 0, delayMs: 1_000 }, // ceiling capped at 300 s from here on
      { attempts: 8, random: 0.5, delayMs: 150_500 },
      { attempts: 8, random: 0.999, delayMs: 299_701 },
      { attempts: 30, random: 0.999, delayMs: 299_701 },
      { attempts: 31, random: 0.999, delayMs: 299_701 },
      { attempts: 10_000, random: 0.999, delayMs: 299_701 }, // the exponent stops at 30: no Infinity
      { attempts: 200, random: 1, delayMs: 300_000 }, // random = 1 is outside [0, 1): exactly the cap
    ],
    (r) => `attempts ${r.attempts}, random ${r.random} → ${r.delayMs} ms`,
  )
  it.each(rows)('%s', (_, { attempts, random, delayMs }) => {
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, attempts, random)).toBe(delayMs)
  })

  it.each([0, 1, 2, 5, 8, 30, 200])('attempts %i: every draw lies in [base/2, min(cap, base × 2^attempts)]', (attempts) => {
    const ceiling = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** attempts)
    for (let random = 0; random < 1; random += 0.0625) {
      const delay = nextDelayMs(DEFAULT_RETRY_POLICY, attempts, random)
      // The floor is half the base delay, not zero as in textbook "full jitter": a retry is never immediate.
      expect(delay).toBeGreaterThanOrEqual(DEFAULT_RETRY_POLICY.baseDelayMs / 2)
      expect(delay).toBeLessThanOrEqual(ceiling)
    }
  })
})

describe('nextDelayMs with other policies', () => {
  const rows = titled(
    [
      { name: 'base 0: no wait at all', policy: { baseDelayMs: 0, maxDelayMs: 1_000 }, attempts: 5, random: 0.9, delayMs: 0 },
      {
        name: 'base = cap: jitter between half and the cap',
        policy: { baseDelayMs: 1_000, maxDelayMs: 1_000 },
        attempts: 4,
        random: 0.5,
        delayMs: 750,
      },
      // Half the base above the cap: the cap wins, whatever the draw.
      {
        name: 'base/2 above the cap: the cap',
        policy: { baseDelayMs: 2_000, maxDelayMs: 500 },
        attempts: 0,
        random: 0,
        delayMs: 500,
      },
      {
        name: 'base/2 above the cap, random near 1: the cap',
        policy: { baseDelayMs: 2_000, maxDelayMs: 500 },
        attempts: 0,
        random: 0.999,
        delayMs: 500,
      },
    ],
    (r) => `${r.name}: attempts ${r.attempts}, random ${r.random} → ${r.delayMs} ms`,
  )
  it.each(rows)('%s', (_, { policy, attempts, random, delayMs }) => {
    expect(nextDelayMs({ ...DEFAULT_RETRY_POLICY, ...policy }, attempts, random)).toBe(delayMs)
  })

  it('whatever the policy, the attempt and the draw: never negative, never above the cap, growing no faster than doubling', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 600_000 }),
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.integer({ min: 0, max: 1_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (baseDelayMs, maxDelayMs, attempts, random) => {
          const delay = nextDelayMs({ ...DEFAULT_RETRY_POLICY, baseDelayMs, maxDelayMs }, attempts, random)
          expect(delay).toBeGreaterThanOrEqual(0)
          expect(delay).toBeLessThanOrEqual(maxDelayMs)
          expect(delay).toBeLessThanOrEqual(Math.ceil(baseDelayMs * 2 ** Math.min(attempts, 30)))
        },
      ),
    )
  })
})

type Expected = { retryInMs: number } | { gaveUp: string }

const say = (expected: Expected): string =>
  'retryInMs' in expected ? `retry in ${expected.retryInMs} ms` : `give up: "${expected.gaveUp}"`

const retryIn = (retryInMs: number): Expected => ({ retryInMs })
const afterAttempts = (operation: QueuedOperation, attempts: number): Expected => ({
  gaveUp: `the bank did not confirm the ${QUEUE_OPERATION_NOUNS[operation]} after ${attempts} ${attempts === 1 ? 'try' : 'tries'}`,
})
const tooOld = (operation: QueuedOperation, hours: number): Expected => ({
  gaveUp: `the bank did not confirm the ${QUEUE_OPERATION_NOUNS[operation]} within ${hours} hours`,
})

interface AttemptRow {
  operation: QueuedOperation
  attempts: number
  age: string
  ageMs: number
  random: number
  expected: Expected
}

const row = (operation: QueuedOperation, attempts: number, age: string, ageMs: number, expected: Expected, random = 0.5): AttemptRow => ({
  operation,
  attempts,
  age,
  ageMs,
  random,
  expected,
})

/** The same limits for every operation but the reversal, which may wait three days. */
function rowsFor(operation: QueuedOperation, limitHours: number): AttemptRow[] {
  const limit = limitHours * HOUR
  return [
    row(operation, 1, 'fresh', 0, retryIn(2_500)),
    row(operation, 1, `${limitHours} h − 1 ms`, limit - 1, retryIn(2_500)),
    row(operation, 1, `exactly ${limitHours} h`, limit, tooOld(operation, limitHours)),
    row(operation, 1, `${limitHours} h + 1 ms`, limit + 1, tooOld(operation, limitHours)),
    row(operation, 199, 'fresh', 0, retryIn(150_500)),
    row(operation, 200, 'fresh', 0, afterAttempts(operation, 200)),
    row(operation, 200, `exactly ${limitHours} h`, limit, afterAttempts(operation, 200)), // the attempt limit is checked first
  ]
}

const ATTEMPT_ROWS: AttemptRow[] = [
  ...rowsFor('payment', 24),
  ...rowsFor('reversal', 72),
  ...rowsFor('tips', 24),
  ...rowsFor('cancel', 24),
  ...rowsFor('capture', 24),
  row('reversal', 1, '24 h (a payment would give up here)', 24 * HOUR, retryIn(2_500)),
  row('reversal', 1, '48 h', 48 * HOUR, retryIn(2_500)),
  row('payment', 201, 'fresh', 0, afterAttempts('payment', 201)),
  row('payment', 1, 'fresh', 0, retryIn(1_000), 0),
  row('payment', 1, 'fresh', 0, retryIn(3_997), 0.999),
  row('payment', 8, '1 h', HOUR, retryIn(299_701), 0.999),
  row('payment', 1, 'created 1 h in the future (clock set back)', -HOUR, retryIn(2_500)),
]

describe('afterFailedAttempt with the default policy: operation × attempts × age', () => {
  const rows = titled(
    ATTEMPT_ROWS,
    (r) => `${r.operation}, ${r.attempts} attempt(s), age ${r.age}, random ${r.random} → ${say(r.expected)}`,
  )
  it.each(rows)('%s', (_, r) => {
    const now = CREATED_AT + r.ageMs
    const verdict = afterFailedAttempt(DEFAULT_RETRY_POLICY, r.operation, r.attempts, CREATED_AT, now, r.random)
    if ('retryInMs' in r.expected) expect(verdict).toEqual({ retry: true, at: now + r.expected.retryInMs })
    else expect(verdict).toEqual({ retry: false, reason: r.expected.gaveUp })
  })

  it('a retry is always planned with the same delay nextDelayMs gives for that attempt count', () => {
    for (const attempts of [0, 1, 7, 8, 199]) {
      const now = CREATED_AT + HOUR
      const verdict = afterFailedAttempt(DEFAULT_RETRY_POLICY, 'payment', attempts, CREATED_AT, now, 0.25)
      expect(verdict).toEqual({ retry: true, at: now + nextDelayMs(DEFAULT_RETRY_POLICY, attempts, 0.25) })
    }
  })
})

describe('afterFailedAttempt with other limits', () => {
  const policy = (patch: Partial<RetryPolicy>): RetryPolicy => ({ ...DEFAULT_RETRY_POLICY, ...patch })
  const ages = { ...DEFAULT_RETRY_POLICY.maxAgeHours }

  const rows = titled(
    [
      {
        name: 'maxAttempts 1: the first failure gives up',
        policy: policy({ maxAttempts: 1 }),
        attempts: 1,
        ageMs: 0,
        expected: afterAttempts('payment', 1),
      },
      { name: 'maxAttempts 1, nothing tried yet', policy: policy({ maxAttempts: 1 }), attempts: 0, ageMs: 0, expected: retryIn(1_500) },
      {
        name: 'maxAttempts 0: gives up before any attempt',
        policy: policy({ maxAttempts: 0 }),
        attempts: 0,
        ageMs: 0,
        expected: afterAttempts('payment', 0),
      },
      {
        name: 'maxAgeHours 0: gives up at age 0',
        policy: policy({ maxAgeHours: { ...ages, payment: 0 } }),
        attempts: 1,
        ageMs: 0,
        expected: tooOld('payment', 0),
      },
      {
        name: 'half an hour limit, 1 ms before',
        policy: policy({ maxAgeHours: { ...ages, payment: 0.5 } }),
        attempts: 1,
        ageMs: HOUR / 2 - 1,
        expected: retryIn(2_500),
      },
      {
        name: 'half an hour limit, exactly at it',
        policy: policy({ maxAgeHours: { ...ages, payment: 0.5 } }),
        attempts: 1,
        ageMs: HOUR / 2,
        expected: tooOld('payment', 0.5),
      },
    ],
    (r) => `${r.name} → ${say(r.expected)}`,
  )
  it.each(rows)('%s', (_, { policy: p, attempts, ageMs, expected }) => {
    const now = CREATED_AT + ageMs
    const verdict = afterFailedAttempt(p, 'payment', attempts, CREATED_AT, now, 0.5)
    if ('retryInMs' in expected) expect(verdict).toEqual({ retry: true, at: now + expected.retryInMs })
    else expect(verdict).toEqual({ retry: false, reason: expected.gaveUp })
  })
})

describe('timeLeftMs: what the queue panel shows before an item needs attention', () => {
  const rows = titled<{ operation: QueuedOperation; age: string; ageMs: number; leftMs: number }>(
    [
      { operation: 'payment', age: 'fresh', ageMs: 0, leftMs: 24 * HOUR },
      { operation: 'payment', age: '23 h', ageMs: 23 * HOUR, leftMs: HOUR },
      { operation: 'payment', age: '24 h − 1 ms', ageMs: 24 * HOUR - 1, leftMs: 1 },
      { operation: 'payment', age: 'exactly 24 h', ageMs: 24 * HOUR, leftMs: 0 },
      { operation: 'payment', age: '30 h (never negative)', ageMs: 30 * HOUR, leftMs: 0 },
      { operation: 'reversal', age: '24 h', ageMs: 24 * HOUR, leftMs: 48 * HOUR },
      { operation: 'reversal', age: 'exactly 72 h', ageMs: 72 * HOUR, leftMs: 0 },
      { operation: 'tips', age: '12 h', ageMs: 12 * HOUR, leftMs: 12 * HOUR },
      { operation: 'cancel', age: '12 h', ageMs: 12 * HOUR, leftMs: 12 * HOUR },
      { operation: 'capture', age: '12 h', ageMs: 12 * HOUR, leftMs: 12 * HOUR },
      // The clock was set back: more time left than the limit itself.
      { operation: 'payment', age: 'created 1 h in the future', ageMs: -HOUR, leftMs: 25 * HOUR },
    ],
    (r) => `${r.operation}, age ${r.age} → ${r.leftMs} ms left`,
  )
  it.each(rows)('%s', (_, { operation, ageMs, leftMs }) => {
    expect(timeLeftMs(DEFAULT_RETRY_POLICY, operation, CREATED_AT, CREATED_AT + ageMs)).toBe(leftMs)
  })

  const edges = OPERATIONS.flatMap((operation) =>
    [-1, 0, 1].map((offsetMs) => ({ operation, offsetMs, ageMs: maxAgeHoursOf(DEFAULT_RETRY_POLICY, operation) * HOUR + offsetMs })),
  )
  const edgeRows = titled(edges, (r) => `${r.operation}, ${r.offsetMs} ms from its age limit: gives up on age exactly when no time is left`)
  it.each(edgeRows)('%s', (_, { operation, ageMs }) => {
    const now = CREATED_AT + ageMs
    const left = timeLeftMs(DEFAULT_RETRY_POLICY, operation, CREATED_AT, now)
    const verdict = afterFailedAttempt(DEFAULT_RETRY_POLICY, operation, 1, CREATED_AT, now, 0.5)
    expect(verdict.retry).toBe(left > 0)
  })
})
