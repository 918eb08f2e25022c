/**
 * What the audit trail keeps outside its journal file, in the keychain like the journal's data key
 * (sealed-fields.ts): the key its records are sealed under (32 random bytes, made at first use), and
 * the head it last reached (the last record's number and seal), so that a trail cut short or
 * rewritten in the file no longer matches what the keychain kept. Both entries are per journal file
 * (`journalTag`): the keychain entries `audit-key/<tag>` and `audit-head/<tag>`. Training mode without an OS keychain keeps them in process memory, like its other
 * keys, and says so: its trail can then be proven only for the run that wrote it.
 *
 * The head is written after each record is committed, never before, and never backwards: a write
 * already on its way is not waited for, only the newest head is written once it has landed, so a
 * burst of records costs one keychain write or two, and no caller ever waits on one.
 */
import { createHash, createSecretKey, randomBytes } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { auditHeadAccount, auditKeyAccount, keychainInstallHint, SecretStoreUnavailableError, type SecretStore } from '../keychain'
import type Database from 'better-sqlite3'
import type { AuditHead, ChainKey } from './audit-chain'
import { AuditStore } from './audit-store'
import { wipe } from './sealed-fields'

const AUDIT_KEY_BYTES = 32

/** The journal file's name in keychain entries: 12 hex digits of the SHA-256 of its full path. */
export function journalTag(file: string): string {
  const folder = dirname(resolve(file))
  const real = existsSync(folder) ? join(realpathSync(folder), basename(file)) : resolve(file)
  return createHash('sha256').update(real).digest('hex').slice(0, 12)
}

export interface OpenedAuditKey {
  key: ChainKey
  /** Made now: the keychain held none for this journal. */
  created: boolean
}

/** The trail's key from the keychain, made (and read back) when there is none. */
export async function openAuditKey(store: SecretStore, file: string): Promise<OpenedAuditKey> {
  const account = auditKeyAccount(journalTag(file))
  let encoded = await store.get(account)
  let created = false
  const raw = encoded === undefined ? undefined : Buffer.from(encoded, 'base64')
  if (encoded === undefined || raw?.length !== AUDIT_KEY_BYTES) {
    // An entry that is not a key of ours counts as missing: the trail then says what it can no longer prove.
    const fresh = randomBytes(AUDIT_KEY_BYTES)
    encoded = fresh.toString('base64')
    wipe(fresh)
    await store.set(account, encoded)
    // Read back: a keychain that drops writes would leave a trail no later run can prove.
    if ((await store.get(account)) !== encoded)
      throw new SecretStoreUnavailableError(
        'failed',
        `the OS keychain did not keep the entry "${account}" (the audit trail's key)`,
        keychainInstallHint('failed'),
      )
    created = true
  }
  const bytes = Buffer.from(encoded, 'base64')
  try {
    return {
      key: { key: createSecretKey(bytes), keyId: createHash('sha256').update(bytes).digest('hex').slice(0, 8) },
      created,
    }
  } finally {
    wipe(bytes, raw)
  }
}

/** A key that lives as long as the process: a journal opened without a keychain to hand (unit harnesses). */
export function ephemeralAuditKey(): ChainKey {
  const bytes = randomBytes(AUDIT_KEY_BYTES)
  try {
    return { key: createSecretKey(bytes), keyId: createHash('sha256').update(bytes).digest('hex').slice(0, 8) }
  } finally {
    wipe(bytes)
  }
}

/** The head kept in the keychain for a journal, if any (the command line's `audit verify` reads it). */
export async function readAuditHead(store: SecretStore, file: string): Promise<AuditHead | undefined> {
  return parseHead(await store.get(auditHeadAccount(journalTag(file))))
}

/** The trail's key as the command line needs it: only when the keychain already holds one (never made here). */
export async function readAuditKey(store: SecretStore, file: string): Promise<ChainKey | undefined> {
  const encoded = await store.get(auditKeyAccount(journalTag(file)))
  if (encoded === undefined) return undefined
  const bytes = Buffer.from(encoded, 'base64')
  try {
    if (bytes.length !== AUDIT_KEY_BYTES) return undefined
    return { key: createSecretKey(bytes), keyId: createHash('sha256').update(bytes).digest('hex').slice(0, 8) }
  } finally {
    wipe(bytes)
  }
}

function parseHead(text: string | undefined): AuditHead | undefined {
  if (text === undefined) return undefined
  try {
    const head = JSON.parse(text) as Partial<AuditHead>
    if (Number.isSafeInteger(head.seq) && head.seq! > 0 && typeof head.mac === 'string' && /^[0-9a-f]{64}$/.test(head.mac))
      return { seq: head.seq!, mac: head.mac }
  } catch {
    // falls through: an entry that is not ours is no head
  }
  return undefined
}

/**
 * The head outside the file: read once at start, then moved forward with each record written. `head`
 * is the furthest one known, in the keychain or on its way there.
 */
export class AuditAnchor {
  private furthest: AuditHead | undefined
  private writing = false
  private queued: AuditHead | undefined
  private landed: Promise<void> = Promise.resolve()

  private constructor(
    private readonly store: SecretStore,
    private readonly account: string,
    kept: AuditHead | undefined,
    private readonly onError: (error: unknown) => void,
  ) {
    this.furthest = kept
  }

  static async open(store: SecretStore, file: string, onError: (error: unknown) => void): Promise<AuditAnchor> {
    const account = auditHeadAccount(journalTag(file))
    return new AuditAnchor(store, account, parseHead(await store.get(account)), onError)
  }

  get head(): AuditHead | undefined {
    return this.furthest
  }

  /** A record was committed: its head goes to the keychain (only ever forward). */
  note(head: AuditHead): void {
    // A head behind the kept one is a trail cut short or rewritten under the agent: it stays as kept,
    // for the check to find.
    if (this.furthest !== undefined && head.seq <= this.furthest.seq) return
    this.furthest = head
    this.queued = head
    if (!this.writing) this.landed = this.drain()
  }

  /** Waits until the newest head is in the keychain (the agent's close). */
  async flush(): Promise<void> {
    await this.landed
  }

  private async drain(): Promise<void> {
    this.writing = true
    try {
      while (this.queued !== undefined) {
        const head = this.queued
        this.queued = undefined
        try {
          await this.store.set(this.account, JSON.stringify(head))
        } catch (error) {
          this.onError(error)
        }
      }
    } finally {
      this.writing = false
    }
  }
}

/**
 * The trail of a journal file, sealed and anchored: its key from the keychain (made at first use),
 * the key's part of the trail started when it has none (AuditStore.seal: once for records kept before
 * the trail had a key, with a record saying so), and each new head sent to the keychain. The agent,
 * first-run setup and the command line's own records all write the trail through here.
 */
export async function anchorAuditTrail(
  store: AuditStore,
  opened: OpenedAuditKey,
  secrets: SecretStore,
  file: string,
  onError: (error: unknown) => void,
): Promise<AuditAnchor> {
  const anchor = await AuditAnchor.open(secrets, file, onError)
  const keptIn = secrets.kind === 'os-keychain' ? 'the keychain' : 'this run of the agent'
  store.holdAgainst(() => (anchor.head ? { ...anchor.head, keptIn } : undefined), secrets.kind === 'process-memory')
  store.onHead((head) => anchor.note(head))
  store.seal({ firstKey: opened.created, keptInMemory: secrets.kind === 'process-memory' })
  return anchor
}

/** A trail for a short-lived writer (setup, a command): the store and its anchor, to flush before the process ends. */
export async function openAuditTrail(
  db: Database.Database,
  secrets: SecretStore,
  file: string,
  onError: (error: unknown) => void = () => undefined,
): Promise<{ store: AuditStore; anchor: AuditAnchor }> {
  const opened = await openAuditKey(secrets, file)
  const store = new AuditStore(db, opened.key)
  return { store, anchor: await anchorAuditTrail(store, opened, secrets, file, onError) }
}
