/**
 * Per-user folders, following each platform's convention (XDG on Linux, Application Support on
 * macOS, APPDATA on Windows). Plain values: no Electron `app.getPath`, so the CLI and tests share them.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

const APP = 'pos-agent'

export function userConfigDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP)
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP)
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP)
}

export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), APP, 'data')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP, 'data')
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), APP)
}

/**
 * Makes `folder` (and its parents) if missing, and leaves it readable by its owner only (0700): the
 * data folder holds the journal, the tokens and the logs, which no other account of the machine has
 * any business reading. A folder that exists already with wider rights is narrowed.
 */
export function preparePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  // Windows has no POSIX modes; there the folder inherits the user profile's access list.
  if (process.platform !== 'win32') chmodSync(folder, 0o700)
}

/**
 * The folder pos-agent is installed in (the one holding its package.json), found from this file's
 * place: in the sources (src-main/config) and in the built bundle (out/main, out/main/chunks) alike,
 * so the built UI (`out/renderer`) and the version are found however the agent was started.
 */
export function installDir(from: string = import.meta.dirname): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder
    if (dirname(folder) === folder) throw new Error(`no package.json above ${from}: pos-agent is not installed as a package`)
  }
}

/** The built cashier UI (`npm run build`). */
export function builtRendererDir(): string {
  return join(installDir(), 'out', 'renderer')
}

/** The agent's version, from its package.json (nexo's POISoftware and the store's heartbeat report it). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(installDir(), 'package.json'), 'utf8')) as { version?: string }).version ?? '0'
  } catch {
    return '0'
  }
}
