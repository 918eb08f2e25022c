/**
 * `pos-agent serve`: run the agent without Electron and serve the cashier UI on 127.0.0.1. In training
 * mode (no configuration) the embedded training host starts with it.
 */
import { join } from 'node:path'
import { startLocalServer } from '../../api/local-server'
import { EXIT } from '../errors'
import { openHostClient } from '../host-connection'
import type { Runtime } from '../runtime'

export async function serveCommand(runtime: Runtime, flags: { port: number; rendererRoot?: string | undefined }): Promise<number> {
  const connection = await openHostClient(runtime)
  const rendererRoot = flags.rendererRoot ?? join(import.meta.dirname, '../../../out/renderer')
  const server = await startLocalServer({
    port: flags.port,
    rendererRoot,
    health: () => ({ ok: true, mode: runtime.mode, host: connection.endpoint.offlineBaseUrl }),
  })
  if (runtime.mode === 'training') console.log(`TRAINING MODE: training host at ${connection.endpoint.offlineBaseUrl}; no real card is charged`)
  console.log(`pos-agent serving the cashier UI at ${server.url}`)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await server.close()
  await connection.close()
  return EXIT.ok
}
