/**
 * Integrator tokens a manager creates, lists and revokes from the cashier screen (Settings), one per
 * POS or integration, so that one can be cut off without touching the others. Only a SHA-256 of each
 * token is kept, in `<dataDir>/integrator-tokens.json` (0600, written whole to a temporary file and
 * renamed, so a crash never leaves half a file); the token itself is shown once, when it is created.
 * The installation token (`api-token`, made at first start) stays valid beside them.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { IntegratorTokenView } from '../../src-shared/contract'
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
    }),
  ),
})
type StoredToken = z.infer<typeof storedSchema>['tokens'][number]

/** How often a token's "last used" time is written back (it is kept in memory in between). */
const LAST_USED_WRITE_MS = 60_000

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest()

export class IntegratorTokens {
  private tokens: StoredToken[]
  private readonly file: string

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(dataDir, INTEGRATOR_TOKENS_FILE)
    this.tokens = existsSync(this.file) ? storedSchema.parse(JSON.parse(readFileSync(this.file, 'utf8'))).tokens : []
  }

  /** A new token: returned in full this once, kept only as its hash. */
  create(name: string): { token: string; view: IntegratorTokenView } {
    const trimmed = name.trim()
    if (trimmed.length === 0) throw new PosError('INVALID_REQUEST', 'a token needs a name, e.g. the POS it is for')
    if (this.tokens.some((t) => t.revokedAt === undefined && t.name === trimmed))
      throw new PosError('INVALID_REQUEST', `a token named "${trimmed}" exists already: revoke it first, or choose another name`)
    const token = `pat_${randomBytes(32).toString('base64url')}`
    const stored: StoredToken = { id: randomUUID(), name: trimmed, hash: sha256(token).toString('hex'), createdAt: this.now() }
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
    stored.revokedAt ??= this.now()
    this.save()
    return viewOf(stored)
  }

  /** Whether `given` is a token in force; notes when it was last used. */
  verify(given: string): boolean {
    const hash = sha256(given)
    const match = this.tokens.find((t) => t.revokedAt === undefined && timingSafeEqual(Buffer.from(t.hash, 'hex'), hash))
    if (!match) return false
    const now = this.now()
    const previous = match.lastUsedAt
    match.lastUsedAt = now
    if (previous === undefined || now - previous >= LAST_USED_WRITE_MS) this.save()
    return true
  }

  private save(): void {
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 })
    const temporary = `${this.file}.tmp`
    writeFileSync(temporary, `${JSON.stringify({ tokens: this.tokens }, null, 2)}\n`, { mode: 0o600 })
    chmodSync(temporary, 0o600)
    renameSync(temporary, this.file)
  }
}

function viewOf(stored: StoredToken): IntegratorTokenView {
  return {
    id: stored.id,
    name: stored.name,
    createdAt: stored.createdAt,
    ...(stored.lastUsedAt !== undefined ? { lastUsedAt: stored.lastUsedAt } : {}),
    ...(stored.revokedAt !== undefined ? { revokedAt: stored.revokedAt } : {}),
  }
}
