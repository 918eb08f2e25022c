/**
 * The queue of a data folder's journal as the doctor reports it, read-only and without starting the
 * agent (journal/journal-probe.ts): undefined when there is no journal yet.
 */
import { join } from 'node:path'
import { JOURNAL_FILE, probeQueue, type QueueSummary } from '../journal'

export function queueOfDataFolder(dataDir: string): QueueSummary | undefined {
  return probeQueue(join(dataDir, JOURNAL_FILE))
}
