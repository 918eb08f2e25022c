/**
 * Training mode's simulated customer, through the agent's own doors: a sale rung up at the counter
 * waits for the card the trainee picks, however long the trainee takes (the card read is the card
 * chosen, never the simulator's default); a sale a POS rings up with nobody at the counter gets the
 * default card by itself (and the bank's answer to it counts as the bank reached, in the queue's
 * status). The real agent on a throwaway data folder, its simulated PIN pad at a fast pace.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalServer, type LocalServer } from '../../../src-main/api'
import { openRuntime, readerFactory, startAgent, type RunningAgent } from '../../../src-main/app'
import { COUNTER_BUSY, type SaleState } from '../../../src-shared/sale'

const AUTO_PRESENT_MS = 100
const dir = mkdtempSync(join(tmpdir(), 'pos-card-pick-'))
let agent: RunningAgent
let server: LocalServer
let counter: string
let pos: string

interface Reply {
  ok: boolean
  value: { id: string; state: SaleState; maskedPan?: string }
}

async function call(operation: string, headers: Record<string, string>, body: unknown = {}): Promise<Reply> {
  const reply = await fetch(`${server.url}/v1/ops/${operation}`, { method: 'POST', headers, body: JSON.stringify(body) })
  return (await reply.json()) as Reply
}

async function settled(id: string, headers: Record<string, string>): Promise<Reply['value']> {
  const until = Date.now() + 10_000
  for (;;) {
    const sale = (await call('getSale', headers, { id })).value
    if (!COUNTER_BUSY.has(sale.state) || Date.now() > until) return sale
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

beforeAll(async () => {
  const runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  agent = await startAgent(runtime, readerFactory({ autoPresentMs: AUTO_PRESENT_MS, cardReadMs: 20, pinEntryMs: 20 }))
  server = await startLocalServer({ port: 0, rendererRoot: dir, service: agent.service, tokens: agent.tokenCheck, health: () => ({}) })
  const opened = await fetch(server.launchUrl(), { redirect: 'manual' })
  counter = opened.headers.get('set-cookie')!.split(';')[0]!
  const made = (await call('createToken', { cookie: counter }, { name: 'Till', scopes: ['read', 'sell'] })).value as unknown as {
    token: string
  }
  pos = `Bearer ${made.token}`
})

afterAll(async () => {
  await server?.close()
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the simulated customer in training', () => {
  it("waits at the counter's card prompt for the trainee's pick, and reads that card", async () => {
    const started = await call('startSale', { cookie: counter }, { amountMinor: 3012 })
    expect(started.ok).toBe(true)
    // Many times the default card's delay: still asking for the card, nothing read.
    await new Promise((resolve) => setTimeout(resolve, AUTO_PRESENT_MS * 8))
    expect((await call('getSale', { cookie: counter }, { id: started.value.id })).value.state).toBe('readingCard')
    expect((await call('presentTestCard', { cookie: counter }, { name: 'expired' })).ok).toBe(true)
    const sale = await settled(started.value.id, { cookie: counter })
    expect(sale.state).toBe('declined')
    expect(sale.maskedPan).toMatch(/1881$/)
  })

  it("gives a POS's sale the default card by itself, with nobody at the counter", async () => {
    const started = await call('startSale', { authorization: pos }, { amountMinor: 3013 })
    expect(started.ok).toBe(true)
    const sale = await settled(started.value.id, { authorization: pos })
    expect(sale.state).toBe('approved')
    // The sale's own answer from the bank says it is reached, though the queue never sent anything.
    const queue = (await call('queueStatus', { authorization: pos })).value as unknown as { count: number; hostReachable?: boolean }
    expect(queue).toMatchObject({ count: 0, hostReachable: true })
  })

  it("a POS's request refused while the counter's sale waits for its card does not hand that sale the default card", async () => {
    const started = await call('startSale', { cookie: counter }, { amountMinor: 3014 })
    expect(started.ok).toBe(true)
    // The counter is busy: the POS's sale is refused, and holds nothing.
    const refused = await call('startSale', { authorization: pos }, { amountMinor: 3015 })
    expect(refused.ok).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, AUTO_PRESENT_MS * 8))
    expect((await call('getSale', { cookie: counter }, { id: started.value.id })).value.state).toBe('readingCard')
    expect((await call('presentTestCard', { cookie: counter }, { name: 'expired' })).ok).toBe(true)
    const sale = await settled(started.value.id, { cookie: counter })
    expect(sale).toMatchObject({ state: 'declined', maskedPan: expect.stringMatching(/1881$/) as unknown })
  })
})
