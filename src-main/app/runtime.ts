/**
 * What every command needs before it can act: the configuration (or training defaults), the data
 * folder, a logger and the keychain. Built here once so the CLI, the local API and the Electron
 * shell start the agent the same way.
 */
import { join } from 'node:path'
import { loadConfig, TRAINING_IDENTITY, type LoadedConfig } from './config'
import { userDataDir } from './paths'
import { createLogger, type Logger } from './logger'
import { openSecretStore, type SecretStore } from '../keychain'

export interface RuntimeOptions {
  configFlag?: string | undefined
  dataDirFlag?: string | undefined
  /** Pretty logs on stderr (interactive use). */
  pretty?: boolean
  env?: NodeJS.ProcessEnv
}

export interface Runtime {
  /** undefined in training mode without a configuration file. */
  loaded: LoadedConfig | undefined
  mode: 'production' | 'training'
  dataDir: string
  aid: string
  logger: Logger
  secrets: SecretStore
}

export function resolveDataDir(loaded: LoadedConfig | undefined, flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.POS_AGENT_DATA_DIR ?? loaded?.dataDir ?? userDataDir(env)
}

export async function openRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env
  const loaded = loadConfig({ flag: options.configFlag, env })
  const mode = loaded?.config.mode ?? 'training'
  const dataDir = resolveDataDir(loaded, options.dataDirFlag, env)
  const log = loaded?.config.log
  const logger = createLogger({ level: log?.level ?? 'info', logDir: join(dataDir, 'logs'), maxFileSizeMb: log?.maxFileSizeMb ?? 10, maxFiles: log?.maxFiles ?? 5, pretty: options.pretty ?? false })
  const secrets = await openSecretStore(mode, logger)
  return { loaded, mode, dataDir, aid: loaded?.config.host.aid ?? TRAINING_IDENTITY.aid, logger, secrets }
}
