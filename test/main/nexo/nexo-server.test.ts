/**
 * Where the nexo endpoint listens: 127.0.0.1 unless configured otherwise, so that a POS elsewhere on
 * the store's network reaches it only when someone chose to open that door; on a configured address,
 * there and only there, with a certificate that names it. Real HTTPS servers on free ports, each
 * closed by the test that started it; every connection attempt is bounded in time.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { connect } from 'node:tls'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { NexoTerminal, startNexoServer, type NexoMemory, type NexoService, type NexoServer } from '../../../src-main/nexo'
import { TokenCheck } from '../../../src-main/service'

const dir = mkdtempSync(join(tmpdir(), 'pos-agent-nexo-bind-'))
const servers: NexoServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** An address of this machine on its network (not loopback), if it has one. */
const lan = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address

/** The terminal is never reached: these requests carry no X-API-Key, so the server answers 401 itself. */
const unreachedOperations: NexoService = {
  call: () => Promise.reject(new Error('no message should reach the terminal')),
  recordRefusal: () => {
    throw new Error('no message should reach the terminal')
  },
  on: () => undefined,
  off: () => undefined,
}

/** Nor does it remember anything: no message reaches it. */
const unreached = (): never => {
  throw new Error('no message should reach the terminal')
}
const unreachedMemory: NexoMemory = {
  login: unreached,
  logout: unreached,
  loggedIn: unreached,
  recordAbort: unreached,
  wasAborted: unreached,
  recordReversal: unreached,
  reversalOf: unreached,
}

async function listen(host?: string, refused?: () => void): Promise<{ server: NexoServer; port: number }> {
  const terminal = new NexoTerminal({
    service: unreachedOperations,
    memory: unreachedMemory,
    terminalId: 'T1',
    merchantId: 'M1',
    version: '0',
    logger: pino({ level: 'silent' }),
  })
  const server = await startNexoServer({
    terminal,
    tokens: new TokenCheck('a-token-of-this-terminal-0123456789'),
    stateDir: dir,
    port: 0,
    ...(host ? { host } : {}),
    ...(refused ? { refused } : {}),
  })
  servers.push(server)
  return { server, port: Number(new URL(server.url).port) }
}

/**
 * POST /nexo without a key to `address`: the status, or the connection error's code. `ca` validates
 * the certificate against the endpoint's CA, for this very address; without it, any certificate goes.
 */
function knock(address: string, port: number, ca?: string, key?: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: address,
        port,
        path: '/nexo',
        method: 'POST',
        timeout: 5_000,
        ...(ca ? { ca } : { rejectUnauthorized: false }),
        ...(key ? { headers: { 'x-api-key': key } } : {}),
      },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })))
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    req.end('{}')
  })
}

/** The subjectAltName of the certificate the endpoint presents at `address` (as Node writes it: "IP Address:…, DNS:…"). */
function subjectAltName(address: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, rejectUnauthorized: false, timeout: 5_000 }, () => {
      const names = socket.getPeerCertificate().subjectaltname ?? ''
      socket.end()
      resolve(names)
    })
    socket.on('timeout', () => socket.destroy(new Error('timed out')))
    socket.on('error', reject)
  })
}

describe('where the nexo endpoint listens', () => {
  it('on 127.0.0.1 by default: reachable there, its certificate valid for it', async () => {
    const { server, port } = await listen()
    expect(server.url).toBe(`https://127.0.0.1:${port}/nexo`)
    expect(await knock('127.0.0.1', port, readFileSync(server.caFile, 'utf8'))).toBe(401)
  })

  it.skipIf(lan === undefined)('by default, not from the store network: the LAN address of this machine is refused', async () => {
    const { port } = await listen()
    expect(await knock(lan!, port)).toBe('ECONNREFUSED')
  })

  it.skipIf(lan === undefined)('on a configured LAN address: there, with a certificate that names it, and not on 127.0.0.1', async () => {
    const { server, port } = await listen(lan)
    expect(server.url).toBe(`https://${lan}:${port}/nexo`)
    expect(await knock(lan!, port, readFileSync(server.caFile, 'utf8'))).toBe(401)
    expect(await knock('127.0.0.1', port)).toBe('ECONNREFUSED')
  })

  it("on 0.0.0.0: the certificate names the machine's addresses, so a POS on the LAN that validates it connects", async () => {
    const { server, port } = await listen('0.0.0.0')
    const names = (await subjectAltName('127.0.0.1', port)).split(', ')
    const machine = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
      .map((address) => `IP Address:${address!.address}`)
    expect(names).toEqual(expect.arrayContaining(['IP Address:127.0.0.1', 'DNS:localhost', ...machine]))
    // A certificate naming 0.0.0.0 is valid for no address a POS can connect to.
    expect(names).not.toContain('IP Address:0.0.0.0')
    if (lan !== undefined) expect(await knock(lan, port, readFileSync(server.caFile, 'utf8'))).toBe(401)
  })

  it('on 0.0.0.0 when configured so: every address of the machine', async () => {
    const { port } = await listen('0.0.0.0')
    expect(await knock('127.0.0.1', port)).toBe(401)
    if (lan !== undefined) expect(await knock(lan, port)).toBe(401)
  })
})

describe("the endpoint's edges", () => {
  it('a message past 64 KiB is answered 413 in plain words, not a connection reset', async () => {
    const { server, port } = await listen()
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/nexo',
          method: 'POST',
          timeout: 5_000,
          ca: readFileSync(server.caFile, 'utf8'),
          headers: { 'x-api-key': 'a-token-of-this-terminal-0123456789' },
        },
        (response) => {
          let body = ''
          response.on('data', (d: Buffer) => (body += d.toString()))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        },
      )
      req.on('error', reject)
      req.end(JSON.stringify({ SaleToPOIRequest: { padding: 'p'.repeat(70 * 1024) } }))
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 413,
      errorCode: 'MessageFormat',
      message: expect.stringMatching(/Nothing was done/),
    })
  })
})

describe('who knocks with a wrong key', () => {
  it('is told to the audit trail once per wrong X-API-Key; a missing key is no credential at all', async () => {
    let refused = 0
    const { port } = await listen(undefined, () => refused++)
    for (let i = 0; i < 3; i++) expect(await knock('127.0.0.1', port, undefined, 'a-token-of-another-terminal-0000000')).toBe(401)
    expect(await knock('127.0.0.1', port)).toBe(401)
    expect(refused).toBe(3)
  })
})
