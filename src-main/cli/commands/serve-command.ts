/**
 * `pos-agent serve`: the whole agent without Electron. The cashier UI and the local API on 127.0.0.1;
 * in training mode (no configuration) the embedded training host and the simulated PIN pad start with it.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FILES_KEPT, startLocalServer, type ServerLimits } from '../../api'
import { defaultReaderFactory, keychainStandIn, startAgent, startNexoEndpoint, startZvtEndpoint, type Runtime } from '../../app'
import { builtRendererDir } from '../../config'
import { EXIT } from '../exit-codes'
import { SERVING_URL_FILE } from './open-command'

export interface ServeFlags {
  port: number
  rendererRoot?: string | undefined
  /** Serve the nexo endpoint too, whatever the configuration says (docs/nexo.md). */
  nexo?: boolean | undefined
  nexoPort?: number | undefined
  /** Serve the ZVT terminal side too, whatever the configuration says (docs/zvt.md). */
  zvt?: boolean | undefined
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
  const zvt = flags.zvt || agent.config.zvt.enabled ? await startZvtEndpoint(runtime, agent) : undefined
  if (runtime.mode === 'training')
    console.log(
      `TRAINING MODE: training host at ${agent.connection.endpoint.offlineBaseUrl} and a simulated PIN pad; no real card is charged`,
    )
  if (runtime.tried)
    console.log(
      `trying the settings of ${runtime.tried.file} in training (restaurant mode ${agent.config.restaurantMode ? 'on' : 'off'}), in a journal of its own in ${runtime.dataDir}; its host is never called`,
    )
  const standIn = keychainStandIn(runtime.secrets)
  if (standIn !== undefined) console.log(`TRAINING MODE WITHOUT AN OS KEYCHAIN: keys live in process memory only (${standIn})`)
  for (const alarm of agent.engine.alarms) console.log(`ALARM ${alarm.code}: ${alarm.message}`)
  // Where `pos-agent open` asks for a new window's link while this runs (the owner's file, like the token's).
  const servingFile = join(runtime.dataDir, SERVING_URL_FILE)
  writeFileSync(servingFile, `${server.url}\n`, { mode: 0o600 })
  // The link opens the cashier window once (launch-sessions.ts); the API token is in its file.
  console.log(`pos-agent serving the cashier UI at ${server.launchUrl()}`)
  console.log(`local API token in ${file} (docs/local-api.md)`)
  console.log(connectionsLine(server.limits, server.fileLimit))
  if (nexo) console.log(nexoServedLine(nexo.url, nexo.caFile))
  if (zvt)
    console.log(
      `ZVT terminal side on ${zvt.host}:${zvt.port}${zvt.serialPath ? ` and ${zvt.serialPath}` : ''} for cash registers (docs/zvt.md)` +
        (zvt.newPassword ? `; its ZVT password, made now and kept in the OS keychain: ${zvt.newPassword} (enter it in the register)` : ''),
    )
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  rmSync(servingFile, { force: true })
  await nexo?.close()
  await zvt?.close()
  await server.close()
  await agent.close()
  return EXIT.ok
}

/**
 * What `serve` tells the manager about the nexo endpoint: the key a POS sends is a token of its own,
 * with only the scopes it needs, never the installation token (an admin's, shared by every POS: one
 * could stop another's payments, and whoever captured it could refund). docs/nexo.md says the same.
 */
export function nexoServedLine(url: string, caFile: string): string {
  return (
    `nexo Terminal API at ${url} (X-API-Key: a token made for each POS, with the "read" and "sell" scopes, and "refund" ` +
    `only where it refunds: Settings, Integrator tokens, or createToken; never the installation token; CA ${caFile}; docs/nexo.md)`
  )
}

/**
 * systemd socket activation (sd_listen_fds(3)): when the service manager passed exactly one listening
 * socket to this process, the local API serves on it (fd 3) instead of binding its port itself.
 */
export function socketActivation(env: NodeJS.ProcessEnv, pid = process.pid): { listenFd?: number } {
  return env.LISTEN_FDS === '1' && env.LISTEN_PID === String(pid) ? { listenFd: 3 } : {}
}

/** What `serve` says of its connection cap, and why it is what it is (docs/local-api.md "Limits"). */
export function connectionsLine(limits: ServerLimits, fileLimit: number | undefined): string {
  const cap = `connections: at most ${limits.maxConnections} at once, the last ${limits.reservedConnections} kept for the cashier window and POSes with a token`
  if (fileLimit === undefined) return `${cap} (the system gave no limit on open files)`
  if (limits.maxConnections < 64)
    return `${cap}: this process may open only ${fileLimit} files; raise its limit (LimitNOFILE= in the service unit, or ulimit -n) to ${FILES_KEPT * 2 + 4096} or more`
  return `${cap} (this process may open ${fileLimit} files: the cap stays below, with room for the agent's own files and nexo)`
}
