/**
 * `pos-agent store server-config`: the store server's `nats-server` configuration (docs/store.md
 * "What a lane may do"), one NKey user per lane named on the command line and an admin user, each
 * seed in its own owner-only file. Run again with one more `--terminal`, it keeps the seeds it finds
 * in the folder (the lanes already set up keep theirs) and makes the missing ones.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { nkeys } from '@nats-io/transport-node'
import { laneName, serverConfig } from '../../store'
import { EXIT } from '../exit-codes'

export interface ServerConfigOptions {
  store: string
  terminals: string[]
  out: string
  seeds: string
  listen: string
  storeDir: string
  tlsCert?: string | undefined
  tlsKey?: string | undefined
  domain?: string | undefined
  now: () => Date
  /** Where the summary goes (the console by default). */
  print?: (text: string) => void
}

const SEED = /^SU[A-Z2-7]{56}$/

/** The account's public key, from its seed file, made (0600, never overwritten) when there is none. */
function seedIn(file: string): { publicKey: string; made: boolean } {
  if (existsSync(file)) {
    const seed = readFileSync(file, 'utf8').trim()
    if (!SEED.test(seed))
      throw new Error(`${file} is not a user NKey seed (a line starting with SU): move it away, or remove it to make a new one`)
    return { publicKey: nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey(), made: false }
  }
  const pair = nkeys.createUser()
  writeFileSync(file, `${new TextDecoder().decode(pair.getSeed())}\n`, { mode: 0o600, flag: 'wx' })
  return { publicKey: pair.getPublicKey(), made: true }
}

export function serverConfigCommand(options: ServerConfigOptions): number {
  const terminals = [...new Set(options.terminals)]
  const problem =
    terminals.length === 0
      ? 'name at least one lane with --terminal'
      : [options.store, ...terminals].some((id) => id.trim() === '' || /[\r\n]/.test(id))
        ? 'a store or terminal id is empty or holds a line break'
        : (options.tlsCert === undefined) !== (options.tlsKey === undefined)
          ? '--tls-cert and --tls-key go together'
          : !/^[^\s:]*:\d{1,5}$/.test(options.listen)
            ? `--listen takes host:port (${options.listen})`
            : options.domain !== undefined && !/^[A-Za-z0-9_-]+$/.test(options.domain)
              ? '--domain takes letters, digits, - and _ only'
              : undefined
  if (problem) {
    console.error(`${problem}: nothing was written`)
    return EXIT.usage
  }
  const made = !existsSync(options.seeds)
  mkdirSync(options.seeds, { recursive: true, mode: 0o700 })
  if (made) chmodSync(options.seeds, 0o700)
  let admin: { publicKey: string; made: boolean }
  let lanes: Array<{ terminalId: string; file: string; publicKey: string; made: boolean }>
  try {
    admin = seedIn(join(options.seeds, 'admin.nk'))
    lanes = terminals.map((terminalId) => {
      const file = join(options.seeds, `${laneName(options.store, terminalId)}.nk`)
      return { terminalId, file, ...seedIn(file) }
    })
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}: the server's configuration was not written`)
    return EXIT.usage
  }
  const text = serverConfig({
    listen: options.listen,
    storeDir: resolve(options.storeDir),
    domain: options.domain,
    tls: options.tlsCert && options.tlsKey ? { certFile: resolve(options.tlsCert), keyFile: resolve(options.tlsKey) } : undefined,
    admin: admin.publicKey,
    lanes: lanes.map(({ terminalId, publicKey }) => ({ storeId: options.store, terminalId, publicKey })),
    writtenAt: options.now().toISOString(),
  })
  // Public keys only: readable by the server's own account. Replaced whole, never half-written.
  const partial = `${options.out}.${process.pid}.partial`
  writeFileSync(partial, text, { mode: 0o644 })
  renameSync(partial, options.out)
  const kept = (seed: { made: boolean }) => (seed.made ? 'new' : 'kept')
  ;(options.print ?? console.log)(
    [
      `nats-server configuration written to ${options.out}: ${lanes.length} ${lanes.length === 1 ? 'lane' : 'lanes'} of store ${options.store}, and the store's admin.`,
      `Start (or reload) the server with it: nats-server -c ${options.out}`,
      `Seeds, one owner-only file each, in ${options.seeds} (never in the server's file):`,
      `  ${join(options.seeds, 'admin.nk')} (${kept(admin)}): the store's admin, for \`pos-agent rescue\`, \`lift-fence\` and \`fleet\` with --store-admin; keep it with the recovery key, off the terminals`,
      ...lanes.map(
        (lane) =>
          `  ${lane.file} (${kept(lane)}): terminal ${lane.terminalId}; on it, with store.nkey set in its configuration: pos-agent store nkey < ${lane.file}`,
      ),
    ].join('\n'),
  )
  return EXIT.ok
}
