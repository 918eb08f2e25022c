/**
 * The version of the `nats-server` installed on this machine (`nats-server --version`), for
 * `pos-agent store server-config`: the file it writes holds `sync_interval: always` only for a
 * server that reads it (2.10 or later; 2.9 refuses the field and does not start). Undefined when no
 * `nats-server` is on the path, or it does not say.
 */
import { spawnSync } from 'node:child_process'

export function installedServerVersion(command = 'nats-server'): string | undefined {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 5_000 })
  if (run.error || run.status !== 0) return undefined
  // "nats-server: v2.9.10"
  return /v?(\d+\.\d+\.\d+[^\s]*)/.exec(`${run.stdout} ${run.stderr}`)?.[1]
}
