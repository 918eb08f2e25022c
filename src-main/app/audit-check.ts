/**
 * The audit trail of this data folder's journal, checked from outside the agent (`pos-agent audit
 * verify`, the doctor): its key and the head kept in the keychain (read first, so that a record the
 * running agent adds meanwhile is never taken for one missing), then the file, read-only. A head from
 * a printed Z-report can be added. Nothing is written, nothing made: a keychain without the trail's
 * key is reported, never given a new one.
 */
import { join } from 'node:path'
import { JOURNAL_FILE, probeAuditTrail, readAuditHead, readAuditKey, type AuditAnchorHead, type AuditVerdict } from '../journal'
import type { SecretStore } from '../keychain'

export type AuditFileCheck =
  | { state: 'noTrail' }
  | { state: 'noKeychain' }
  | { state: 'notSealed'; records: number }
  | { state: 'keyMissing'; records: number }
  | { state: 'checked'; verdict: AuditVerdict }

/** A head as a Z-report prints it, `1234:3F9A2B1C` (record number, check value); undefined when it is not one. */
/** A head as a Z-report printed it (`audit verify --head`). */
export type PrintedHead = AuditAnchorHead

export function parsePrintedHead(text: string): AuditAnchorHead | undefined {
  const match = /^(\d{1,15}):([0-9a-fA-F]{8,64})$/.exec(text.trim())
  return match ? { seq: Number(match[1]), mac: match[2]!.toLowerCase(), keptIn: 'the Z-report' } : undefined
}

export async function checkAuditFile(
  secrets: SecretStore,
  dataDir: string,
  printed: readonly AuditAnchorHead[] = [],
): Promise<AuditFileCheck> {
  const file = join(dataDir, JOURNAL_FILE)
  // Without an OS keychain the key lived inside the agent's process only: nothing here can check it.
  if (secrets.kind !== 'os-keychain') return probeAuditTrail(file, undefined, []) ? { state: 'noKeychain' } : { state: 'noTrail' }
  const kept = await readAuditHead(secrets, file)
  const key = await readAuditKey(secrets, file)
  const anchors = [...(kept ? [{ ...kept, keptIn: 'the keychain' }] : []), ...printed]
  const found = probeAuditTrail(file, key, anchors)
  if (found === undefined) return { state: 'noTrail' }
  if (found.verdict) return { state: 'checked', verdict: found.verdict }
  return found.sealed || kept ? { state: 'keyMissing', records: found.records } : { state: 'notSealed', records: found.records }
}
