/**
 * The training host: a standalone HTTPS server that stands in for the offline host (and the
 * e-commerce capture host, served on the same origin) for demos, training and every test.
 *
 * Routes: POST `/g2/v0/payment/acq/{aid}/{operation}[/{merchantTransID}]` for the five operations of
 * operations.ts, and `/admin/*` (admin-endpoint.ts). State lives in memory; only the TLS material
 * persists in `stateDir` (src-main/tls).
 *
 * keepAliveTimeout is 10 s: clients keep idle connections ~4 s, and a server that closes first makes
 * a client reuse a socket that is being closed (a spurious ECONNRESET on a payment).
 */
import { setMaxListeners } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { parseOperationPath, validateSigningKey, type OperationKind } from '../../gateway'
import { serveAdmin } from './admin-endpoint'
import { FaultBook, type Fault, type FaultRule, type FaultTarget } from './faults'
import { HostState } from './host-state'
import { sendJson } from './http-io'
import type { LedgerSnapshot } from './ledger'
import { serveOperation, type OperationContext } from './operation-endpoint'
import { loadOrCreateTlsMaterial } from '../../tls'
import { SYSTEM_CLOCK } from '../../../src-shared/clock'

export interface TrainingHostOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  /** Bind address; 127.0.0.1 unless a caller has a reason to change it. */
  host?: string
  /** Where the CA and server certificate are kept between runs. */
  stateDir: string
  /** The 32-character signing key of each aid the host accepts. */
  signingKeys: Readonly<Record<string, string>>
  /** When set, a request carrying another KeyID is refused (A0001); a request without one is accepted. */
  keyId?: string
  faults?: readonly FaultRule[]
  now?: () => Date
  /** One line per answered operation; silent by default. */
  log?: (line: string) => void
}

export interface TrainingHost {
  /** `https://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string
  readonly port: number
  /** `<stateDir>/training-ca.pem`: the CA the agent adds to its trusted CAs. */
  readonly caFile: string
  readonly caPem: string
  ledger(): LedgerSnapshot
  setFault(operation: OperationKind | '*', fault: Fault | string, times?: number): void
  clearFaults(operation?: OperationKind | '*'): void
  close(): Promise<void>
}

const KEEP_ALIVE_MS = 10_000

export async function startTrainingHost(options: TrainingHostOptions): Promise<TrainingHost> {
  const keys = new Map<string, string>()
  for (const [aid, key] of Object.entries(options.signingKeys)) {
    const problem = validateSigningKey(key)
    if (problem !== undefined) throw new Error(`training host, aid ${aid}: ${problem}`)
    keys.set(aid, key)
  }
  const now = options.now ?? (() => new Date(SYSTEM_CLOCK.now()))
  // Certificates follow the real clock, whatever business time `now` simulates: clients validate against theirs.
  const tls = await loadOrCreateTlsMaterial(options.stateDir)
  const state = new HostState()
  const faults = new FaultBook()
  for (const rule of options.faults ?? []) faults.set(rule.operation, rule.fault, rule.times)
  const closing = new AbortController()
  // Every delayed request listens on this one signal; any number of them is expected.
  setMaxListeners(0, closing.signal)
  const ledger = () => state.ledger.snapshot(state.payments.values())
  const context: OperationContext = {
    state,
    faults,
    keys,
    keyId: options.keyId,
    now,
    closing: closing.signal,
    log: options.log ?? (() => undefined),
  }

  const server = createServer({ key: tls.keyPem, cert: tls.certPem, minVersion: 'TLSv1.2' }, (req, res) => {
    res.on('error', () => undefined)
    route(req, res)
  })
  server.keepAliveTimeout = KEEP_ALIVE_MS
  server.headersTimeout = KEEP_ALIVE_MS + 5_000

  function route(req: IncomingMessage, res: ServerResponse): void {
    const work = (async () => {
      const raw = req.url ?? '/'
      const url = new URL(raw, 'https://training-host.invalid')
      const target = parseOperationPath(raw)
      if (url.pathname.startsWith('/admin/')) return serveAdmin(req, res, url, { faults, ledger })
      if (target) return serveOperation(req, res, target, context)
      return sendJson(res, 404, { result: { code: 'V0008', message: `no operation at ${url.pathname}` } })
    })()
    work.catch((error: unknown) => {
      context.log(`internal error: ${(error as Error).message}`)
      if (!res.headersSent) sendJson(res, 500, { result: { message: 'training host internal error' } })
      else res.destroy()
    })
  }

  const port = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1')
  const urlHost =
    options.host === undefined || options.host === '0.0.0.0' || options.host === '::'
      ? '127.0.0.1'
      : options.host.includes(':')
        ? `[${options.host}]`
        : options.host
  let closed: Promise<void> | undefined
  return {
    url: `https://${urlHost}:${port}`,
    port,
    caFile: tls.caFile,
    caPem: tls.caPem,
    ledger,
    setFault: (operation, fault, times) => void faults.set(operation, fault, times),
    clearFaults: (operation?: FaultTarget) => faults.clear(operation),
    close: () => (closed ??= shutdown(server, closing)),
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** Stops accepting, ends pending delays, and cuts every open connection, idle or not. */
function shutdown(server: Server, closing: AbortController): Promise<void> {
  return new Promise((resolve, reject) => {
    closing.abort()
    server.close((error) => (error ? reject(error) : resolve()))
    server.closeAllConnections()
  })
}
