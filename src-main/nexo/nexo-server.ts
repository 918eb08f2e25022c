/**
 * The nexo endpoint: `POST /nexo` over HTTPS (TLS 1.2+), on 127.0.0.1:8443 unless configured for
 * the LAN (docs/nexo.md). The certificate is the agent's own (src-main/tls, identity "nexo"); a POS
 * that validates certificates trusts `nexo-ca.pem`. Every message carries the integrator token in
 * `X-API-Key` (the header Adyen's client libraries send); a missing and a wrong key are told apart.
 * A body that is not a nexo message is answered 400 with what is wrong; anything that is gets a nexo
 * answer (NexoTerminal), a failure included, with HTTP 200 as nexo clients expect.
 */
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { BodyTooLargeError, json, openFileLimit, readBody, serverLimitsFor, serverTimeouts } from '../api'
import { wordsOf } from '../../src-shared/errors'
import type { TokenCheck } from '../service'
import { loadOrCreateTlsMaterial, type TlsIdentity } from '../tls'
import type { NexoTerminal } from './nexo-terminal'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

export interface NexoServerOptions {
  terminal: NexoTerminal
  /** Which token X-API-Key is: the installation token, or an integrator token a manager created (its scopes). */
  tokens: Pick<TokenCheck, 'grantOf'>
  /** Where the certificates live (the agent's state folder). */
  stateDir: string
  /** 127.0.0.1 by default; a LAN address only when configured. */
  host?: string
  /** 8443 by default (the port nexo clients such as Adyen's libraries use); 0 picks a free one. */
  port?: number
  /** Told of each X-API-Key that is no token in force (the audit trail keeps a count a minute). */
  refused?: () => void
}

export interface NexoServer {
  url: string
  /** The CA a POS trusts to validate this endpoint. */
  caFile: string
  close(): Promise<void>
}

export const NEXO_DEFAULT_PORT = 8443

/** Binding to these listens on every address of the machine ('::' takes IPv4 too, dual-stack). */
const ANY_IPV4 = new Set(['0.0.0.0'])
const ANY_IPV6 = new Set(['::', '::0', '0:0:0:0:0:0:0:0'])

/**
 * The machine's own addresses a POS can reach it on (not loopback: 127.0.0.1 and localhost are
 * always named), IPv4 only for 0.0.0.0, IPv4 and IPv6 for '::'.
 */
export function machineAddresses(ipv6: boolean, interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces()): string[] {
  return Object.values(interfaces)
    .flat()
    .filter((address) => address !== undefined && !address.internal && (address.family === 'IPv4' || ipv6))
    .map((address) => address!.address)
}

/**
 * The endpoint's certificates: its own CA, and a server certificate naming the address it listens
 * on. Bound to every address (0.0.0.0, '::'), it names the machine's addresses instead: a
 * certificate for 0.0.0.0 is valid for no address a POS connects to. Addresses that change (a new
 * DHCP lease) get a new certificate at the next start, from the same CA.
 */
export function nexoTlsIdentity(host: string, interfaces?: ReturnType<typeof networkInterfaces>): TlsIdentity {
  const files = { caCert: 'nexo-ca.pem', caKey: 'nexo-ca-key.pem', cert: 'nexo-server.pem', key: 'nexo-server-key.pem' }
  const organisation = 'pos-agent nexo endpoint'
  const anyV6 = ANY_IPV6.has(host)
  if (anyV6 || ANY_IPV4.has(host))
    return { files, organisation, extraIps: [...machineAddresses(anyV6, interfaces), ...(anyV6 ? ['::1'] : [])] }
  const ip = /^[\d.]+$|:/.test(host)
  return { files, organisation, ...(ip ? { extraIps: [host] } : { extraNames: [host] }) }
}

export async function startNexoServer(options: NexoServerOptions): Promise<NexoServer> {
  const host = options.host ?? '127.0.0.1'
  const tls = await loadOrCreateTlsMaterial(options.stateDir, new Date(SYSTEM_CLOCK.now()), nexoTlsIdentity(host))
  const limits = serverLimitsFor(openFileLimit())
  const server: Server = createServer(
    { cert: tls.certPem, key: tls.keyPem, minVersion: 'TLSv1.2', ...serverTimeouts(limits) },
    (request, response) => {
      void handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500).end()
      })
    },
  )
  // The same edges as the local API, the cap sized below what the process may open: a POS or two need a handful.
  server.maxConnections = limits.maxConnections

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'https://nexo').pathname
    if (path !== '/nexo' && path !== '/nexo/') return refuse(response, 404, 'NotFound', 'the nexo endpoint is POST /nexo')
    if (request.method !== 'POST') return refuse(response, 405, 'NotAllowed', 'the nexo endpoint takes POST only')
    const key = request.headers['x-api-key']
    if (typeof key !== 'string' || key.length === 0) return refuse(response, 401, 'UNAUTHORISED', 'send the integrator token in X-API-Key')
    const token = options.tokens.grantOf(key)
    if (!token) {
      options.refused?.()
      return refuse(response, 401, 'TOKEN_INVALID', 'the X-API-Key is not a token of this terminal')
    }
    let message: unknown
    try {
      message = JSON.parse(await readBody(request))
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        response.setHeader('connection', 'close')
        return refuse(response, 413, 'MessageFormat', `${wordsOf('BODY_TOO_LARGE')} (${error.message})`)
      }
      return refuse(response, 400, 'MessageFormat', 'the body is not JSON')
    }
    const answer = await options.terminal.handle(message, token)
    if (answer !== null && 'malformed' in answer) return refuse(response, 400, 'MessageFormat', answer.malformed)
    // Abort has no response message: an empty 200, as nexo clients expect.
    if (answer === null) return void response.writeHead(200, { 'content-length': '0' }).end()
    json(response, 200, answer)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? NEXO_DEFAULT_PORT, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}/nexo`,
    caFile: tls.caFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** An error the library can read: `{ status, errorCode, message }` (a non-2xx rejects the call with it). */
function refuse(response: ServerResponse, status: number, errorCode: string, message: string): void {
  json(response, status, { status, errorCode, message })
}
