/**
 * The store's server (docs/store.md): `store keygen|enrol|password|nkey|server-config`, `rescue`,
 * `lift-fence` and `fleet`. Each needs the configuration's `store` section but the key pair's and the
 * server configuration's making. `rescue`, `lift-fence` and `fleet` speak to the store server with
 * its admin credential (`--store-admin`): a lane's own may touch only that lane.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Runtime } from '../../app'
import type { StoreConnectionSettings } from '../../store'
import { PosError } from '../../../src-shared/pos-error'
import { readSecret, readSecrets } from '../commands/io'
import { EXIT } from '../exit-codes'
import type { CliContext } from './context'
import { SYSTEM_CLOCK } from '../../../src-shared/clock'

/**
 * The connection settings with the store's admin NKey from its seed file (`--store-admin`), or as
 * the configuration has them without it. A file that cannot be read is said plainly.
 */
async function withStoreAdmin<T extends Omit<StoreConnectionSettings, 'name'>>(settings: T, seedFile: string | undefined): Promise<T> {
  if (seedFile === undefined) return settings
  const { adminConnectionSettings } = await import('../../store')
  let seed: string
  try {
    seed = readFileSync(seedFile, 'utf8')
  } catch (error) {
    throw new PosError(
      'CONFIG_INVALID',
      `the store admin's seed file ${seedFile} cannot be read (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  return adminConnectionSettings(settings, seed)
}

const STORE_ADMIN = ['--store-admin <seed file>', "the store admin's NKey seed file (from `pos-agent store server-config`)"] as const

/** Each `--terminal`, in order. */
const collect = (value: string, previous: string[]): string[] => [...previous, value]

/** A keychain secret named by the configuration's `store` section, read from standard input. */
async function storeSecret(rt: Runtime, name: 'user' | 'nkey', save: (rt: Runtime, id: string) => Promise<number>): Promise<number> {
  const id = rt.loaded?.config.store?.[name]
  if (!id) {
    console.error(`no store.${name} in the configuration`)
    return EXIT.config
  }
  return save(rt, id)
}

export function addStoreCommands({ program, withRuntime, finish }: CliContext): void {
  const store = program.command('store').description("the store's server: the recovery key, and this terminal's store credentials")
  store
    .command('keygen')
    .description(
      "make the store's recovery key pair: the private key into FILE (passphrase from standard input), the public key printed; with --rewrap, the same key from an older file under a new passphrase",
    )
    .requiredOption('--out <file>', 'where to write the passphrase-protected private key (a new file, e.g. on a USB stick)')
    .option(
      '--rewrap <old-file>',
      'an existing recovery key file to write again under the current protection (its passphrase, then the new one, from standard input)',
    )
    .action(async (o: { out: string; rewrap?: string }) => {
      const { storeKeygen, storeRewrap } = await import('../commands/store-commands')
      if (o.rewrap === undefined) return finish(storeKeygen(o.out, await readSecret('passphrase for the recovery key (not echoed): ')))
      const [oldPassphrase, newPassphrase] = await readSecrets([
        `passphrase of ${o.rewrap} (not echoed): `,
        `new passphrase for ${o.out} (not echoed): `,
      ])
      finish(storeRewrap(o.rewrap, o.out, oldPassphrase ?? '', newPassphrase ?? ''))
    })
  store
    .command('enrol')
    .description(
      "enrol this terminal with the store server so that a rescue trusts its copies: makes its copy key in the keychain (when absent) and the certificate in the data folder; needs the store's recovery key (its passphrase from standard input)",
    )
    .requiredOption('--recovery-key <file>', "the store's recovery private key")
    .option('--by <name>', 'who enrols it (recorded in the certificate)', 'a manager')
    .action(async (o: { recoveryKey: string; by: string }) => {
      const [{ auditFromCommandLine, copyMaxAgeMs }, { enrolCommand, storeConnectionOf }] = await Promise.all([
        import('../../app'),
        import('../commands/store-commands'),
      ])
      finish(
        await withRuntime(async (rt) => {
          const config = rt.loaded?.config
          if (!config?.store) {
            console.error('no store section in the configuration: enrolment is with the store server (docs/store.md)')
            return EXIT.config
          }
          const keyPem = readFileSync(o.recoveryKey, 'utf8')
          const passphrase = await readSecret('passphrase of the recovery key (not echoed): ')
          const recorded: Array<Promise<boolean>> = []
          const code = await enrolCommand({
            secrets: rt.secrets,
            dataDir: rt.dataDir,
            storeId: config.merchant.storeId,
            terminalId: config.merchant.terminalId,
            recoveryPublicKey: config.store.recoveryPublicKey,
            keyFile: o.recoveryKey,
            keyPem,
            passphrase,
            by: o.by,
            // As the lane itself: its own replies (inbox prefix) are all a per-lane account may read.
            connection: withLane(await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)), config.merchant.terminalId),
            audit: (entry) => void recorded.push(auditFromCommandLine(rt.secrets, rt.dataDir, entry)),
          })
          await Promise.all(recorded)
          return code
        }),
      )
    })
  store
    .command('password')
    .description('read the store server password of store.user from standard input and keep it in the OS keychain')
    .action(async () => {
      const { auditFromCommandLine, keepStoreSecret } = await import('../../app')
      finish(
        await withRuntime((rt) =>
          storeSecret(rt, 'user', async (rt, user) => {
            await keepStoreSecret(rt.secrets, 'password', user, await readSecret(`store server password for ${user} (not echoed): `))
            await auditFromCommandLine(rt.secrets, rt.dataDir, {
              action: 'setStorePassword',
              subject: user,
              ok: true,
              detail: 'kept in the keychain',
            })
            console.log(`store server password for ${user} stored`)
            return EXIT.ok
          }),
        ),
      )
    })
  store
    .command('nkey')
    .description("read this terminal's NKey seed (SU...) for store.nkey from standard input and keep it in the OS keychain")
    .action(async () => {
      const { auditFromCommandLine, keepStoreSecret } = await import('../../app')
      finish(
        await withRuntime((rt) =>
          storeSecret(rt, 'nkey', async (rt, nkey) => {
            const seed = await readSecret('NKey seed (not echoed): ')
            const audit = (ok: boolean, detail: string) =>
              auditFromCommandLine(rt.secrets, rt.dataDir, { action: 'setStoreNkey', subject: nkey, ok, detail })
            if (!/^SU[A-Z2-7]{56}$/.test(seed)) {
              await audit(false, 'not a user NKey seed: nothing was stored')
              console.error('this is not a user NKey seed (it starts with SU): nothing was stored')
              return EXIT.usage
            }
            await keepStoreSecret(rt.secrets, 'nkey-seed', nkey, seed)
            await audit(true, 'seed kept in the keychain')
            console.log('NKey seed stored')
            return EXIT.ok
          }),
        ),
      )
    })

  store
    .command('server-config')
    .description(
      "write the store server's nats-server configuration: JetStream, one NKey user per lane that may touch only its own copies, fence, heartbeat and replies, and the store's admin; each seed in its own owner-only file",
    )
    .requiredOption('--store <id>', "the store's id (merchant.storeId of its terminals)")
    .requiredOption('--terminal <id>', 'a lane of the store, e.g. T-0001 (repeat for each lane)', collect, [])
    .requiredOption('--out <file>', 'the nats-server configuration file to write (public keys only)')
    .requiredOption('--seeds <dir>', 'the folder for the seed files (made owner-only; seeds already there are kept)')
    .option('--listen <host:port>', 'where the server listens for the lanes', '127.0.0.1:4222')
    .option('--store-dir <dir>', 'where JetStream keeps the copies, fences and heartbeats', '/var/lib/nats/jetstream')
    .option('--tls-cert <file>', "the server's certificate (PEM): the lanes then reach it over TLS (with --tls-key)")
    .option('--tls-key <file>', "the server's private key (PEM)")
    .option('--domain <domain>', "the server's JetStream domain, when it is a store server in a chain")
    .option(
      '--cluster <3>',
      'write the three files of a three-server store (<out>-store-1.conf, -2, -3): each copy held by two of the three servers before it is acknowledged; lanes then set store.replicas: 3',
    )
    .option(
      '--host <host>',
      'with --cluster 3: one machine of the three (give three); none: the three servers on the --listen host, on three ports each',
      collect,
      [],
    )
    .option('--cluster-port <port>', 'with --cluster 3: the port the servers reach each other on (one machine: it and the next two)')
    .option(
      '--server-version <version>',
      'the nats-server version that will read the file (default: nats-server --version here); 2.10 and later get sync_interval: always',
    )
    .action(
      async (o: {
        store: string
        terminal: string[]
        out: string
        seeds: string
        listen: string
        storeDir: string
        tlsCert?: string
        tlsKey?: string
        domain?: string
        cluster?: string
        host: string[]
        clusterPort?: string
        serverVersion?: string
      }) => {
        const { serverConfigCommand } = await import('../commands/server-config-command')
        finish(serverConfigCommand({ ...o, terminals: o.terminal, hosts: o.host, now: () => new Date(SYSTEM_CLOCK.now()) }))
      },
    )

  program
    .command('rescue')
    .description(
      "send a dead terminal's waiting payments, reversals and credits from the store's copies: lists them first and asks, then fences it, sends each once, writes a report",
    )
    .requiredOption('--terminal <id>', 'the terminal whose queue to rescue, e.g. T-0003')
    .requiredOption('--recovery-key <file>', "the store's recovery private key (its passphrase is read from standard input)")
    .option('--dry-run', 'list what would be sent and what is refused, and stop: nothing is sent, the terminal is not fenced')
    .option('--yes', 'do not ask before sending (when no one can answer the question)')
    .option(
      '--terminal-is-off',
      'the terminal is known to be off: do not wait for its heartbeat to fall silent (recorded in the audit trail)',
    )
    .option('--report-dir <dir>', 'where the report (CSV) goes (default: rescue-reports in the data folder)')
    .option('--json', 'print the report as one JSON line')
    .option(...STORE_ADMIN)
    .action(
      async (o: {
        terminal: string
        recoveryKey: string
        dryRun?: boolean
        yes?: boolean
        terminalIsOff?: boolean
        reportDir?: string
        json?: boolean
        storeAdmin?: string
      }) => {
        const [
          { auditFromCommandLine, copyMaxAgeMs, openHostClient },
          { rescueCommand, rescueSender, storeConnectionOf },
          store,
          { askYes },
        ] = await Promise.all([import('../../app'), import('../commands/store-commands'), import('../../store'), import('../commands/io')])
        finish(
          await withRuntime(async (rt) => {
            const config = rt.loaded?.config
            const lane = config ? await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)) : undefined
            const connection = lane && (await withStoreAdmin(lane, o.storeAdmin))
            if (!config?.store || !connection) {
              console.error('no store section in the configuration: the rescue needs the store server (docs/store.md)')
              return EXIT.config
            }
            const keyPem = readFileSync(o.recoveryKey, 'utf8')
            const passphrase = await readSecret('passphrase of the recovery key (not echoed): ')
            const host = await openHostClient(rt)
            const recorded: Array<Promise<boolean>> = []
            try {
              return (
                await rescueCommand({
                  connection,
                  terminalId: o.terminal,
                  recoveryPublicKey: config.store.recoveryPublicKey,
                  keyFile: o.recoveryKey,
                  keyPem,
                  passphrase,
                  rules: store.rescueRulesOf(config),
                  rescueAfterSeconds: store.rescueAfterSecondsOf(config.store),
                  lateCopyMs: store.lateCopyMsOf(config.store),
                  terminalIsOff: o.terminalIsOff === true,
                  dryRun: o.dryRun === true,
                  confirm: async (question) => (o.yes === true ? (console.log(question), true) : askYes(question)),
                  sender: rescueSender(host.client),
                  reportDir: o.reportDir ?? join(rt.dataDir, 'rescue-reports'),
                  reportDirIsDefault: o.reportDir === undefined,
                  lane: config.merchant.terminalId,
                  audit: (entry) => void recorded.push(auditFromCommandLine(rt.secrets, rt.dataDir, entry)),
                  json: o.json === true,
                })
              ).code
            } finally {
              await Promise.all(recorded)
              await host.close()
            }
          }),
        )
      },
    )

  program
    .command('lift-fence')
    .description(
      "put a rescued terminal back in service: lifts the fence its rescue set, so that once restarted it sends its own queue again (the store's recovery key is needed, as for the rescue)",
    )
    .requiredOption('--terminal <id>', 'the rescued terminal, e.g. T-0003')
    .requiredOption('--recovery-key <file>', "the store's recovery private key (its passphrase is read from standard input)")
    .option('--yes', 'do not ask before lifting it (when no one can answer the question)')
    .option(...STORE_ADMIN)
    .action(async (o: { terminal: string; recoveryKey: string; yes?: boolean; storeAdmin?: string }) => {
      const [{ auditFromCommandLine, copyMaxAgeMs }, { storeConnectionOf }, { liftFenceCommand }, { askYes }] = await Promise.all([
        import('../../app'),
        import('../commands/store-commands'),
        import('../commands/fence-command'),
        import('../commands/io'),
      ])
      finish(
        await withRuntime(async (rt) => {
          const config = rt.loaded?.config
          const lane = config ? await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)) : undefined
          const connection = lane && (await withStoreAdmin(lane, o.storeAdmin))
          if (!config?.store || !connection) {
            console.error('no store section in the configuration: the fence is kept by the store server (docs/store.md)')
            return EXIT.config
          }
          const keyPem = readFileSync(o.recoveryKey, 'utf8')
          const passphrase = await readSecret('passphrase of the recovery key (not echoed): ')
          // The command's records are written as it goes; it ends once each is in the trail.
          const recorded: Array<Promise<boolean>> = []
          const code = await liftFenceCommand({
            connection,
            terminalId: o.terminal,
            recoveryPublicKey: config.store.recoveryPublicKey,
            keyFile: o.recoveryKey,
            keyPem,
            passphrase,
            confirm: async (question) => (o.yes === true ? (console.log(question), true) : askYes(question)),
            audit: (entry) => void recorded.push(auditFromCommandLine(rt.secrets, rt.dataDir, entry)),
          })
          await Promise.all(recorded)
          return code
        }),
      )
    })

  program
    .command('fleet')
    .description('every lane of this store (or, through a hub, of these stores) and what needs a person; exits 1 when something does')
    .option('--domain <domain...>', "store servers' JetStream domains, read through the hub this configuration names")
    .option('--json', 'machine-readable output')
    .option(...STORE_ADMIN)
    .action(async (o: { domain?: string[]; json?: boolean; storeAdmin?: string }) => {
      const [{ copyMaxAgeMs }, { fleetCommand, storeConnectionOf }] = await Promise.all([
        import('../../app'),
        import('../commands/store-commands'),
      ])
      finish(
        await withRuntime(async (rt) => {
          const config = rt.loaded?.config
          const lane = config ? await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)) : undefined
          const connection = lane && (await withStoreAdmin(lane, o.storeAdmin))
          if (!config || !connection) {
            console.error('no store section in the configuration (docs/store.md)')
            return EXIT.config
          }
          const connections = o.domain ? o.domain.map((domain) => ({ ...connection, domain })) : [connection]
          return fleetCommand(connections, o.json === true, undefined, rt.clock)
        }),
      )
    })
}

/** A lane's connection settings as that lane (its inbox prefix), not as a tool reading the whole store. */
function withLane<T extends { terminalId?: string | undefined }>(settings: T | undefined, terminalId: string): T | undefined {
  return settings === undefined ? undefined : { ...settings, terminalId }
}
