/**
 * What every command needs before it can act: the configuration (or training defaults), the data
 * folder, a logger and the keychain. Built here once so the CLI, the local API and the Electron
 * shell start the agent the same way.
 */
import { join } from 'node:path'
import {
  loadConfig,
  loadTriedConfig,
  MissingConfigurationError,
  preparePrivateFolder,
  TRAINING_IDENTITY,
  userDataDir,
  type ConfigError,
  type LoadedConfig,
} from '../config'
import { createLogger, type Logger } from '../log'
import { JOURNAL_FILE, probeJournal } from '../journal'
import { openSecretStore, type SecretStore } from '../keychain'
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'

export interface RuntimeOptions {
  /** The agent's clock (src-shared/clock.ts): the computer's unless a test sets the time. */
  clock?: Clock
  configFlag?: string | undefined
  dataDirFlag?: string | undefined
  /** Pretty logs on stderr (interactive use). */
  pretty?: boolean
  env?: NodeJS.ProcessEnv
  /**
   * Describe what is wrong instead of refusing to start (the doctor): a missing keychain yields a
   * process-memory stand-in carrying the reason, a missing configuration over a production journal
   * is reported in `refusal`.
   */
  report?: boolean
  /**
   * Try the configuration in training mode (`serve --training`): its settings with the embedded
   * training host and the simulated PIN pad, in a journal of its own, keys in process memory when
   * there is no OS keychain. Nothing reaches the configured host.
   */
  tryInTraining?: boolean
}

export interface Runtime {
  /** undefined in training mode without a configuration file. */
  loaded: LoadedConfig | undefined
  mode: 'production' | 'training'
  dataDir: string
  aid: string
  logger: Logger
  secrets: SecretStore
  /** The one clock the agent and the commands read the time of day from. */
  clock: Clock
  /** Only with `report`: why this runtime would have refused to start. */
  refusal?: ConfigError
  /** With `tryInTraining`: the configuration file's settings, tried against the training host. */
  tried?: { file: string; settings: Record<string, unknown> }
}

export function resolveDataDir(loaded: LoadedConfig | undefined, flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.POS_AGENT_DATA_DIR ?? loaded?.dataDir ?? userDataDir(env)
}

function checkTrainingMayStart(dataDir: string): void {
  const summary = probeJournal(join(dataDir, JOURNAL_FILE), TRAINING_IDENTITY.terminalId)
  if (summary?.foreignSaleId !== undefined) throw new MissingConfigurationError(dataDir, summary.foreignSaleId, summary.waitingItems)
}

export async function openRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env
  // Tried in training, the configuration gives its settings but not its host, key or journal (it
  // needs none of them: only what it tries).
  const triedConfig = options.tryInTraining ? loadTriedConfig({ flag: options.configFlag, env }) : undefined
  const tried = triedConfig ? { file: triedConfig.file, settings: triedConfig.settings } : undefined
  const loaded = triedConfig ? undefined : loadConfig({ flag: options.configFlag, env })
  const mode = loaded?.config.mode ?? 'training'
  const dataDir = triedConfig
    ? join(options.dataDirFlag ?? env.POS_AGENT_DATA_DIR ?? triedConfig.dataDir, 'training')
    : resolveDataDir(loaded, options.dataDirFlag, env)
  let refusal: ConfigError | undefined
  if (loaded === undefined) {
    try {
      checkTrainingMayStart(dataDir)
    } catch (error) {
      if (!(error instanceof MissingConfigurationError) || !options.report) throw error
      refusal = error
    }
  }
  const log = loaded?.config.log
  preparePrivateFolder(dataDir)
  const logger = createLogger({
    level: log?.level ?? 'info',
    logDir: join(dataDir, 'logs'),
    maxFileSizeMb: log?.maxFileSizeMb ?? 10,
    maxFiles: log?.maxFiles ?? 5,
    pretty: options.pretty ?? false,
  })
  const secrets = await openSecretStore(mode, logger, options.report ?? false)
  return {
    loaded,
    mode,
    dataDir,
    aid: loaded?.config.host.aid ?? TRAINING_IDENTITY.aid,
    logger,
    secrets,
    clock: options.clock ?? SYSTEM_CLOCK,
    ...(refusal ? { refusal } : {}),
    ...(tried ? { tried } : {}),
  }
}
