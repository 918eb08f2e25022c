/**
 * The commands that run or check this terminal: `config check`, `training-host`, `serve`, `setup`,
 * `pinpad-sim`, `doctor`, `audit verify`, `open` and `operators unlock`.
 */
import type { CliContext } from './context'

export function addAgentCommands({ program, runtimeOptions, withRuntime, finish }: CliContext): void {
  program
    .command('config')
    .description('configuration')
    .command('check')
    .description('validate the configuration and check what it names (CA file, signing key)')
    .option('--json', 'machine-readable output')
    .action(async (o: { json?: boolean }) => {
      const { configCheck } = await import('../commands/config-check')
      finish(await withRuntime((rt) => configCheck(rt, o.json === true)))
    })

  program
    .command('training-host')
    .description('run the training host: an HTTPS stand-in for the offline host, with fault injection')
    .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '8443')
    .option('--aid <aid...>', 'also serve these acquirer ids, with their keys from the keychain')
    .option('--fault <spec...>', 'inject a fault, e.g. payment:delay=2000, *:process-then-drop, reversal:http-503x3')
    .action(async (o: { port: string; aid?: string[]; fault?: string[] }) => {
      const { trainingHostCommand } = await import('../commands/training-host-command')
      finish(await withRuntime((rt) => trainingHostCommand(rt, { port: Number(o.port), aids: o.aid ?? [], faults: o.fault ?? [] })))
    })

  program
    .command('serve')
    .description('run the agent without Electron: the cashier UI and local API on 127.0.0.1 (training host included in training mode)')
    .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '7480')
    .option('--renderer <dir>', 'folder of the built cashier UI (default: out/renderer)')
    .option('--nexo', 'also serve the nexo Terminal API over HTTPS (docs/nexo.md)')
    .option('--nexo-port <port>', 'port of the nexo endpoint (default 8443, or the configuration)')
    .option('--zvt', "also serve ZVT to the store's cash registers over TCP (docs/zvt.md)")
    .option(
      '--training',
      "try the configuration in training mode: its settings (restaurant mode, limits, tips, receipts) with the training host and the simulated PIN pad, in a journal of its own under the data folder's training/ (no OS keychain needed)",
    )
    .option(
      '--force-migration <number>',
      "a manager forces a journal update that cannot be undone while payments are owed (asks the manager's PIN; audited)",
    )
    .action(async (o: { port: string; renderer?: string; nexo?: boolean; nexoPort?: string; zvt?: boolean; training?: boolean }) => {
      const { configFlag, dataDirFlag } = runtimeOptions()
      const [{ needsFirstRunSetup }, { setupCommand, setupConfigFile }, { serveCommand }] = await Promise.all([
        import('../../setup'),
        import('../commands/setup-command'),
        import('../commands/serve-command'),
      ])
      const { forceMigrationIfAsked } = await import('../commands/force-migration-command')
      if (!o.training && needsFirstRunSetup(setupConfigFile(configFlag, process.env))) {
        // A production terminal not set up yet: the manager gets the setup page, not a refusal to start.
        console.log('This terminal is not set up yet (no host or store settings): opening first-run setup.')
        return finish(await setupCommand({ port: 0, configFlag, dataDirFlag, rendererRoot: o.renderer }))
      }
      finish(
        await withRuntime(
          async (rt) =>
            (await forceMigrationIfAsked(rt, (o as { forceMigration?: string }).forceMigration)) ??
            serveCommand(rt, {
              port: Number(o.port),
              rendererRoot: o.renderer,
              nexo: o.nexo,
              nexoPort: o.nexoPort === undefined ? undefined : Number(o.nexoPort),
              zvt: o.zvt,
            }),
          false,
          o.training === true,
        ),
      )
    })

  program
    .command('open')
    .description('a one-time link to a new cashier window (or, with --customer, a customer display) of the agent serving on this computer')
    .option('--customer', 'a customer display instead of a cashier window')
    .option('--training', 'the agent trying a configuration in training (`serve --training`)')
    .action(async (o: { customer?: boolean; training?: boolean }) => {
      const { openCommand } = await import('../commands/open-command')
      finish(await withRuntime((rt) => openCommand(rt, o.customer ? 'customer' : 'cashier'), false, o.training === true))
    })

  program
    .command('operators')
    .description("the terminal's operators")
    .command('unlock <number>')
    .description("let an operator locked after wrong PINs sign in again, keeping the PIN (the machine's owner; audited)")
    .option('--training', 'the operators of the configuration tried in training (`serve --training`)')
    .action(async (number: string, o: { training?: boolean }) => {
      const { operatorsUnlock } = await import('../commands/operators-command')
      finish(await withRuntime((rt) => operatorsUnlock(rt, number), false, o.training === true))
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
      const { setupCommand } = await import('../commands/setup-command')
      finish(await setupCommand({ port: Number(o.port), configFlag, dataDirFlag, rendererRoot: o.renderer }))
    })

  program
    .command('pinpad-sim')
    .description('a simulated NEO 2 PIN pad on a pty pair (socat), for manual testing; type a test card name to present it')
    .requiredOption('--link <path>', 'path of the pty the agent (or a serial tool) opens')
    .option('--card <name>', 'default test card presented after each Activate Transaction')
    .option('--baud-rate <n>', 'line speed', '115200')
    .action(async (o: { link: string; card?: string; baudRate: string }) => {
      const { pinpadSimCommand } = await import('../commands/pinpad-sim-command')
      finish(await pinpadSimCommand({ link: o.link, ...(o.card ? { card: o.card } : {}), baudRate: Number(o.baudRate) }))
    })

  program
    .command('doctor')
    .description(
      'check configuration, keychain, card reader, host reachability and TLS, clock, free disk and the queue, and say how to fix what is wrong',
    )
    .option('--json', 'machine-readable output')
    .action(async (o: { json?: boolean }) => {
      const { doctorCommand } = await import('../commands/doctor-command')
      finish(await withRuntime((rt) => doctorCommand(rt, o.json === true), true))
    })

  program
    .command('audit')
    .description("this terminal's audit trail")
    .command('verify')
    .description(
      'check that the audit trail proves itself (every record sealed and in order, its last record the head kept in the keychain) and say where it breaks; exit 6 when it does',
    )
    .option('--head <seq:check...>', 'also hold it against a head printed on a Z-report, e.g. 1234:3F9A2B1C')
    .option('--json', 'machine-readable output')
    .action(async (o: { head?: string[]; json?: boolean }) => {
      const { auditVerifyCommand } = await import('../commands/audit-command')
      finish(await withRuntime((rt) => auditVerifyCommand(rt, { json: o.json === true, heads: o.head ?? [] }), true))
    })
}
