/**
 * A sign-in belongs to its window and ends when left idle: a manager who walked away from the
 * counter approves nothing after the store's idle time, their shift ends when the idle time ran out,
 * and the trail says so. The service runs on a real journal with its clock in the test's hands.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Operators } from '../../../src-main/operators'
import type { AgentService, Caller } from '../../../src-main/service'
import { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import { testService } from '../../support/service-harness'

const COST = { N: 2 ** 10, r: 8, p: 1 }
const MANAGER = { operatorId: '9', pin: '4321' }
const WINDOW: Caller = { door: 'counter', session: 'counter-window' }
const MINUTE = 60_000

let harness: EngineHarness | undefined
let service: AgentService | undefined
afterEach(async () => {
  service?.close()
  await harness?.close()
})

async function start(idleSignOutMinutes?: number) {
  const reader = new ScriptedCardReader()
  harness = await startEngineHarness(reader)
  const clock = { now: Date.parse('2026-11-25T09:00:00Z') }
  await new Operators(harness.engine.journal.operators, () => clock.now, COST).add({ ...MANAGER, name: 'Maria', role: 'manager' })
  service = testService(harness, reader, { now: () => clock.now, ...(idleSignOutMinutes !== undefined ? { idleSignOutMinutes } : {}) })
  return { clock, service, journal: harness.engine.journal }
}

describe('sign-ins at a counter window', () => {
  it('a manager left idle past the store time is signed out: no approval by presence, shift ended when the time ran out', async () => {
    const { clock, service, journal } = await start()
    const signedInAt = clock.now
    expect((await service.dispatch(WINDOW, 'signIn', MANAGER)).ok).toBe(true)
    clock.now += 14 * MINUTE
    // Still there: the manager approves a new signing key by being signed in, and that counts as activity.
    expect((await service.dispatch(WINDOW, 'setSigningKey', { key: 'k'.repeat(32) })).ok).toBe(true)
    const lastActive = clock.now
    clock.now += 16 * MINUTE
    const refused = await service.dispatch(WINDOW, 'setSigningKey', { key: 'k'.repeat(32) })
    expect(refused).toMatchObject({ ok: false, error: { code: 'SIGN_IN_REQUIRED' } })
    expect((await service.dispatch(WINDOW, 'counterOperator', {})) as { value: { operator?: unknown } }).not.toHaveProperty(
      'value.operator',
    )
    const shift = journal.shifts.ofOpenBatch().find((s) => s.operatorId === MANAGER.operatorId)
    expect(shift).toMatchObject({ startedAt: signedInAt, endedAt: lastActive + 15 * MINUTE })
    expect(journal.audit.between(0, Number.MAX_SAFE_INTEGER)).toContainEqual(
      expect.objectContaining({ action: 'signOut', door: 'counter', actor: MANAGER.operatorId, detail: 'idle' }),
    )
  })

  it('the reads a screen makes by itself do not keep a sign-in alive; work does', async () => {
    const { clock, service } = await start()
    expect((await service.dispatch(WINDOW, 'signIn', MANAGER)).ok).toBe(true)
    for (let minute = 0; minute < 16; minute++) {
      clock.now += MINUTE
      expect((await service.dispatch(WINDOW, 'listSales', {})).ok).toBe(true)
      expect((await service.dispatch(WINDOW, 'queueStatus', {})).ok).toBe(true)
    }
    expect(await service.dispatch(WINDOW, 'setSigningKey', { key: 'k'.repeat(32) })).toMatchObject({
      ok: false,
      error: { code: 'SIGN_IN_REQUIRED' },
    })
  })

  it("a sign-in at one window is not another window's, and 0 minutes keeps a sign-in until signed out", async () => {
    const { clock, service } = await start(0)
    expect((await service.dispatch(WINDOW, 'signIn', MANAGER)).ok).toBe(true)
    clock.now += 24 * 60 * MINUTE
    expect((await service.dispatch(WINDOW, 'setSigningKey', { key: 'k'.repeat(32) })).ok).toBe(true)
    const other: Caller = { door: 'counter', session: 'another-window' }
    expect(await service.dispatch(other, 'setSigningKey', { key: 'k'.repeat(32) })).toMatchObject({
      ok: false,
      error: { code: 'SIGN_IN_REQUIRED' },
    })
  })
})
