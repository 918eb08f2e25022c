/**
 * Paired windows: a browser window a launch link opened keeps working across the agent's restart
 * (its secret's hash is in the journal, its cookie in the browser), a manager sees the windows and
 * ends one, and a window whose token was revoked while the agent was down is not let back in. The
 * whole agent starts twice on one data folder, as `serve` does.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startLocalServer, type LocalServer } from '../../../src-main/api'
import { openRuntime, readerFactory, startAgent, type RunningAgent } from '../../../src-main/app'
import { IntegratorTokens } from '../../../src-main/service'

const dir = mkdtempSync(join(tmpdir(), 'pos-paired-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function start(): Promise<{ agent: RunningAgent; server: LocalServer; stop(): Promise<void> }> {
  const runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  const agent = await startAgent(runtime, readerFactory({ autoPresentMs: 600_000, cardReadMs: 100, pinEntryMs: 200 }))
  const server = await startLocalServer({
    port: 0,
    rendererRoot: dir,
    service: agent.service,
    tokens: agent.tokenCheck,
    health: () => ({}),
  })
  return { agent, server, stop: async () => (await server.close(), await agent.close()) }
}

async function call(server: LocalServer, operation: string, headers: Record<string, string>, body: unknown = {}) {
  // A customer display's session (its own cookie) calls under /customer, where its page is.
  const base = headers.cookie?.startsWith('pos_display=') ? '/customer/v1' : '/v1'
  const reply = await fetch(`${server.url}${base}/ops/${operation}`, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: reply.status, json: (await reply.json()) as { ok: boolean; value: unknown; error?: { code: string } } }
}

async function open(server: LocalServer, url: string): Promise<string> {
  const opened = await fetch(url, { redirect: 'manual' })
  return opened.headers.get('set-cookie')!.split(';')[0]!
}

describe('paired windows', () => {
  it("reconnect after a restart; a manager lists and ends them; a revoked token's window stays out", async () => {
    const first = await start()
    const counter = await open(first.server, first.server.launchUrl())
    const made = await call(first.server, 'createToken', { cookie: counter }, { name: 'Kitchen display', scopes: ['read'] })
    const display = await open(
      first.server,
      (
        (await call(first.server, 'openCustomerDisplay', { authorization: `Bearer ${(made.json.value as { token: string }).token}` })).json
          .value as { url: string }
      ).url,
    )
    const tokenId = (made.json.value as { integrator: { id: string } }).integrator.id
    expect((await call(first.server, 'appInfo', { cookie: display })).status).toBe(200)
    // The journal keeps the hashes, never the secrets of the cookies.
    const journal = readdirSync(dir)
      .filter((name) => name.startsWith('journal.sqlite'))
      .map((name) => readFileSync(join(dir, name)))
    for (const secret of [counter, display].map((c) => c.split('=')[1]!))
      expect(journal.some((bytes) => bytes.includes(Buffer.from(secret)))).toBe(false)
    await first.stop()

    // While the agent was down, the token that opened the display was revoked.
    new IntegratorTokens(dir).revoke(tokenId)
    const second = await start()
    try {
      expect((await call(second.server, 'appInfo', { cookie: counter })).status).toBe(200)
      expect((await call(second.server, 'appInfo', { cookie: display })).status).toBe(401)
      const listed = (await call(second.server, 'listWindows', { cookie: counter })).json.value as Array<{
        id: string
        current: boolean
        openedBy: string
      }>
      expect(listed).toEqual([expect.objectContaining({ current: true, openedBy: "the computer's owner" })])
      // A second cashier window, then the manager ends it: its next call is refused.
      const other = await open(second.server, second.server.launchUrl())
      const withOther = (await call(second.server, 'listWindows', { cookie: counter })).json.value as Array<{
        id: string
        current: boolean
      }>
      const otherId = withOther.find((w) => !w.current)!.id
      expect((await call(second.server, 'revokeWindow', { cookie: counter }, { id: otherId })).json.ok).toBe(true)
      expect((await call(second.server, 'appInfo', { cookie: other })).status).toBe(401)
    } finally {
      await second.stop()
    }
  }, 60_000)
})
