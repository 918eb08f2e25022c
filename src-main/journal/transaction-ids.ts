/**
 * merchantTransIDs that never repeat. The host de-duplicates payments by merchantTransID and answers a
 * known id with a different body with B0031 (docs/gateway.md §5, §7); a reversal names its payment by
 * it. An id issued twice either fails a new payment or, worse, lets a recovery reversal reverse an
 * older payment. A durable counter in the journal is not enough: a journal that is rebuilt starts
 * again at 1, and one restored from an older backup (or copied) is behind the ids already issued.
 *
 *   <terminalId>-<epoch>-<sequence>     e.g.  T-0001-7KQ2M001-00000042
 *
 * - sequence: the journal's durable counter, 8 digits.
 * - epoch: 8 characters of Crockford base32 (no I, L, O, U): the installation's id (5, random, made
 *   once) followed by the number of this start of the agent on that installation (3). Both live in the
 *   OS keychain beside the data key (`installIdAccount`), and a new epoch is taken at every start,
 *   before the first sale. Within one start the journal's counter only moves forward (one writer),
 *   and no two starts share an epoch, so no id repeats, whatever file the journal was rebuilt,
 *   restored or copied from. Detecting a restore is not needed, and could not work: a backup taken
 *   while the agent runs carries the same epoch and the same keychain state as the live file.
 * - The journal records every epoch it used (`id_epoch`), and the next one is past both the keychain's
 *   and the journal's, so a keychain restored from an older backup does not hand out an epoch again.
 * - A keychain that lost the entry (reinstalled, or the process-memory store of training mode without
 *   a keychain) draws a new random installation id; its epochs can only meet another installation's
 *   if the 25 random bits match (1 in 33 million), and even then the journal's counter must too. The
 *   same happens after 32 767 starts, when the epoch number would no longer fit.
 *
 * Length (docs/gateway.md §D5: merchantTransID is 1 to 64 bytes): the longest terminalId the
 * configuration allows is 40 ASCII characters, so a sale's id is at most 40 + 1 + 8 + 1 + 8 = 58 bytes,
 * and a follow-up (`-T<n>`, `-V<n>`, `-C<n>`, src-main/txn/queue-items.ts) has room for n up to 9999.
 * Past that a body fails the gateway schema before it is signed and waits for a manager; it is never
 * sent under a shortened id.
 */
import { randomInt } from 'node:crypto'
import type Database from 'better-sqlite3'
import { installIdAccount, keychainInstallHint, SecretStoreUnavailableError, type SecretStore } from '../keychain'
import { runInTransaction } from './database'

const CROCKFORD_BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const INSTALL_ID_CHARS = 5
export const EPOCH_NUMBER_CHARS = 3
const MAX_EPOCH_NUMBER = 32 ** EPOCH_NUMBER_CHARS - 1
export const SEQUENCE_DIGITS = 8
/** The longest id createSale makes: terminalId (40, the configuration's limit), epoch, sequence, dashes. */
export const MAX_SALE_ID_BYTES = 40 + 1 + INSTALL_ID_CHARS + EPOCH_NUMBER_CHARS + 1 + SEQUENCE_DIGITS

const INSTALL_ID = new RegExp(`^[${CROCKFORD_BASE32}]{${INSTALL_ID_CHARS}}$`)

interface KeychainEntry {
  installId: string
  /** The last epoch number handed out on this installation. */
  epoch: number
}

export function merchantTransId(terminalId: string, epoch: string, sequence: number): string {
  return `${terminalId}-${epoch}-${String(sequence).padStart(SEQUENCE_DIGITS, '0')}`
}

/**
 * Takes this start's epoch: recorded in the keychain first (so that it is never handed out again,
 * even if the agent stops before the journal records it), then in the journal. Call once per start,
 * before the first sale.
 */
export async function openIdEpoch(db: Database.Database, store: SecretStore, terminalId: string, now: () => number): Promise<string> {
  const account = installIdAccount(terminalId)
  const known = parseEntry(await store.get(account))
  let installId = known?.installId ?? newInstallId()
  let epoch = Math.max(known?.epoch ?? 0, lastEpochInJournal(db, installId)) + 1
  while (epoch > MAX_EPOCH_NUMBER) {
    installId = newInstallId()
    epoch = lastEpochInJournal(db, installId) + 1
  }
  const entry = JSON.stringify({ installId, epoch } satisfies KeychainEntry)
  await store.set(account, entry)
  // Read back: a keychain that drops writes would hand out this epoch again at the next start.
  if ((await store.get(account)) !== entry) {
    throw new SecretStoreUnavailableError(
      'failed',
      `the OS keychain did not keep the entry "${account}" (merchantTransID epoch)`,
      keychainInstallHint('failed'),
    )
  }
  runInTransaction(db, () => {
    const sequence = db.prepare("SELECT value FROM counter WHERE name = 'merchantTransID'").pluck().get() as number | undefined
    db.prepare('INSERT INTO id_epoch (install_id, epoch, opened_at, first_sequence) VALUES (?, ?, ?, ?)').run(
      installId,
      epoch,
      now(),
      (sequence ?? 0) + 1,
    )
  })
  return `${installId}${base32(epoch, EPOCH_NUMBER_CHARS)}`
}

function lastEpochInJournal(db: Database.Database, installId: string): number {
  return (db.prepare('SELECT max(epoch) FROM id_epoch WHERE install_id = ?').pluck().get(installId) as number | null) ?? 0
}

/** An entry that is not ours (damaged, or from another version) counts as missing: a new installation id. */
function parseEntry(text: string | undefined): KeychainEntry | undefined {
  if (text === undefined) return undefined
  try {
    const value = JSON.parse(text) as Partial<KeychainEntry>
    if (typeof value.installId === 'string' && INSTALL_ID.test(value.installId) && Number.isSafeInteger(value.epoch) && value.epoch! >= 0) {
      return { installId: value.installId, epoch: value.epoch! }
    }
  } catch {
    // falls through
  }
  return undefined
}

function newInstallId(): string {
  return Array.from({ length: INSTALL_ID_CHARS }, () => CROCKFORD_BASE32[randomInt(32)]).join('')
}

function base32(value: number, width: number): string {
  let text = ''
  for (let rest = value; rest > 0; rest = Math.floor(rest / 32)) text = CROCKFORD_BASE32[rest % 32] + text
  return text.padStart(width, '0')
}
