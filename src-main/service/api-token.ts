/** The local API's bearer token: random, kept in the data folder with 0600 permissions, reused across runs. */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const API_TOKEN_FILE = 'api-token'

export function loadOrCreateApiToken(dataDir: string): { token: string; file: string } {
  const file = join(dataDir, API_TOKEN_FILE)
  if (existsSync(file)) {
    chmodSync(file, 0o600)
    const token = readFileSync(file, 'utf8').trim()
    if (/^[A-Za-z0-9_-]{32,}$/.test(token)) return { token, file }
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const token = randomBytes(32).toString('base64url')
  writeFileSync(file, `${token}\n`, { mode: 0o600 })
  return { token, file }
}
