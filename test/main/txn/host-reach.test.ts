/**
 * Whether the bank was reached, from the outcomes of every call made through the watched client: an
 * answer says yes, a request that never arrived says no, a lost answer and the agent's own refusal
 * say nothing.
 */
import { describe, expect, it } from 'vitest'
import type { GatewayOutcome, HostClient } from '../../../src-main/gateway'
import type { HostResponse } from '../../../src-main/gateway/outcome'
import { HostReach } from '../../../src-main/txn'

const base = { operation: 'payment', msgId: 'm-1', latencyMs: 1 } as const
const RESPONSE = { result: { code: '00000' } } as HostResponse
const OUTCOMES: Record<string, GatewayOutcome> = {
  approved: { ...base, kind: 'approved', status: 'Authorised', response: RESPONSE },
  declined: { ...base, kind: 'declined', reason: 'insufficient funds', response: RESPONSE },
  hostRefused: { ...base, kind: 'rejected', code: 'E1', message: 'bad field', source: 'host' },
  agentRefused: { ...base, kind: 'rejected', code: 'E1', message: 'bad field', source: 'agent' },
  notDelivered: { ...base, kind: 'notDelivered', reason: 'connection refused' },
  unknown: { ...base, kind: 'unknown', reason: 'timeout' },
}

describe('HostReach', () => {
  it.each([
    ['approved', undefined, true],
    ['declined', false, true],
    ['hostRefused', false, true],
    ['agentRefused', true, true],
    ['agentRefused', undefined, undefined],
    ['notDelivered', true, false],
    ['unknown', true, true],
    ['unknown', false, false],
    ['unknown', undefined, undefined],
  ] as const)('after %s, having been %s: %s', (outcome, before, after) => {
    const reach = new HostReach()
    if (before !== undefined) reach.note(before ? OUTCOMES.approved! : OUTCOMES.notDelivered!)
    reach.note(OUTCOMES[outcome]!)
    expect(reach.reachable).toBe(after)
  })

  it('hears every outcome of the client it watches, and passes it on unchanged', async () => {
    const answers = [OUTCOMES.notDelivered!, OUTCOMES.approved!]
    const client: HostClient = {
      send: () => Promise.resolve(answers.shift()!),
      sendUnchecked: () => Promise.resolve(answers.shift()!),
      close: () => Promise.resolve(),
    }
    const reach = new HostReach()
    const watched = reach.watch(client)
    expect(await watched.sendUnchecked('payment', {})).toBe(OUTCOMES.notDelivered)
    expect(reach.reachable).toBe(false)
    expect(await watched.sendUnchecked('payment', {})).toBe(OUTCOMES.approved)
    expect(reach.reachable).toBe(true)
  })
})
