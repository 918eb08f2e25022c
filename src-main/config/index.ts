/** The configuration domain's door: the file, its schema and where it is found, per-user folders, its errors. */
export {
  configSchema,
  loadConfig,
  loadTriedConfig,
  locateConfig,
  parseConfig,
  trainingConfig,
  TRAINING_IDENTITY,
  type AgentConfig,
  type ConfigLocation,
  type LoadedConfig,
} from './config'
export { ConfigError, MissingConfigurationError } from './config-error'
export { builtRendererDir, installDir, packageVersion, preparePrivateFolder, userConfigDir, userDataDir } from './paths'
