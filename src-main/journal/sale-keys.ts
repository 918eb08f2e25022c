/**
 * Crypto-shredding of a sale's card data. PCI DSS v4.0.1 Requirement 3.3.1 wants sensitive
 * authentication data unrecoverable once authorisation completes (docs/card-reader.md §5). Deleting a
 * row is not enough: SQLite leaves its bytes in free space and in older WAL frames, and the data key
 * that sealed them lives on in the keychain. So each sale gets a key of its own (32 random bytes): its
 * card data and its queued bodies are sealed under it (envelope version 2, sealed-fields.ts), and the
 * key itself is stored wrapped by the data key (AAD `sale_key:<sale id>:key`) in a `sale_key` row.
 * Purging the sale destroys that row (overwritten, then deleted), so every copy of its envelopes left
 * anywhere on disk can no longer be opened, with the data key or without. database.ts turns on
 * secure_delete (deleted content zeroed in the file) and checkpointer.ts truncates the WAL after
 * purges, so the wrapped key itself does not linger either.
 *
 * A key lives as long as something of its sale is sealed under it: it is destroyed when the card data
 * is purged, and when the last queued body of the sale is acknowledged or withdrawn. Bodies still owed
 * to the host when the card data is purged (a tip queued behind a stored payment) are sealed again
 * under a fresh key in the same transaction, so the purge never waits for them.
 *
 * Rows sealed before sales had keys (version 1, under the data key) still open and purge; a row
 * depending on a data key the keychain no longer holds is left alone with its key, as the data key's
 * own rules say (nothing encrypted is ever deleted for want of a key).
 */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto'
import type Database from 'better-sqlite3'
import { outboxBodyAad } from './outbox-store'
import { envelopeVersion, FieldSealer, SealedFieldError, sealedFieldAad, SEALED_ENVELOPE_VERSION, wipe } from './sealed-fields'

const SALE_KEY_BYTES = 32

/** Rows of the sale that depend on the key of data key `key_id`: while any exists, the key stays. */
const UNUSED_KEY = `sale_id = @sale AND NOT EXISTS (SELECT 1 FROM sealed_card c WHERE c.sale_id = @sale AND c.key_id = sale_key.key_id)
  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.sale_id = @sale AND o.key_id = sale_key.key_id AND o.body IS NOT NULL)`

export class SaleKeys {
  /** The data key's id: recorded with every sealed row, it says which keychain key the row needs. */
  readonly dataKeyId: string
  private readonly sql

  /** `onErase` is told whenever sealed data was deleted or a key destroyed (the WAL should be truncated). */
  constructor(
    db: Database.Database,
    private readonly dataKey: FieldSealer,
    private readonly now: () => number,
    private readonly onErase: () => void = () => undefined,
  ) {
    this.dataKeyId = dataKey.keyId
    this.sql = {
      get: db.prepare('SELECT wrapped FROM sale_key WHERE sale_id = ? AND key_id = ?').pluck(),
      insert: db.prepare('INSERT INTO sale_key (sale_id, key_id, wrapped, created_at) VALUES (?, ?, ?, ?)'),
      // Overwritten before it is deleted: the same-size update rewrites the bytes where they lie, so
      // the key is gone from the page even if a build ignored secure_delete.
      overwrite: db.prepare('UPDATE sale_key SET wrapped = zeroblob(length(wrapped)) WHERE sale_id = ? AND key_id = ?'),
      delete: db.prepare('DELETE FROM sale_key WHERE sale_id = ? AND key_id = ?'),
      unused: db.prepare(`SELECT key_id FROM sale_key WHERE ${UNUSED_KEY}`).pluck(),
      owedBodies: db.prepare(
        'SELECT seq, operation, message_id AS messageId, body FROM outbox WHERE sale_id = ? AND key_id = ? AND body IS NOT NULL',
      ),
      reseal: db.prepare('UPDATE outbox SET body = ? WHERE seq = ?'),
    }
  }

  /** Seals under the sale's key, made (and stored wrapped) when the sale has none under this data key. */
  seal(saleId: string, aad: string, plaintext: Buffer | string): Buffer {
    const key = this.unwrap(saleId) ?? this.create(saleId)
    return this.dataKey.sealUnder(key, aad, plaintext)
  }

  /** The plaintext (the caller wipes it), or SealedFieldError; `keyDestroyed` once the sale was purged. */
  open(saleId: string, aad: string, envelope: Buffer): Buffer {
    if (envelopeVersion(envelope) === SEALED_ENVELOPE_VERSION) return this.dataKey.open(aad, envelope)
    const wrappedBy = FieldSealer.keyIdOf(envelope)
    if (wrappedBy !== this.dataKeyId) {
      throw new SealedFieldError(
        'wrongKey',
        `the sealed field ${aad} needs data key ${wrappedBy} to unwrap its sale's key, the keychain holds ${this.dataKeyId}`,
      )
    }
    const key = this.unwrap(saleId)
    if (key === undefined)
      throw new SealedFieldError(
        'keyDestroyed',
        `the key of sale ${saleId} was destroyed: its card data was purged, or nothing of it was left sealed`,
      )
    return this.dataKey.openUnder(key, aad, envelope)
  }

  /**
   * The purge: the sale's key under this data key is destroyed. Bodies still owed to the host that
   * depended on it (or on the data key alone, sealed before sales had keys) are sealed again under a
   * fresh key first; a body that does not open any more stays as it is, unreadable as it already was.
   * Runs inside the caller's transaction, after the card data rows were deleted.
   */
  shred(saleId: string): void {
    const owed = this.sql.owedBodies.all(saleId, this.dataKeyId) as Array<{
      seq: number
      operation: string
      messageId: string
      body: Buffer
    }>
    const kept: Array<{ seq: number; aad: string; plain: Buffer }> = []
    try {
      for (const row of owed) {
        const aad = outboxBodyAad(saleId, row.operation, row.messageId)
        try {
          kept.push({ seq: row.seq, aad, plain: this.open(saleId, aad, row.body) })
        } catch (error) {
          if (!(error instanceof SealedFieldError)) throw error
        }
      }
      this.destroy(saleId, this.dataKeyId)
      for (const { seq, aad, plain } of kept) this.sql.reseal.run(this.seal(saleId, aad, plain), seq)
    } finally {
      wipe(...kept.map((k) => k.plain))
    }
    this.retire(saleId)
  }

  /** Destroys the sale's keys that nothing sealed depends on any more (after an acknowledgement or withdrawal). */
  retire(saleId: string): void {
    for (const keyId of this.sql.unused.all({ sale: saleId }) as string[]) this.destroy(saleId, keyId)
    this.onErase()
  }

  private destroy(saleId: string, keyId: string): void {
    this.sql.overwrite.run(saleId, keyId)
    this.sql.delete.run(saleId, keyId)
  }

  private unwrap(saleId: string): KeyObject | undefined {
    const wrapped = this.sql.get.get(saleId, this.dataKeyId) as Buffer | undefined
    if (wrapped === undefined) return undefined
    const raw = this.dataKey.open(saleKeyAad(saleId), wrapped)
    try {
      return createSecretKey(raw)
    } finally {
      wipe(raw)
    }
  }

  private create(saleId: string): KeyObject {
    const raw = randomBytes(SALE_KEY_BYTES)
    try {
      this.sql.insert.run(saleId, this.dataKeyId, this.dataKey.seal(saleKeyAad(saleId), raw), this.now())
      // createSecretKey copies the key into a KeyObject, so the raw bytes can be wiped at once.
      return createSecretKey(raw)
    } finally {
      wipe(raw)
    }
  }
}

/** The wrapped key's AAD binds it to its sale: copied into another sale's row it does not open. */
export function saleKeyAad(saleId: string): string {
  return sealedFieldAad('sale_key', saleId, 'key')
}
