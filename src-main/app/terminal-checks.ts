/**
 * The checks a terminal must pass to take cards, shared by `pos-agent doctor` and first-run setup:
 * the card reader, the host (reachable, TLS, its certificate), the clock against the host's, and the
 * signing key accepted by the host with a harmless request. Each says what is wrong and what to do.
 */
import { existsSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { connect, rootCertificates, type PeerCertificate } from 'node:tls'
import type { AgentConfig } from '../config'
import { discoverReaderPort } from '../device'
import { UndiciHostClient } from '../gateway'
import { endpointFromConfig } from './host-connection'
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'

export type CheckLevel = 'ok' | 'warn' | 'fail'
export interface Finding {
  level: CheckLevel
  area: string
  text: string
  fix?: string
}
export type AddFinding = (level: CheckLevel, area: string, text: string, fix?: string) => void

const CLOCK_SKEW_WARN_MS = 60_000

/** The card reader's serial port: the configured path exists, or a reader is found by its vendor id. */
export async function checkReader(config: AgentConfig, add: AddFinding): Promise<void> {
  try {
    const path =
      config.device.path ??
      (await discoverReaderPort({ ...(config.device.vendorId ? { vendorIds: [config.device.vendorId.toLowerCase()] } : {}) }))
    add(
      config.device.path && !existsSync(path) ? 'fail' : 'ok',
      'card reader',
      config.device.path && !existsSync(path) ? `${path} does not exist` : `port ${path}`,
      'check the cable, the path in device.path, and that this user may open it (Linux: the dialout group)',
    )
  } catch (error) {
    add('fail', 'card reader', `no reader found (${message(error)})`, 'plug the reader in, or set device.path in the configuration')
  }
}

/**
 * TLS handshake with the offline host: version, certificate validity (by `clock`), and the
 * computer's own clock against the host's Date header: that check is of the computer's clock itself.
 */
export async function checkHost(config: AgentConfig, add: AddFinding, clock: Clock = SYSTEM_CLOCK): Promise<boolean> {
  const url = new URL(config.host.offlineBaseUrl)
  try {
    const endpoint = endpointFromConfig(config)
    const { protocol, cert, date } = await handshake(url, endpoint.extraCaPem)
    const daysLeft = Math.floor((Date.parse(cert.valid_to) - clock.now()) / 86_400_000)
    add(
      daysLeft < 14 ? 'warn' : 'ok',
      'host TLS',
      `${url.host}: ${protocol}, certificate valid ${daysLeft} more days`,
      'the host certificate expires soon: tell the acquirer',
    )
    if (date) {
      const skew = SYSTEM_CLOCK.now() - Date.parse(date)
      add(
        Math.abs(skew) > CLOCK_SKEW_WARN_MS ? 'warn' : 'ok',
        'clock',
        `${Math.round(skew / 1000)} s from the host's clock`,
        'synchronise the clock (NTP): DateTime headers and receipts use it',
      )
    }
    return true
  } catch (error) {
    add(
      'fail',
      'host',
      `${url.host} unreachable or not trusted (${message(error)})`,
      'check the network, host.offlineBaseUrl, and host.caFile if the acquirer uses a private CA',
    )
    return false
  }
}

/**
 * The made-up payment id the signature check reverses: `SETUPCHECK` and 16 random hex digits, with no
 * "-". Every merchantTransID this terminal issues has a "-" between its terminalId, epoch and
 * sequence (`<terminalId>-<epoch>-<sequence>`, src-main/journal/transaction-ids.ts; follow-ups add
 * `-V<n>`, `-T<n>`, `-C<n>`), so this id can never be one of them, in this start or any other, whatever
 * the terminalId. The random part keeps two checks apart. 26 bytes, within the 64 of docs/gateway.md §D5.
 */
export function signatureCheckId(): string {
  return `SETUPCHECK${randomBytes(8).toString('hex').toUpperCase()}`
}

/**
 * A signed reversal of a payment this terminal never made. Harmless (docs/gateway.md §D3, §7): a
 * reversal is idempotent and never fails; for an id the host never received it answers `S0000` with
 * `reversal.status = Success` and there is no payment to undo, so no money moves. The host may
 * remember the id as reversed (the training host refuses a payment that arrives after its reversal,
 * `B0042`, §D4), which is why the id must never be a real payment's: see signatureCheckId. The answer
 * tells whether the host accepted the signature.
 */
export async function checkSignature(config: AgentConfig, signingKey: string, add: AddFinding): Promise<void> {
  const client = new UndiciHostClient({ ...endpointFromConfig(config), responseTimeoutMs: 10_000 }, { signingKey })
  try {
    const id = signatureCheckId()
    const outcome = await client.send('reversal', { initiatingReason: 'setup check' }, id)
    if (outcome.kind === 'approved' || outcome.kind === 'declined')
      add('ok', 'signature', 'the host accepted a signed test request (it changes no payment)')
    else if (outcome.kind === 'rejected' && outcome.code === 'A0001')
      add(
        'fail',
        'signature',
        'the host refused the signature of a test request',
        'check the signing key, the acquirer id and the key id with your acquirer, then enter the key again',
      )
    else
      add(
        'warn',
        'signature',
        `the host did not confirm the signature (${outcome.kind === 'rejected' ? outcome.message : outcome.reason})`,
        'run the checks again later; if it stays so, ask your acquirer',
      )
  } finally {
    await client.close()
  }
}

function handshake(url: URL, extraCaPem: string | undefined): Promise<{ protocol: string; cert: PeerCertificate; date?: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      {
        host: url.hostname,
        port: Number(url.port || 443),
        servername: url.hostname,
        minVersion: 'TLSv1.2',
        ca: extraCaPem ? [...rootCertificates, extraCaPem] : undefined,
        timeout: 5_000,
      },
      () => {
        const protocol = socket.getProtocol() ?? 'unknown'
        const cert = socket.getPeerCertificate()
        socket.write(`HEAD / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`)
        let head = ''
        socket.on('data', (d: Buffer) => (head += d.toString('latin1')))
        socket.on('end', () => {
          const date = /^date: (.+)$/im.exec(head)?.[1]?.trim()
          resolve({ protocol, cert, ...(date ? { date } : {}) })
        })
      },
    )
    socket.on('timeout', () => socket.destroy(new Error('timed out')))
    socket.on('error', reject)
  })
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
