/** The configuration file as setup reads and writes it: whole or not at all, readable by this user only. */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { mkdirSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { configSchema } from '../config'

/** The file's JSON object; an empty one when it is missing or unreadable. */
export function readConfigObject(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {}
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** A production configuration the agent would start with: replacing it needs a manager. */
export function isCompleteProduction(file: string): boolean {
  const parsed = configSchema.safeParse(readConfigObject(file))
  return parsed.success && parsed.data.mode === 'production'
}

/**
 * A configuration file that asks for production but has no host or no store yet: the terminal is not
 * set up, and `serve` opens the setup page instead of refusing. A file with every section but a bad
 * value is not this: the agent names the bad field, as for any configuration.
 */
export function needsFirstRunSetup(file: string | undefined): boolean {
  if (file === undefined || !existsSync(file)) return false
  const raw = readConfigObject(file)
  if (raw.mode === 'training') return false
  return raw.host === undefined || raw.merchant === undefined
}

/** Written beside the file, flushed, then renamed over it: a crash leaves the old file or the new one. */
export function writeConfigFile(file: string, config: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.tmp`)
  const fd = openSync(temporary, 'wx', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(config, null, 2)}\n`)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(temporary, { force: true })
    throw error
  }
  closeSync(fd)
  renameSync(temporary, file)
}
