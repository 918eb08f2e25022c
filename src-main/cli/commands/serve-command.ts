/**
 * `pos-agent serve`: the whole agent without Electron. The cashier UI and the local API on 127.0.0.1;
 * in training mode (no configuration) the embedded training host and the simulated PIN pad start with it.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startLocalServer } from '../../api'
import { defaultReaderFactory, startAgent, startNexoEndpoint, type Runtime } from '../../app'
import { builtRendererDir } from '../../config'
import { MemorySecretStore } from '../../keychain'
import { EXIT } from '../exit-codes'
import { SERVING_URL_FILE } from './open-command'

export interface ServeFlags {
  port: number
  rendererRoot?: string | undefined
  /** Serve the nexo endpoint too, whatever the configuration says (docs/nexo.md). */
  nexo?: boolean | undefined
  nexoPort?: number | undefined
}

export async function serveCommand(runtime: Runtime, flags: ServeFlags): Promise<number> {
  const agent = await startAgent(runtime, defaultReaderFactory)
  const { file } = agent.apiToken
  const server = await startLocalServer({
    port: flags.port,
    ...socketActivation(process.env),
    rendererRoot: flags.rendererRoot ?? builtRendererDir(),
    service: agent.service,
    tokens: agent.tokenCheck,
    health: () => ({ ok: true, mode: runtime.mode, alarms: agent.engine.alarms.length }),
  })
  const nexo = flags.nexo || agent.config.nexo.enabled ? await startNexoEndpoint(runtime, agent, { port: flags.nexoPort }) : undefined
  if (runtime.mode === 'training')
    console.log(
      `TRAINING MODE: training host at ${agent.connection.endpoint.offlineBaseUrl} and a simulated PIN pad; no real card is charged`,
    )
  if (runtime.tried)
    console.log(
      `trying the settings of ${runtime.tried.file} in training (restaurant mode ${agent.config.restaurantMode ? 'on' : 'off'}), in a journal of its own in ${runtime.dataDir}; its host is never called`,
    )
  if (runtime.secrets instanceof MemorySecretStore) {
    console.log(
      `TRAINING MODE WITHOUT AN OS KEYCHAIN: keys live in process memory only (${runtime.secrets.unavailable?.message ?? 'no keychain'})`,
    )
  }
  for (const alarm of agent.engine.alarms) console.log(`ALARM ${alarm.code}: ${alarm.message}`)
  // Where `pos-agent open` asks for a new window's link while this runs (the owner's file, like the token's).
  const servingFile = join(runtime.dataDir, SERVING_URL_FILE)
  writeFileSync(servingFile, `${server.url}\n`, { mode: 0o600 })
  // The link opens the cashier window once (launch-sessions.ts); the API token is in its file.
  console.log(`pos-agent serving the cashier UI at ${server.launchUrl()}`)
  console.log(`local API token in ${file} (docs/local-api.md)`)
  if (nexo) console.log(`nexo Terminal API at ${nexo.url} (X-API-Key: the local API token; CA ${nexo.caFile}; docs/nexo.md)`)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  rmSync(servingFile, { force: true })
  await nexo?.close()
  await server.close()
  await agent.close()
  return EXIT.ok
}

/**
 * systemd socket activation (sd_listen_fds(3)): when the service manager passed exactly one listening
 * socket to this process, the local API serves on it (fd 3) instead of binding its port itself.
 */
export function socketActivation(env: NodeJS.ProcessEnv, pid = process.pid): { listenFd?: number } {
  return env.LISTEN_FDS === '1' && env.LISTEN_PID === String(pid) ? { listenFd: 3 } : {}
}
