/**
 * The root of the command table: the `pos-agent` command with its global flags, and what every
 * command's runner shares: the runtime opened from those flags and always released, and the exit
 * code a runner leaves (README "Exit codes").
 */
import { Command } from 'commander'
import type { Runtime, RuntimeOptions } from '../../app'

export interface CliContext {
  program: Command
  /** The global flags as the runtime takes them. */
  runtimeOptions(): RuntimeOptions
  /**
   * Runs a command body with the runtime open, and always releases what it holds. `report` (the
   * doctor) opens it even where starting would be refused, so the refusal can be described.
   */
  withRuntime(body: (runtime: Runtime) => Promise<number>, report?: boolean, tryInTraining?: boolean): Promise<number>
  /** The command's exit code (the process ends on its own once everything is released). */
  finish(code: number): void
}

export function cliContext(): CliContext {
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

  async function withRuntime(body: (runtime: Runtime) => Promise<number>, report = false, tryInTraining = false): Promise<number> {
    const { openRuntime } = await import('../../app')
    const runtime = await openRuntime({ ...runtimeOptions(), report, tryInTraining })
    try {
      return await body(runtime)
    } finally {
      await new Promise<void>((resolve) => runtime.logger.flush(() => resolve()))
    }
  }

  return {
    program,
    runtimeOptions,
    withRuntime,
    finish(code) {
      process.exitCode = code
    },
  }
}
