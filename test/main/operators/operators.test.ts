/**
 * Operators on a real journal file: the first manager, approvals, PINs as scrypt hashes (never in
 * the file or its WAL), the lockout after five wrong PINs and its end, and refusals that do not tell
 * which operator numbers exist.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { OperatorStore, openJournalDatabase } from '../../../src-main/journal'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { hashPin, LOCKOUT_MS, MAX_WRONG_PINS, Operators, pinMatches, scryptPinHasher } from '../../../src-main/operators'

/** Cheap scrypt for tests; the default cost is checked once below. */
const COST = { N: 2 ** 10, r: 8, p: 1 }
const MANAGER = { operatorId: '9', name: 'Maria', role: 'manager' as const, pin: '4321' }
const CASHIER = { operatorId: '17', name: 'Ann', role: 'cashier' as const, pin: '1234' }

let dir: string
let db: Database.Database
let clock: { now: number }
let operators: Operators

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pos-operators-'))
  db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
  clock = { now: Date.parse('2026-11-24T09:00:00Z') }
  operators = new Operators(new OperatorStore(db), () => clock.now, COST)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const refusal = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work
  } catch (error) {
    return (error as { code: string }).code
  }
  return 'none'
}

describe('accounts and approval', () => {
  it('the first operator is a manager; approval is a manager number and PIN, checked as a sign-in is', async () => {
    expect(operators.hasManager()).toBe(false)
    expect(await refusal(operators.add(CASHIER))).toBe('MANAGER_REQUIRED')
    await operators.add(MANAGER)
    expect(operators.hasManager()).toBe(true)
    const ann = await operators.add(CASHIER)
    expect(ann).toEqual({ id: '17', name: 'Ann', role: 'cashier', createdAt: clock.now, disabled: false })
    expect(await refusal(operators.approve({ operatorId: '9', pin: '0000' }))).toBe('PIN_WRONG')
    expect(await operators.approve({ operatorId: '9', pin: '4321' })).toMatchObject({ id: '9', role: 'manager' })
    // A cashier is no approver.
    expect(await refusal(operators.approve({ operatorId: '17', pin: '1234' }))).toBe('MANAGER_REQUIRED')
    expect(await refusal(operators.approve(undefined))).toBe('MANAGER_REQUIRED')
    expect(await refusal(operators.add(CASHIER))).toBe('OPERATOR_EXISTS')
    expect(await refusal(operators.add({ ...CASHIER, operatorId: '19', pin: '12' }))).toBe('PIN_INVALID')
    expect(operators.list().map((o) => o.id)).toEqual(['9', '17'])
  })

  it('the last manager cannot be disabled; a disabled operator cannot sign in', async () => {
    await operators.add(MANAGER)
    await operators.add(CASHIER)
    expect(await refusal(Promise.resolve().then(() => operators.disable('9')))).toBe('LAST_MANAGER')
    operators.disable('17')
    expect(await refusal(operators.verify({ operatorId: '17', pin: '1234' }))).toBe('PIN_WRONG')
  })
})

describe('PINs at rest', () => {
  it('are scrypt hashes with their own salt: never the PIN, in the journal file or its WAL', async () => {
    await operators.add({ ...MANAGER, pin: '73915' })
    const files = readdirSync(dir).filter((name) => name.startsWith('journal.sqlite'))
    for (const name of files) expect(readFileSync(join(dir, name)).includes(Buffer.from('73915'))).toBe(false)
    const stored = new OperatorStore(db).get('9')!.pinHash
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    expect(await hashPin('73915', COST)).not.toBe(stored)
  })

  it('the default cost (N = 2^15, r = 8) hashes and checks', async () => {
    const stored = await hashPin('2468')
    expect(stored.startsWith('scrypt$32768$8$1$')).toBe(true)
    expect(await pinMatches('2468', stored)).toBe(true)
    expect(await pinMatches('2469', stored)).toBe(false)
    expect(await pinMatches('2468', 'bcrypt$something')).toBe(false)
  })
})

describe('wrong PINs and the lockout', () => {
  beforeEach(async () => {
    await operators.add(MANAGER)
    await operators.add(CASHIER)
  })

  it(`locks after ${MAX_WRONG_PINS} wrong PINs in a row; the right PIN is refused while locked, accepted after`, async () => {
    for (let i = 1; i < MAX_WRONG_PINS; i++) expect(await refusal(operators.verify({ operatorId: '17', pin: '0000' }))).toBe('PIN_WRONG')
    expect(await refusal(operators.verify({ operatorId: '17', pin: '0000' }))).toBe('OPERATOR_LOCKED')
    expect(await refusal(operators.verify({ operatorId: '17', pin: '1234' }))).toBe('OPERATOR_LOCKED')
    expect(operators.list().find((o) => o.id === '17')?.lockedUntil).toBe(clock.now + LOCKOUT_MS)
    clock.now += LOCKOUT_MS + 1
    expect(await operators.verify({ operatorId: '17', pin: '1234' })).toMatchObject({ id: '17', role: 'cashier' })
  })

  it('a right PIN clears the count; a manager setting a new PIN lifts a lockout', async () => {
    for (let i = 1; i < MAX_WRONG_PINS; i++) await refusal(operators.verify({ operatorId: '17', pin: '0000' }))
    await operators.verify({ operatorId: '17', pin: '1234' })
    for (let i = 1; i < MAX_WRONG_PINS; i++) expect(await refusal(operators.verify({ operatorId: '17', pin: '0000' }))).toBe('PIN_WRONG')
    expect(await refusal(operators.verify({ operatorId: '17', pin: '0000' }))).toBe('OPERATOR_LOCKED')
    await operators.setPin('17', '5555')
    expect(await operators.verify({ operatorId: '17', pin: '5555' })).toMatchObject({ id: '17' })
  })

  it('a manager unlocks a locked operator without changing the PIN', async () => {
    for (let i = 1; i <= MAX_WRONG_PINS; i++) await refusal(operators.verify({ operatorId: '17', pin: '0000' }))
    expect(await refusal(operators.verify({ operatorId: '17', pin: '1234' }))).toBe('OPERATOR_LOCKED')
    const unlocked = operators.unlock('17')
    expect(unlocked).toMatchObject({ id: '17', wasLocked: true })
    expect(unlocked.lockedUntil).toBeUndefined()
    expect(await operators.verify({ operatorId: '17', pin: '1234' })).toMatchObject({ id: '17' })
    // Unlocked already: said so.
    expect(operators.unlock('17').wasLocked).toBe(false)
  })

  it('an unknown number reads exactly as a known one with a wrong PIN: the same words, count and lockout', async () => {
    const tries = async (operatorId: string) => {
      const said: string[] = []
      for (let i = 0; i <= MAX_WRONG_PINS; i++) {
        try {
          await operators.verify({ operatorId, pin: '0000' })
        } catch (error) {
          said.push(`${(error as { code: string }).code}: ${(error as Error).message}`)
        }
      }
      return said
    }
    const known = await tries('17')
    const unknown = await tries('404')
    expect(unknown).toEqual(known)
    expect(known.at(-1)).toMatch(/^OPERATOR_LOCKED/)
    expect(known.join()).not.toContain('17')
    expect(await refusal(operators.verify(undefined))).toBe('PIN_WRONG')
    // The unknown number's lockout is not a real operator's.
    expect(operators.list().find((o) => o.id === '9')?.lockedUntil).toBeUndefined()
  })

  it('a locked operator and an unknown number cost the same: one PIN check each, the same as a wrong PIN', async () => {
    const done: Array<'hash' | 'check'> = []
    const real = scryptPinHasher(COST)
    const counted = new Operators(new OperatorStore(db), () => clock.now, COST, {
      hash: (pin) => (done.push('hash'), real.hash(pin)),
      matches: (pin, stored) => (done.push('check'), real.matches(pin, stored)),
    })
    const cost = async (operatorId: string) => {
      done.length = 0
      const code = await refusal(counted.verify({ operatorId, pin: '0000' }))
      return { code, done: [...done] }
    }
    // The decoy is made once, by whichever refusal needs it first.
    await cost('ZZ8')
    const wrongPin = await cost('17')
    const unknown = await cost('ZZ9')
    expect(unknown).toEqual({ code: 'PIN_WRONG', done: ['check'] })
    expect(wrongPin).toEqual(unknown)
    // Both locked: the known operator in the journal, the unknown number in memory.
    for (let i = 0; i < MAX_WRONG_PINS; i++)
      for (const id of ['17', 'ZZ9']) await counted.verify({ operatorId: id, pin: '0000' }).catch(() => {})
    const lockedKnown = await cost('17')
    const lockedUnknown = await cost('ZZ9')
    expect(lockedUnknown).toEqual({ code: 'OPERATOR_LOCKED', done: ['check'] })
    expect(lockedKnown).toEqual(lockedUnknown)
    // A disabled operator is no operator: an unknown number's first wrong try, one check.
    counted.disable('17')
    expect(await cost('17')).toEqual({ code: 'PIN_WRONG', done: ['check'] })
  })

  it('parallel guesses each take one of the five tries: 60 at once check at most five PINs and lock', async () => {
    const guesses = Array.from({ length: 60 }, (_, i) => String(1000 + i))
    // The right PIN is the last guess: without the atomic count every guess would be checked.
    guesses[59] = '1234'
    const codes = await Promise.all(guesses.map((pin) => refusal(operators.verify({ operatorId: '17', pin }))))
    expect(codes.filter((c) => c === 'none')).toEqual([])
    expect(codes.filter((c) => c === 'PIN_WRONG')).toHaveLength(MAX_WRONG_PINS - 1)
    expect(codes.filter((c) => c === 'OPERATOR_LOCKED')).toHaveLength(60 - (MAX_WRONG_PINS - 1))
    expect(operators.list().find((o) => o.id === '17')?.lockedUntil).toBe(clock.now + LOCKOUT_MS)
  })
})
