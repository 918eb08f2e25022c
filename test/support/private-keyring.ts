/**
 * The chaos checker and the no-loss report run against the real Secret Service: started outside one,
 * each runs itself again inside a private D-Bus session with its own unlocked gnome-keyring and a
 * throw-away HOME, so it never touches the user's keychain, and removes that HOME when it ends.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0

/**
 * True when this process was started again inside a private keyring (the caller exits with the
 * child's code then, and must do nothing else); false when it is inside one already, or the machine
 * has no dbus-run-session or gnome-keyring-daemon (the caller runs on, and says what is missing).
 */
export function rerunInPrivateKeyring(name: string): boolean {
  if (process.env.POS_AGENT_CHAOS_KEYRING || !has('dbus-run-session') || !has('gnome-keyring-daemon')) return false
  const work = mkdtempSync(join(tmpdir(), `pos-${name}-keyring-`))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(work, 'home'),
    KEYRING_PASSWORD: `pos-agent-${name}`,
    POS_AGENT_CHAOS_KEYRING: '1',
  }
  delete env.XDG_DATA_HOME
  delete env.XDG_CONFIG_HOME
  const child = spawn(
    'dbus-run-session',
    [
      '--',
      'sh',
      '-c',
      'mkdir -p "$HOME" && printf %s "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"',
      'sh',
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env },
  )
  const stop = (signal: NodeJS.Signals): void => void child.kill(signal)
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  child.on('exit', (code, signal) => {
    rmSync(work, { recursive: true, force: true })
    process.exit(code ?? (signal ? 1 : 0))
  })
  return true
}
