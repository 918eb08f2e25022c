/**
 * `pos-agent setup`: the first-run setup page on 127.0.0.1, behind a one-time link printed here. It
 * works without a configuration, or with an incomplete one the agent would refuse.
 */
import { join, resolve } from 'node:path'
import { checkHost, checkReader, checkSignature, composeFirstRunSetup, productionKeychain, resolveDataDir, type Finding } from '../../app'
import { builtRendererDir, loadConfig, preparePrivateFolder, userConfigDir, type AgentConfig, type LoadedConfig } from '../../config'
import { createLogger } from '../../log'
import { startSetupServer } from '../../setup'
import { EXIT } from '../exit-codes'

export interface SetupFlags {
  port: number
  configFlag?: string | undefined
  dataDirFlag?: string | undefined
  rendererRoot?: string | undefined
  env?: NodeJS.ProcessEnv
}

/** The file `locateConfig` would read, whether it exists yet or not. */
export function setupConfigFile(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag) return resolve(flag)
  if (env.POS_AGENT_CONFIG) return resolve(env.POS_AGENT_CONFIG)
  return join(userConfigDir(env), 'config.json')
}

export async function setupCommand(flags: SetupFlags): Promise<number> {
  const env = flags.env ?? process.env
  const configFile = setupConfigFile(flags.configFlag, env)
  let loaded: LoadedConfig | undefined
  try {
    loaded = loadConfig({ flag: configFile, env })
  } catch {
    loaded = undefined // missing or incomplete: this is what setup is for
  }
  const dataDir = resolveDataDir(loaded, flags.dataDirFlag, env)
  preparePrivateFolder(dataDir)
  const logger = createLogger({ level: 'info', logDir: join(dataDir, 'logs') })
  const secrets = await productionKeychain(logger)
  const { setup, close } = await composeFirstRunSetup({
    dataDir,
    configFile,
    secrets,
    reopenSecrets: () => productionKeychain(logger),
    logger,
    checks: runChecks,
    startCommand: ['pos-agent', ...(flags.configFlag ? ['--config', configFile] : []), 'serve'].join(' '),
  })
  const server = await startSetupServer({
    port: flags.port,
    rendererRoot: flags.rendererRoot ?? builtRendererDir(),
    setup,
  })
  if (secrets.kind !== 'os-keychain')
    console.log('WARNING: this computer has no working OS keychain; setup cannot store the signing key until it has one')
  console.log(`setup page (open once, on this computer): ${server.launchUrl()}`)
  console.log(`the configuration will be written to ${configFile}; stop setup with Ctrl+C`)
  await new Promise<void>((done) => {
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  await server.close()
  await close()
  await new Promise<void>((done) => logger.flush(() => done()))
  return EXIT.ok
}

async function runChecks(config: AgentConfig, signingKey: string): Promise<Finding[]> {
  const findings: Finding[] = []
  const add = (level: Finding['level'], area: string, text: string, fix?: string) =>
    findings.push({ level, area, text, ...(fix ? { fix } : {}) })
  if (await checkHost(config, add)) await checkSignature(config, signingKey, add)
  await checkReader(config, add)
  add(
    config.printer ? 'ok' : 'warn',
    'receipt printer',
    config.printer ? 'a receipt printer is set up' : 'no receipt printer is set up: receipts print from the screen',
    'to print on a receipt printer, add it to the configuration (see the printer settings in the README)',
  )
  return findings
}
