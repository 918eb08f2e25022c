/**
 * Integrator tokens a manager creates, lists and revokes from the cashier screen (Settings), one per
 * POS or integration, so that one can be cut off without touching the others, each doing only what
 * its scopes say (src-shared/contract/access.ts). Only a SHA-256 of each token is kept, in
 * `<dataDir>/integrator-tokens.json` (0600, written whole to a temporary file and renamed, so a crash
 * never leaves half a file); the token itself is shown once, when it is created. The installation
 * token (`api-token`, made at first start, readable only by the machine's owner) stays valid beside
 * them, with every scope. A token made before scopes existed keeps what a POS could do then (read,
 * sell, refund), never the terminal's keys, tokens or operators.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES, type IntegratorTokenView, type TokenScope } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'

export const INTEGRATOR_TOKENS_FILE = 'integrator-tokens.json'

const storedSchema = z.object({
  tokens: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      createdAt: z.number(),
      revokedAt: z.number().optional(),
      lastUsedAt: z.number().optional(),
      scopes: z.array(z.enum(TOKEN_SCOPES)).optional(),
    }),
  ),
})
type StoredToken = z.infer<typeof storedSchema>['tokens'][number]

/** How often a token's "last used" time is written back (it is kept in memory in between). */
const LAST_USED_WRITE_MS = 60_000

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest()

/** What a token made before scopes existed may do: what a POS could do then, less the terminal's own keys and people. */
const SCOPES_BEFORE_SCOPES: readonly TokenScope[] = ['read', 'sell', 'refund']

/** A token in force, as a door passes it on: never the token itself. */
export interface VerifiedToken {
  id: string
  name: string
  scopes: readonly TokenScope[]
}

export class IntegratorTokens {
  private tokens: StoredToken[]
  private readonly file: string
  private readonly revokeListeners = new Set<(id: string) => void>()

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(dataDir, INTEGRATOR_TOKENS_FILE)
    this.tokens = existsSync(this.file) ? storedSchema.parse(JSON.parse(readFileSync(this.file, 'utf8'))).tokens : []
  }

  /** A new token: returned in full this once, kept only as its hash. */
  create(name: string, scopes: readonly TokenScope[] = DEFAULT_TOKEN_SCOPES): { token: string; view: IntegratorTokenView } {
    const trimmed = name.trim()
    if (trimmed.length === 0) throw new PosError('INVALID_REQUEST', 'a token needs a name, e.g. the POS it is for')
    if (this.tokens.some((t) => t.revokedAt === undefined && t.name === trimmed))
      throw new PosError('INVALID_REQUEST', `a token named "${trimmed}" exists already: revoke it first, or choose another name`)
    const token = `pat_${randomBytes(32).toString('base64url')}`
    const stored: StoredToken = {
      id: randomUUID(),
      name: trimmed,
      hash: sha256(token).toString('hex'),
      createdAt: this.now(),
      scopes: TOKEN_SCOPES.filter((scope) => scopes.includes(scope)),
    }
    this.tokens.push(stored)
    this.save()
    return { token, view: viewOf(stored) }
  }

  list(): IntegratorTokenView[] {
    return this.tokens.map(viewOf).sort((a, b) => b.createdAt - a.createdAt)
  }

  revoke(id: string): IntegratorTokenView {
    const stored = this.tokens.find((t) => t.id === id)
    if (!stored) throw new PosError('NOT_FOUND', 'there is no integrator token with this id')
    const first = stored.revokedAt === undefined
    stored.revokedAt ??= this.now()
    this.save()
    if (first) for (const listener of this.revokeListeners) listener(stored.id)
    return viewOf(stored)
  }

  /** Tells `listener` each token revoked (what the token opened ends with it). */
  onRevoke(listener: (id: string) => void): () => void {
    this.revokeListeners.add(listener)
    return () => this.revokeListeners.delete(listener)
  }

  /** Whether token `id` is still in force. */
  active(id: string): boolean {
    return this.tokens.some((t) => t.id === id && t.revokedAt === undefined)
  }

  /** The token in force that `given` is, if any; notes when it was last used. */
  verify(given: string): VerifiedToken | undefined {
    const hash = sha256(given)
    const match = this.tokens.find((t) => t.revokedAt === undefined && timingSafeEqual(Buffer.from(t.hash, 'hex'), hash))
    if (!match) return undefined
    const now = this.now()
    const previous = match.lastUsedAt
    match.lastUsedAt = now
    if (previous === undefined || now - previous >= LAST_USED_WRITE_MS) this.save()
    return { id: match.id, name: match.name, scopes: scopesOf(match) }
  }

  private save(): void {
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 })
    const temporary = `${this.file}.tmp`
    writeFileSync(temporary, `${JSON.stringify({ tokens: this.tokens }, null, 2)}\n`, { mode: 0o600 })
    chmodSync(temporary, 0o600)
    renameSync(temporary, this.file)
  }
}

function scopesOf(stored: StoredToken): TokenScope[] {
  return [...(stored.scopes ?? SCOPES_BEFORE_SCOPES)]
}

function viewOf(stored: StoredToken): IntegratorTokenView {
  return {
    id: stored.id,
    name: stored.name,
    createdAt: stored.createdAt,
    scopes: scopesOf(stored),
    ...(stored.lastUsedAt !== undefined ? { lastUsedAt: stored.lastUsedAt } : {}),
    ...(stored.revokedAt !== undefined ? { revokedAt: stored.revokedAt } : {}),
  }
}
