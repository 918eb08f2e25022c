/**
 * `pos-agent doctor`: one screen that says what is wrong with this terminal and how to fix it:
 * configuration, keychain, serial device, host reachability and TLS, clock, free disk, the queue.
 */
import { existsSync, statfsSync } from 'node:fs'
import { join } from 'node:path'
import { connect, rootCertificates, type PeerCertificate } from 'node:tls'
import { endpointFromConfig, type Runtime } from '../../app'
import { discoverReaderPort } from '../../device'
import { keyCheckValue } from '../../gateway'
import { JOURNAL_FILE, probeQueue } from '../../journal'
import { dataKeyAccount, MemorySecretStore, signingKeyAccount } from '../../keychain'
import { EXIT } from '../exit-codes'

type Level = 'ok' | 'warn' | 'fail'
interface Finding {
  level: Level
  area: string
  text: string
  fix?: string
}

const MIN_FREE_BYTES = 500 * 1024 * 1024
const CLOCK_SKEW_WARN_MS = 60_000

export async function doctorCommand(runtime: Runtime, json: boolean): Promise<number> {
  const findings: Finding[] = []
  const add = (level: Level, area: string, text: string, fix?: string) => findings.push({ level, area, text, ...(fix ? { fix } : {}) })
  const config = runtime.loaded?.config

  if (config) add('ok', 'configuration', `${runtime.loaded?.file} (mode ${config.mode})`)
  else if (runtime.refusal)
    add('fail', 'configuration', runtime.refusal.message, 'restore the configuration file; nothing in the journal was touched')
  else
    add(
      'warn',
      'configuration',
      'no configuration file: TRAINING MODE, nothing real is charged',
      'write config.json (see README "Configuration") for production',
    )

  checkKeychain(runtime, add)
  const signingKey = await runtime.secrets.get(signingKeyAccount(runtime.aid))
  if (signingKey) add('ok', 'signing key', `present for aid ${runtime.aid}, KCV ${keyCheckValue(signingKey)}`)
  else
    add(
      config ? 'fail' : 'warn',
      'signing key',
      `none for aid ${runtime.aid}`,
      'run `pos-agent key set` and paste the key from your acquirer',
    )
  const terminalId = config?.merchant.terminalId
  if (terminalId)
    add(
      (await runtime.secrets.get(dataKeyAccount(terminalId))) ? 'ok' : 'warn',
      'data key',
      (await runtime.secrets.get(dataKeyAccount(terminalId))) ? 'present' : 'not created yet (made at the first start)',
    )

  if (config) {
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
    await checkHost(config, add)
  } else add('ok', 'card reader', 'simulated PIN pad (training)')

  try {
    const { bavail, bsize } = statfsSync(runtime.dataDir)
    const free = bavail * bsize
    add(
      free < MIN_FREE_BYTES ? 'fail' : 'ok',
      'disk',
      `${(free / 1024 ** 3).toFixed(1)} GiB free for ${runtime.dataDir}`,
      'free disk space: a full disk stops new sales (nothing already journaled is lost)',
    )
  } catch {
    add('warn', 'disk', `${runtime.dataDir} does not exist yet (created at the first start)`)
  }
  checkQueue(runtime, add)

  const worst = findings.some((f) => f.level === 'fail') ? 'fail' : findings.some((f) => f.level === 'warn') ? 'warn' : 'ok'
  if (json) console.log(JSON.stringify({ status: worst, findings }))
  else {
    for (const f of findings)
      console.log(
        `${f.level === 'ok' ? 'OK  ' : f.level === 'warn' ? 'WARN' : 'FAIL'}  ${f.area.padEnd(14)} ${f.text}${f.level !== 'ok' && f.fix ? `\n      ${''.padEnd(14)} → ${f.fix}` : ''}`,
      )
    console.log(worst === 'ok' ? 'all checks passed' : worst === 'warn' ? 'usable, with warnings' : 'NOT READY: fix the FAIL lines above')
  }
  return worst === 'fail' ? EXIT.failure : EXIT.ok
}

/** The same words the agent says when it refuses to start (production) or falls back (training). */
function checkKeychain(runtime: Runtime, add: (level: Level, area: string, text: string, fix?: string) => void): void {
  const secrets = runtime.secrets
  if (secrets.kind === 'os-keychain') return add('ok', 'keychain', 'OS keychain answers')
  const reason = secrets instanceof MemorySecretStore ? secrets.unavailable : undefined
  const what = reason?.what ?? 'no OS keychain'
  if (runtime.mode === 'production') add('fail', 'keychain', `${what}: production will not start without it`, reason?.fix)
  else add('warn', 'keychain', `${what}: training keys live in process memory and vanish when the agent stops`, reason?.fix)
}

/** TLS handshake with the offline host: version, certificate validity, clock against its Date header. */
async function checkHost(
  config: NonNullable<Runtime['loaded']>['config'],
  add: (level: Level, area: string, text: string, fix?: string) => void,
): Promise<void> {
  const url = new URL(config.host.offlineBaseUrl)
  const endpoint = endpointFromConfig(config)
  try {
    const { protocol, cert, date } = await handshake(url, endpoint.extraCaPem)
    const daysLeft = Math.floor((Date.parse(cert.valid_to) - Date.now()) / 86_400_000)
    add(
      daysLeft < 14 ? 'warn' : 'ok',
      'host TLS',
      `${url.host}: ${protocol}, certificate valid ${daysLeft} more days`,
      'the host certificate expires soon: tell the acquirer',
    )
    if (date) {
      const skew = Date.now() - Date.parse(date)
      add(
        Math.abs(skew) > CLOCK_SKEW_WARN_MS ? 'warn' : 'ok',
        'clock',
        `${Math.round(skew / 1000)} s from the host's clock`,
        'synchronise the clock (NTP): DateTime headers and receipts use it',
      )
    }
  } catch (error) {
    add(
      'fail',
      'host',
      `${url.host} unreachable or not trusted (${message(error)})`,
      'check the network, host.offlineBaseUrl, and host.caFile if the acquirer uses a private CA',
    )
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

function checkQueue(runtime: Runtime, add: (level: Level, area: string, text: string, fix?: string) => void): void {
  const queue = probeQueue(join(runtime.dataDir, JOURNAL_FILE))
  if (queue === undefined) return add('ok', 'queue', 'no journal yet')
  const age = queue.oldestWaitingAt ? `, oldest ${Math.round((Date.now() - queue.oldestWaitingAt) / 60_000)} min` : ''
  add(
    queue.needsManager > 0 ? 'fail' : queue.waiting > 0 ? 'warn' : 'ok',
    'queue',
    `${queue.waiting} waiting${age}, ${queue.needsManager} sale(s) need a manager`,
    queue.needsManager > 0
      ? 'open the queue: a manager must retry or acknowledge each sale that needs one (a stored payment the bank declined is money not received)'
      : 'they are forwarded when the host answers',
  )
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
