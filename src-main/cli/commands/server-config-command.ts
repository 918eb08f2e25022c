/**
 * `pos-agent store server-config`: the store server's `nats-server` configuration (docs/store.md
 * "What a lane may do"), one NKey user per lane named on the command line and an admin user, each
 * seed in its own owner-only file. Run again with one more `--terminal`, it keeps the seeds it finds
 * in the folder (the lanes already set up keep theirs) and makes the missing ones. With `--cluster 3`
 * it writes the three files of a three-server store instead (docs/store.md "Three store servers"),
 * and the servers' own route password in the seeds folder, kept across runs as the seeds are.
 * The disk setting follows the version of the `nats-server` that will read the files: the one
 * installed here unless `--server-version` names another, and the summary says which it used.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { nkeys } from '@nats-io/transport-node'
import { clusterConfigs, clusterNodesOf, installedServerVersion, laneName, serverConfig } from '../../store'
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
  /** `3`: the three files of a three-server store (a JetStream cluster). */
  cluster?: string | undefined
  /** The three machines of a three-server store (none: the three servers on the `--listen` host). */
  hosts?: string[] | undefined
  /** The first cluster port (three servers on one machine take it and the next two). */
  clusterPort?: string | undefined
  /** The nats-server version that will read the file(s); the installed one when not given. */
  serverVersion?: string | undefined
  /** `nats-server --version` of this machine (a test gives its own). */
  installedVersion?: () => string | undefined
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

/** The three servers' route password, made (0600, never overwritten) when there is none. */
function routePassword(file: string): { file: string; made: boolean } {
  if (existsSync(file)) {
    if (!/^[A-Za-z0-9_-]{24,}$/.test(readFileSync(file, 'utf8').trim()))
      throw new Error(`${file} is not a route password written by server-config: move it away, or remove it to make a new one`)
    return { file, made: false }
  }
  writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' })
  return { file, made: true }
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
              : options.cluster !== undefined && options.cluster !== '3'
                ? `--cluster takes 3 (a store of three servers), not ${options.cluster}`
                : options.cluster === undefined && (options.hosts?.length || options.clusterPort !== undefined)
                  ? '--host and --cluster-port go with --cluster 3'
                  : options.hosts?.length && options.hosts.length !== 3
                    ? `--cluster 3 takes three --host (one per server), or none for three servers on one machine (${options.hosts.length} given)`
                    : options.clusterPort !== undefined && !/^\d{1,5}$/.test(options.clusterPort)
                      ? `--cluster-port takes a port number (${options.clusterPort})`
                      : options.serverVersion !== undefined && !/^v?\d+\.\d+\.\d+$/.test(options.serverVersion)
                        ? `--server-version takes a version such as 2.10.22 (${options.serverVersion})`
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
  const installed = (options.installedVersion ?? installedServerVersion)()
  const serverVersion = options.serverVersion?.replace(/^v/, '') ?? installed
  const versionLine =
    options.serverVersion !== undefined
      ? `Written for nats-server ${serverVersion} (--server-version)${installed && installed !== serverVersion ? `; the one installed here is ${installed}` : ''}.`
      : installed
        ? `Written for nats-server ${installed}, the one installed here (nats-server --version); give --server-version for another.`
        : 'No nats-server here to ask its version: sync_interval is written as a comment to enable on 2.10 or later; give --server-version to choose.'
  const common = {
    domain: options.domain,
    tls: options.tlsCert && options.tlsKey ? { certFile: resolve(options.tlsCert), keyFile: resolve(options.tlsKey) } : undefined,
    admin: admin.publicKey,
    lanes: lanes.map(({ terminalId, publicKey }) => ({ storeId: options.store, terminalId, publicKey })),
    writtenAt: options.now().toISOString(),
    serverVersion,
  }
  const [host, port] = [
    options.listen.slice(0, options.listen.lastIndexOf(':')),
    Number(options.listen.slice(options.listen.lastIndexOf(':') + 1)),
  ]
  let files: Array<{ file: string; text: string; name?: string; url?: string }>
  let routeFile: { file: string; made: boolean } | undefined
  try {
    if (options.cluster === undefined)
      files = [{ file: options.out, text: serverConfig({ ...common, listen: options.listen, storeDir: resolve(options.storeDir) }) }]
    else {
      const nodes = clusterNodesOf({
        host: host || '127.0.0.1',
        clientPort: port,
        clusterPort: options.clusterPort === undefined ? 6222 : Number(options.clusterPort),
        storeDir: resolve(options.storeDir),
        hosts: options.hosts,
      })
      routeFile = routePassword(join(options.seeds, 'route.secret'))
      const base = join(dirname(options.out), basename(options.out, extname(options.out)))
      files = clusterConfigs({
        ...common,
        clusterName: `pos-${options.store}`.replace(/[^A-Za-z0-9_-]/g, '-'),
        nodes,
        routeUser: 'store-route',
        routePassword: readFileSync(routeFile.file, 'utf8').trim(),
      }).map(({ node, text }) => ({
        file: `${base}-${node.name}${extname(options.out) || '.conf'}`,
        text,
        name: node.name,
        url: `${options.tlsCert ? 'tls' : 'nats'}://${node.host}:${node.clientPort}`,
      }))
    }
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}: nothing was written`)
    return EXIT.usage
  }
  // Public keys only (and, for three servers, their route password): readable by the server's own
  // account. Replaced whole, never half-written.
  for (const { file, text } of files) {
    const partial = `${file}.${process.pid}.partial`
    writeFileSync(partial, text, { mode: options.cluster ? 0o600 : 0o644 })
    renameSync(partial, file)
  }
  const kept = (seed: { made: boolean }) => (seed.made ? 'new' : 'kept')
  ;(options.print ?? console.log)(
    [
      ...(options.cluster === undefined
        ? [
            `nats-server configuration written to ${options.out}: ${lanes.length} ${lanes.length === 1 ? 'lane' : 'lanes'} of store ${options.store}, and the store's admin.`,
            `Start (or reload) the server with it: nats-server -c ${options.out}`,
          ]
        : [
            `Three servers' configurations written, for ${lanes.length} ${lanes.length === 1 ? 'lane' : 'lanes'} of store ${options.store} and the store's admin:`,
            ...files.map(({ file, name, url }) => `  ${name}: ${file}; start it with nats-server -c ${file} (lanes reach it at ${url})`),
            `Each copy is then on two of the three before it is acknowledged. On each terminal set store.replicas: 3 and store.servers: [${files.map(({ url }) => JSON.stringify(url)).join(', ')}].`,
            `The servers' route password: ${routeFile!.file} (${routeFile!.made ? 'new' : 'kept'}); it is in the three files, so keep them readable by the server's account alone.`,
          ]),
      versionLine,
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
