import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { connect as netConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTrainingHost, TLS_FILES } from '../../../src-main/training/host'
import { AID, KEY, newId, paymentBody, sendSigned, startHarness } from './training-host-harness'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'training-host-life-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const start = (stateDir = dir) => startTrainingHost({ stateDir, signingKeys: { [AID]: KEY } })

describe('training host TLS material', () => {
  it('makes a CA once, keeps keys 0600, and reuses CA and certificate on the next start', async () => {
    const first = await start()
    const caPem = first.caPem
    expect(first.caFile).toBe(join(dir, 'training-ca.pem'))
    expect(first.url).toBe(`https://127.0.0.1:${first.port}`)
    expect(await readFile(first.caFile, 'utf8')).toBe(caPem)
    await first.close()
    for (const name of [TLS_FILES.caKey, TLS_FILES.key]) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600)
    const certBefore = await readFile(join(dir, TLS_FILES.cert), 'utf8')

    const second = await start()
    expect(second.caPem).toBe(caPem)
    expect(await readFile(join(dir, TLS_FILES.cert), 'utf8')).toBe(certBefore)
    // A client that trusted the first run's CA file trusts the second run.
    const agent = new Agent({ connect: { ca: await readFile(first.caFile, 'utf8') } })
    try {
      const reply = await sendSigned(second, agent, { kind: 'payment', body: paymentBody(newId()) })
      expect(reply.json.payment.status).toBe('Authorised')
    } finally {
      await agent.close()
      await second.close()
    }
  })

  it('re-issues a missing or foreign server certificate under the same CA', async () => {
    const own = await mkdtemp(join(tmpdir(), 'training-host-reissue-'))
    try {
      const first = await start(own)
      await first.close()
      await unlink(join(own, TLS_FILES.cert))
      const second = await start(own)
      expect(second.caPem).toBe(first.caPem)
      await second.close()
      await writeFile(join(own, TLS_FILES.key), 'not a key')
      const third = await start(own)
      expect(third.caPem).toBe(first.caPem)
      const agent = new Agent({ connect: { ca: first.caPem } })
      const reply = await sendSigned(third, agent, { kind: 'payment', body: paymentBody(newId()) })
      expect(reply.verified).toBe(true)
      await agent.close()
      await third.close()
      // Without its key the CA cannot sign: a new CA replaces it (and the agent must trust anew).
      await unlink(join(own, TLS_FILES.caKey))
      const fourth = await start(own)
      expect(fourth.caPem).not.toBe(first.caPem)
      expect(await readFile(fourth.caFile, 'utf8')).toBe(fourth.caPem)
      await fourth.close()
    } finally {
      await rm(own, { recursive: true, force: true })
    }
  })

  it('is refused by a client that does not trust the CA (validation stays on)', async () => {
    const host = await start()
    const stranger = new Agent()
    try {
      await expect(request(`${host.url}/admin/health`, { dispatcher: stranger })).rejects.toMatchObject({
        code: expect.stringMatching(/CERT|SIGNATURE|ISSUER/),
      })
    } finally {
      await stranger.close()
      await host.close()
    }
  })

  it('serves localhost as well as 127.0.0.1 (SAN DNS and IP)', async () => {
    const host = await start()
    const agent = new Agent({ connect: { ca: host.caPem } })
    try {
      const res = await request(`https://localhost:${host.port}/admin/health`, { dispatcher: agent })
      expect(res.statusCode).toBe(200)
      await res.body.dump()
    } finally {
      await agent.close()
      await host.close()
    }
  })

  it('speaks TLS 1.2 and 1.3, not 1.1', async () => {
    const host = await start()
    const handshake = (options: { minVersion?: 'TLSv1.1' | 'TLSv1.2'; maxVersion: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' }) =>
      new Promise<string>((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port: host.port, ca: host.caPem, ...options }, () => {
          resolve(socket.getProtocol() ?? '')
          socket.end()
        })
        socket.on('error', reject)
      })
    try {
      expect(await handshake({ maxVersion: 'TLSv1.2' })).toBe('TLSv1.2')
      expect(await handshake({ maxVersion: 'TLSv1.3' })).toBe('TLSv1.3')
      await expect(handshake({ minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1' })).rejects.toThrow()
    } finally {
      await host.close()
    }
  })

  it('refuses a signing key that is not 32 characters', async () => {
    await expect(startTrainingHost({ stateDir: dir, signingKeys: { [AID]: 'short' } })).rejects.toThrow(/32 characters/)
  })
})

describe('training host connections and close', () => {
  it('keeps idle connections longer than the clients do (Keep-Alive timeout=10)', async () => {
    const h = await startHarness({ stateDir: dir })
    try {
      const reply = await h.send({ kind: 'payment', body: paymentBody(newId()) })
      expect(reply.headers['keep-alive']).toBe('timeout=10')
    } finally {
      await h.close()
    }
  })

  it('closes promptly with an idle keep-alive connection and a request held by a delay', async () => {
    const h = await startHarness({ stateDir: dir })
    await h.send({ kind: 'payment', body: paymentBody(newId()) })
    h.host.setFault('payment', 'delay=60000')
    const held = h.send({ kind: 'payment', body: paymentBody(newId()) })
    held.catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = performance.now()
    await h.host.close()
    await h.host.close()
    expect(performance.now() - started).toBeLessThan(2_000)
    await expect(held).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(h.host.ledger().entries).toHaveLength(1)
    const refused = await new Promise<string>((resolve) => {
      const socket = netConnect(h.host.port, '127.0.0.1')
      socket.on('connect', () => {
        socket.destroy()
        resolve('connected')
      })
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
    })
    expect(refused).toBe('ECONNREFUSED')
    await h.agent.close()
  })
})
