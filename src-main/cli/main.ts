/**
 * `pos-agent`: the command line. Each subcommand is thin: parse flags, open the runtime, call the
 * command module, exit with a documented code (README "Exit codes"). Errors go to stderr in one line.
 *
 * A command's module (and the agent's runtime) is imported when that command runs, not before: a
 * start of `serve` loads what serving needs and never the store tools, the doctor or the simulators.
 */
import { Command, CommanderError, Option } from 'commander'
import type { Runtime, RuntimeOptions } from '../app'
import { OPERATION_KINDS, readSigningKey, SIGN_TYPES, type OperationKind, type SignType } from '../gateway'
import { readBody, readSecret } from './commands/io'
import { EXIT, exitCodeOf } from './exit-codes'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const program = new Command('pos-agent')
  .description('Countertop card-terminal agent. With no configuration it runs in training mode.')
  .option('--config <file>', 'configuration file (default: $POS_AGENT_CONFIG, then the per-user config folder)')
  .option('--data-dir <dir>', 'data folder (journal, logs, training host state); default from config or the per-user data folder')
  .showHelpAfterError()
  .exitOverride()

const runtimeOptions = (): RuntimeOptions => {
  const opts = program.opts<{ config?: string; dataDir?: string }>()
  return { configFlag: opts.config, dataDirFlag: opts.dataDir }
}

/**
 * Runs a command body with the runtime open, and always releases what it holds. `report` (the
 * doctor) opens it even where starting would be refused, so the refusal can be described.
 */
async function withRuntime(body: (runtime: Runtime) => Promise<number>, report = false, tryInTraining = false): Promise<number> {
  const { openRuntime } = await import('../app')
  const runtime = await openRuntime({ ...runtimeOptions(), report, tryInTraining })
  try {
    return await body(runtime)
  } finally {
    await new Promise<void>((resolve) => runtime.logger.flush(() => resolve()))
  }
}

const signTypeOption = () =>
  new Option('--sign-type <type>', 'SHA256 | SHA512 | HMAC-SHA256 | HMAC-SHA512 (default: from config)').choices(SIGN_TYPES)

const key = program.command('key').description('the signing key in the OS keychain')
key
  .command('set')
  .description('read the 32-character signing key from standard input (never an argument, never echoed) and store it')
  .option('--aid <aid>', 'acquirer id the key belongs to (default: from config)')
  .action(async (o: { aid?: string }) => {
    const { keySet } = await import('./commands/key-commands')
    finish(await withRuntime((rt) => keySet(rt, o.aid ?? rt.aid)))
  })
key
  .command('status')
  .description('show whether a key is stored and its key check value (never the key)')
  .option('--aid <aid>', 'acquirer id (default: from config)')
  .option('--json', 'machine-readable output')
  .action(async (o: { aid?: string; json?: boolean }) => {
    const { keyStatus } = await import('./commands/key-commands')
    finish(await withRuntime((rt) => keyStatus(rt, o.aid ?? rt.aid, o.json === true)))
  })

program
  .command('email')
  .description("email receipts through the store's SMTP server")
  .command('password')
  .description('read the SMTP password of email.user from standard input (never echoed) and keep it in the OS keychain')
  .action(async () => {
    const { emailPassword } = await import('./commands/email-commands')
    finish(await withRuntime((rt) => emailPassword(rt)))
  })

interface SignFlags {
  method: string
  path: string
  dateTime: string
  msgId: string
  signType?: SignType
  bodyFile?: string
  aid?: string
  json?: boolean
}
const signFlags = (command: Command) =>
  command
    .option('--method <method>', 'HTTP method', 'POST')
    .requiredOption('--path <path>', 'path plus query string, without the host (for a notification: the path of the webhook URL)')
    .requiredOption('--date-time <value>', 'the DateTime header value')
    .requiredOption('--msg-id <value>', 'the MsgID header value')
    .addOption(signTypeOption())
    .option('--body-file <file>', 'body bytes from a file (default: standard input; ignored for GET when signing)')
    .option('--aid <aid>', 'whose signing key to use (default: from config)')
    .option('--json', 'machine-readable output')

async function signInput(rt: Runtime, o: SignFlags) {
  const signType = o.signType ?? rt.loaded?.config.host.signType ?? 'HMAC-SHA256'
  const body = o.method.toUpperCase() === 'GET' && o.bodyFile === undefined ? Buffer.alloc(0) : await readBody(o.bodyFile)
  return { method: o.method.toUpperCase(), path: o.path, dateTime: o.dateTime, msgId: o.msgId, signType, body }
}

signFlags(
  program
    .command('sign')
    .description('print the string to sign (key masked) and the signature for a request, to debug a rejected signature'),
).action(async (o: SignFlags) => {
  const { signCommand } = await import('./commands/sign-commands')
  finish(
    await withRuntime(async (rt) =>
      signCommand(await signInput(rt, o), await readSigningKey(rt.secrets, o.aid ?? rt.aid), o.json === true),
    ),
  )
})
signFlags(program.command('verify').description('check the signature of a received response or notification'))
  .requiredOption('--authorization <hex>', 'the received Authorization header')
  .action(async (o: SignFlags & { authorization: string }) => {
    const { verifyCommand } = await import('./commands/sign-commands')
    finish(
      await withRuntime(async (rt) =>
        verifyCommand(
          { ...(await signInput(rt, o)), authorization: o.authorization },
          await readSigningKey(rt.secrets, o.aid ?? rt.aid),
          o.json === true,
        ),
      ),
    )
  })

program
  .command('send')
  .description('sign one request, send it to the configured host, verify the answer and print it with its outcome class')
  .addArgument(new Command().createArgument('<operation>', 'payment | cancel | reversal | tips | capture').choices(OPERATION_KINDS))
  .argument('[merchantTransID]', 'the original merchantTransID (cancel, reversal, tips, capture)')
  .option('--body-file <file>', 'JSON body from a file (default: standard input)')
  .option('--json', 'print the outcome as one JSON line')
  .action(async (operation: OperationKind, originalId: string | undefined, o: { bodyFile?: string; json?: boolean }) => {
    const [{ openHostClient }, { sendCommand }] = await Promise.all([import('../app'), import('./commands/send-command')])
    finish(
      await withRuntime(async (rt) => {
        const body = await readBody(o.bodyFile)
        const connection = await openHostClient(rt)
        try {
          return await sendCommand(connection.client, operation, body, originalId, o.json === true)
        } finally {
          await connection.close()
        }
      }),
    )
  })

program
  .command('config')
  .description('configuration')
  .command('check')
  .description('validate the configuration and check what it names (CA file, signing key)')
  .option('--json', 'machine-readable output')
  .action(async (o: { json?: boolean }) => {
    const { configCheck } = await import('./commands/config-check')
    finish(await withRuntime((rt) => configCheck(rt, o.json === true)))
  })

program
  .command('training-host')
  .description('run the training host: an HTTPS stand-in for the offline host, with fault injection')
  .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '8443')
  .option('--aid <aid...>', 'also serve these acquirer ids, with their keys from the keychain')
  .option('--fault <spec...>', 'inject a fault, e.g. payment:delay=2000, *:process-then-drop, reversal:http-503x3')
  .action(async (o: { port: string; aid?: string[]; fault?: string[] }) => {
    const { trainingHostCommand } = await import('./commands/training-host-command')
    finish(await withRuntime((rt) => trainingHostCommand(rt, { port: Number(o.port), aids: o.aid ?? [], faults: o.fault ?? [] })))
  })

program
  .command('serve')
  .description('run the agent without Electron: the cashier UI and local API on 127.0.0.1 (training host included in training mode)')
  .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '7480')
  .option('--renderer <dir>', 'folder of the built cashier UI (default: out/renderer)')
  .option('--nexo', 'also serve the nexo Terminal API over HTTPS (docs/nexo.md)')
  .option('--nexo-port <port>', 'port of the nexo endpoint (default 8443, or the configuration)')
  .option(
    '--training',
    "try the configuration in training mode: its settings (restaurant mode, limits, tips, receipts) with the training host and the simulated PIN pad, in a journal of its own under the data folder's training/ (no OS keychain needed)",
  )
  .action(async (o: { port: string; renderer?: string; nexo?: boolean; nexoPort?: string; training?: boolean }) => {
    const { configFlag, dataDirFlag } = runtimeOptions()
    const [{ needsFirstRunSetup }, { setupCommand, setupConfigFile }, { serveCommand }] = await Promise.all([
      import('../setup'),
      import('./commands/setup-command'),
      import('./commands/serve-command'),
    ])
    if (!o.training && needsFirstRunSetup(setupConfigFile(configFlag, process.env))) {
      // A production terminal not set up yet: the manager gets the setup page, not a refusal to start.
      console.log('This terminal is not set up yet (no host or store settings): opening first-run setup.')
      return finish(await setupCommand({ port: 0, configFlag, dataDirFlag, rendererRoot: o.renderer }))
    }
    finish(
      await withRuntime(
        (rt) =>
          serveCommand(rt, {
            port: Number(o.port),
            rendererRoot: o.renderer,
            nexo: o.nexo,
            nexoPort: o.nexoPort === undefined ? undefined : Number(o.nexoPort),
          }),
        false,
        o.training === true,
      ),
    )
  })

program
  .command('setup')
  .description(
    'first-run setup: a page on 127.0.0.1, opened once from the link it prints, for the host, the store, the signing key and the first manager',
  )
  .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '0')
  .option('--renderer <dir>', 'folder of the built UI (default: out/renderer)')
  .action(async (o: { port: string; renderer?: string }) => {
    const { configFlag, dataDirFlag } = runtimeOptions()
    const { setupCommand } = await import('./commands/setup-command')
    finish(await setupCommand({ port: Number(o.port), configFlag, dataDirFlag, rendererRoot: o.renderer }))
  })

program
  .command('pinpad-sim')
  .description('a simulated NEO 2 PIN pad on a pty pair (socat), for manual testing; type a test card name to present it')
  .requiredOption('--link <path>', 'path of the pty the agent (or a serial tool) opens')
  .option('--card <name>', 'default test card presented after each Activate Transaction')
  .option('--baud-rate <n>', 'line speed', '115200')
  .action(async (o: { link: string; card?: string; baudRate: string }) => {
    const { pinpadSimCommand } = await import('./commands/pinpad-sim-command')
    finish(await pinpadSimCommand({ link: o.link, ...(o.card ? { card: o.card } : {}), baudRate: Number(o.baudRate) }))
  })

program
  .command('doctor')
  .description(
    'check configuration, keychain, card reader, host reachability and TLS, clock, free disk and the queue, and say how to fix what is wrong',
  )
  .option('--json', 'machine-readable output')
  .action(async (o: { json?: boolean }) => {
    const { doctorCommand } = await import('./commands/doctor-command')
    finish(await withRuntime((rt) => doctorCommand(rt, o.json === true), true))
  })

// ---- the store's server (docs/store.md) ----

const store = program.command('store').description("the store's server: the recovery key, and this terminal's store credentials")
store
  .command('keygen')
  .description("make the store's recovery key pair: the private key into FILE (passphrase from standard input), the public key printed")
  .requiredOption('--out <file>', 'where to write the passphrase-protected private key (a new file, e.g. on a USB stick)')
  .action(async (o: { out: string }) => {
    const { storeKeygen } = await import('./commands/store-commands')
    finish(storeKeygen(o.out, await readSecret('passphrase for the recovery key (not echoed): ')))
  })
store
  .command('password')
  .description('read the store server password of store.user from standard input and keep it in the OS keychain')
  .action(async () => {
    const { storeSecretAccount } = await import('../keychain')
    finish(
      await withRuntime(async (rt) => {
        const user = rt.loaded?.config.store?.user
        if (!user) {
          console.error('no store.user in the configuration')
          return EXIT.config
        }
        await rt.secrets.set(storeSecretAccount('password', user), await readSecret(`store server password for ${user} (not echoed): `))
        console.log(`store server password for ${user} stored`)
        return EXIT.ok
      }),
    )
  })
store
  .command('nkey')
  .description("read this terminal's NKey seed (SU...) for store.nkey from standard input and keep it in the OS keychain")
  .action(async () => {
    const { storeSecretAccount } = await import('../keychain')
    finish(
      await withRuntime(async (rt) => {
        const nkey = rt.loaded?.config.store?.nkey
        if (!nkey) {
          console.error('no store.nkey in the configuration')
          return EXIT.config
        }
        const seed = await readSecret('NKey seed (not echoed): ')
        if (!/^SU[A-Z2-7]{56}$/.test(seed)) {
          console.error('this is not a user NKey seed (it starts with SU): nothing was stored')
          return EXIT.usage
        }
        await rt.secrets.set(storeSecretAccount('nkey-seed', nkey), seed)
        console.log('NKey seed stored')
        return EXIT.ok
      }),
    )
  })

program
  .command('rescue')
  .description(
    "send a dead terminal's waiting payments, reversals and credits from the store's copies: fences it first, sends each once, writes a report",
  )
  .requiredOption('--terminal <id>', 'the terminal whose queue to rescue, e.g. T-0003')
  .requiredOption('--recovery-key <file>', "the store's recovery private key (its passphrase is read from standard input)")
  .option('--report-dir <dir>', 'where the report (CSV) goes (default: rescue-reports in the data folder)')
  .option('--json', 'print the report as one JSON line')
  .action(async (o: { terminal: string; recoveryKey: string; reportDir?: string; json?: boolean }) => {
    const [{ copyMaxAgeMs, openHostClient }, { rescueCommand, storeConnectionOf }] = await Promise.all([
      import('../app'),
      import('./commands/store-commands'),
    ])
    finish(
      await withRuntime(async (rt) => {
        const config = rt.loaded?.config
        const connection = config ? await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)) : undefined
        if (!config || !connection) {
          console.error('no store section in the configuration: the rescue needs the store server (docs/store.md)')
          return EXIT.config
        }
        const keyPem = readFileSync(o.recoveryKey, 'utf8')
        const passphrase = await readSecret('passphrase of the recovery key (not echoed): ')
        const host = await openHostClient(rt)
        try {
          const reportDir = o.reportDir ?? join(rt.dataDir, 'rescue-reports')
          return (
            await rescueCommand({
              connection,
              terminalId: o.terminal,
              keyPem,
              passphrase,
              host: host.client,
              reportDir,
              json: o.json === true,
            })
          ).code
        } finally {
          await host.close()
        }
      }),
    )
  })

program
  .command('lift-fence')
  .description(
    "put a rescued terminal back in service: lifts the fence its rescue set, so that once restarted it sends its own queue again (the store's recovery key is needed, as for the rescue)",
  )
  .requiredOption('--terminal <id>', 'the rescued terminal, e.g. T-0003')
  .requiredOption('--recovery-key <file>', "the store's recovery private key (its passphrase is read from standard input)")
  .option('--yes', 'do not ask before lifting it (when no one can answer the question)')
  .action(async (o: { terminal: string; recoveryKey: string; yes?: boolean }) => {
    const [{ auditFromCommandLine, copyMaxAgeMs }, { storeConnectionOf }, { liftFenceCommand }, { askYes }] = await Promise.all([
      import('../app'),
      import('./commands/store-commands'),
      import('./commands/fence-command'),
      import('./commands/io'),
    ])
    finish(
      await withRuntime(async (rt) => {
        const config = rt.loaded?.config
        const connection = config ? await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)) : undefined
        if (!config?.store || !connection) {
          console.error('no store section in the configuration: the fence is kept by the store server (docs/store.md)')
          return EXIT.config
        }
        const keyPem = readFileSync(o.recoveryKey, 'utf8')
        const passphrase = await readSecret('passphrase of the recovery key (not echoed): ')
        return liftFenceCommand({
          connection,
          terminalId: o.terminal,
          recoveryPublicKey: config.store.recoveryPublicKey,
          keyPem,
          passphrase,
          confirm: async (question) => (o.yes === true ? (console.log(question), true) : askYes(question)),
          audit: (entry) => auditFromCommandLine(rt.dataDir, entry),
        })
      }),
    )
  })

program
  .command('fleet')
  .description('every lane of this store (or, through a hub, of these stores) and what needs a person; exits 1 when something does')
  .option('--domain <domain...>', "store servers' JetStream domains, read through the hub this configuration names")
  .option('--json', 'machine-readable output')
  .action(async (o: { domain?: string[]; json?: boolean }) => {
    const [{ copyMaxAgeMs }, { fleetCommand, storeConnectionOf }] = await Promise.all([
      import('../app'),
      import('./commands/store-commands'),
    ])
    finish(
      await withRuntime(async (rt) => {
        const config = rt.loaded?.config
        const connection = config ? await storeConnectionOf(config, rt.secrets, copyMaxAgeMs(config)) : undefined
        if (!config || !connection) {
          console.error('no store section in the configuration (docs/store.md)')
          return EXIT.config
        }
        const connections = o.domain ? o.domain.map((domain) => ({ ...connection, domain })) : [connection]
        return fleetCommand(connections, o.json === true)
      }),
    )
  })

function finish(code: number): void {
  process.exitCode = code
}

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here too, with exit code 0
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage
  } else {
    process.stderr.write(`pos-agent: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = exitCodeOf(error)
  }
}
