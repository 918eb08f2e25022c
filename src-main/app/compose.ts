/**
 * The composition root: builds the transaction engine from plain settings and ports. The CLI, the
 * local server and the Electron shell all start the agent through here; tests pass other ports
 * (a scripted reader, a training host) rather than branching inside production code.
 */
import { join } from 'node:path'
import type { Logger } from 'pino'
import type { CardReader } from '../device'
import type { HostClient } from '../gateway'
import {
  anchorAuditTrail,
  checkIntegrityAside,
  countSealedRows,
  DataKeyMissingError,
  FieldSealer,
  FULL_CHECK_AT_OPEN_MAX_BYTES,
  fullCheckPending,
  isJournalDamaged,
  JOURNAL_FILE,
  JournalError,
  JOURNAL_MIGRATIONS,
  JournalCheckpointer,
  JournalStore,
  markJournalDamaged,
  openIdEpoch,
  openAuditKey,
  openJournalDatabase,
  type AuditVerdict,
} from '../journal'
import { dataKeyAccount, MemorySecretStore, type SecretStore } from '../keychain'
import { DEFAULT_RETRY_POLICY, Forwarder, HostReach, TxnService, type RetryPolicy, type TxnSettings } from '../txn'
import type { QueueReplica } from '../store'
import { agreeing, counted } from '../../src-shared/counted'
import { JournalWatch, type JournalWatchOptions } from './journal-watch'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

export interface EnginePorts {
  reader: CardReader
  host: HostClient
  secrets: SecretStore
  logger: Logger
  now?: () => Date
  /** The store's server (docs/store.md): the queue's copies, the fence read at start, its alarms. */
  store?: EngineStore | undefined
}

/** What the engine takes from the store's server, when the configuration names one. */
export interface EngineStore {
  replica: QueueReplica
  /** Set once a rescue fenced this terminal: its queue is never forwarded from here (plain words why). */
  fenced(): string | undefined
  alarms(): EngineAlarm[]
  /** The store copy's class for the status panel: its words (durability.ts `copyPanelWords`) and whether it is synced. */
  copyView?: (() => { words: string; synced: boolean }) | undefined
  /** Tells `listener` when `copyView` changes. */
  onCopyViewChange?: ((listener: () => void) => () => void) | undefined
}

export interface EngineSettings extends TxnSettings {
  dataDir: string
  retry?: RetryPolicy
  forwarderConcurrency?: number
  /** A larger journal is checked whole aside, after start (journal-integrity.ts); 64 MiB when unset. */
  journalFullCheckAtOpenMaxBytes?: number
  /** When the audit trail and the journal file are checked at idle (journal-watch.ts); a minute's quiet, hourly, unless set. */
  journalWatch?: JournalWatchOptions
  /**
   * Training without an OS keychain: the data key lives in process memory, so every restart loses it
   * by design. Practice rows sealed under the last one stay (unreadable); nothing is stopped for it.
   */
  keysDieWithProcess?: boolean
}

/** A condition a manager must see: shown on the status panel, the local API and `doctor`. */
export interface EngineAlarm {
  code:
    | 'DATA_KEY_MISSING'
    | 'QUEUE_RESCUED'
    | 'QUEUE_COPY_MISSING'
    | 'STORE_NOT_ENROLLED'
    | 'STORE_COPY_BUFFERED'
    | 'JOURNAL_DAMAGED'
    | 'AUDIT_BROKEN'
  message: string
}

export interface Engine {
  alarms: EngineAlarm[]
  journal: JournalStore
  txn: TxnService
  forwarder: Forwarder
  /** Settles once the audit trail's check at start has run: its alarm, if any, is raised by then. */
  checkedAtStart: Promise<void>
  /** Tells `listener` of each alarm raised after start (the ones at start are in `alarms` already). */
  onAlarm(listener: (alarm: EngineAlarm) => void): () => void
  /** How safe the store's copies are, for the status panel; undefined without a store. */
  storeCopy(): { words: string; synced: boolean } | undefined
  /** Tells `listener` when `storeCopy()` changes; a no-op without a store. */
  onStoreCopy(listener: () => void): () => void
  close(): Promise<void>
}

export { JOURNAL_FILE } from '../journal'

/** A manager's words for a journal the full check found damaged. */
export const JOURNAL_DAMAGED_WORDS =
  'The sales record on this terminal is damaged. It takes no more payments, so nothing more is lost. Do not delete it: call support to restore it.'

/** A manager's words for an audit trail that no longer proves itself (journal/audit-chain.ts says where). */
export function auditBrokenWords(verdict: AuditVerdict): string {
  const first = verdict.problems[0]?.words ?? 'it does not prove itself'
  const more = verdict.problems.length > 1 ? ` (and ${counted(verdict.problems.length - 1, 'other problem')})` : ''
  return `The record of who did what on this terminal (its audit trail) was altered: ${first}${more}. Payments go on. Do not change anything on this computer: call support.`
}

/**
 * The data key. A new one is made only for a journal that holds nothing sealed (a fresh key could
 * never open old rows). When it is missing while sealed rows exist, the agent keeps those rows
 * untouched, raises an alarm, stops offline payments, and seals new sales' card data under a key that
 * lives only as long as this process (their data is purged at authorization anyway).
 */
async function openSealer(
  db: Parameters<typeof countSealedRows>[0],
  settings: EngineSettings,
  ports: EnginePorts,
): Promise<{ sealer: FieldSealer; alarms: EngineAlarm[]; offlineAllowed: boolean }> {
  const sealedRows = countSealedRows(db)
  try {
    return {
      sealer: await FieldSealer.open(ports.secrets, settings.merchant.terminalId, { create: sealedRows === 0 }),
      alarms: [],
      offlineAllowed: true,
    }
  } catch (error) {
    if (!(error instanceof DataKeyMissingError)) throw error
    if (settings.keysDieWithProcess) {
      // No keychain to restore the key from, ever: an alarm nobody can clear and offline payments off
      // for good would end offline practice on this terminal. The old practice rows are kept as they are.
      ports.logger.warn(
        { sealedRows },
        `training without an OS keychain: ${counted(sealedRows, 'practice row')} sealed before the last restart can no longer be read; offline practice goes on with a new key`,
      )
      return {
        sealer: await FieldSealer.open(ports.secrets, settings.merchant.terminalId, { create: true }),
        alarms: [],
        offlineAllowed: true,
      }
    }
    const message = `the journal's data key is missing from the keychain while ${counted(sealedRows, 'encrypted row')} ${agreeing(sealedRows, 'waits', 'wait')} for it: offline payments are stopped and those rows are kept; restore the keychain entry "${dataKeyAccount(settings.merchant.terminalId)}" and restart`
    ports.logger.error({ sealedRows }, message)
    const sealer = await FieldSealer.open(new MemorySecretStore(), settings.merchant.terminalId, { create: true })
    return { sealer, alarms: [{ code: 'DATA_KEY_MISSING', message }], offlineAllowed: false }
  }
}

export async function composeEngine(settings: EngineSettings, ports: EnginePorts): Promise<Engine> {
  const file = join(settings.dataDir, JOURNAL_FILE)
  const db = openJournalDatabase(file, {
    migrations: JOURNAL_MIGRATIONS,
    fullCheckAtOpenMaxBytes: settings.journalFullCheckAtOpenMaxBytes ?? FULL_CHECK_AT_OPEN_MAX_BYTES,
  })
  const checkpointer = new JournalCheckpointer(db, file, {
    backfillAside: true,
    onBackfillError: (error) => ports.logger.warn({ error }, 'the journal could not be copied back aside; the idle checkpoints go on'),
  })
  // A large journal's full check runs beside the counter from the start; what it finds stops the journal.
  const integrity = fullCheckPending(db) ? checkIntegrityAside(file) : undefined
  const watching: { watch?: JournalWatch } = {}
  try {
    const { sealer, alarms, offlineAllowed } = await openSealer(db, settings, ports)
    // A fenced terminal's queue belongs to the rescue: nothing new is stored for it to send.
    const store = ports.store
    if (!offlineAllowed || store?.fenced() !== undefined) settings = { ...settings, offline: { ...settings.offline, enabled: false } }
    const now = ports.now ?? (() => new Date(SYSTEM_CLOCK.now()))
    // The keychain itself, not the stand-in a missing data key falls back to: the epoch must outlive this process.
    const idEpoch = await openIdEpoch(db, ports.secrets, settings.merchant.terminalId, () => now().getTime())
    // The audit trail's key and the head kept outside the file (journal/audit-seal.ts), in the keychain itself.
    const auditKey = await openAuditKey(ports.secrets, file)
    const journal = new JournalStore(db, sealer, {
      idEpoch,
      now: () => now().getTime(),
      onErase: () => checkpointer.noteErase(),
      auditKey: auditKey.key,
      onReferenceIndexMiss: () => {
        ports.logger.error('a sale was found by its reference only through the second index: the reference index is damaged')
        watching.watch?.checkJournalSoon()
      },
    })
    const anchor = await anchorAuditTrail(journal.audit, auditKey, ports.secrets, file, (error) =>
      ports.logger.warn({ err: error }, "the audit trail's head could not be kept in the keychain; the next record tries again"),
    )
    const wakeForwarder = { wake: (): void => undefined }
    // The sales' own answers from the bank count as much as the queue's for "is the bank reached".
    const reach = new HostReach()
    const txn = new TxnService({
      journal,
      reader: ports.reader,
      host: reach.watch(ports.host),
      settings,
      logger: ports.logger,
      now,
      onEnqueued: () => wakeForwarder.wake(),
      replica: ports.store?.replica,
    })
    const forwarder = new Forwarder({
      journal,
      host: ports.host,
      sales: txn,
      retry: settings.retry ?? DEFAULT_RETRY_POLICY,
      logger: ports.logger,
      now: () => now().getTime(),
      concurrency: settings.forwarderConcurrency ?? 16,
      reach,
      ...(store ? { halted: () => store.fenced() } : {}),
    })
    wakeForwarder.wake = () => forwarder.wake()
    // A sale that reaches the bank ends the queue's wait for its next probe of an outage.
    reach.onReached(() => forwarder.bankAnswered())
    const alarmListeners = new Set<(alarm: EngineAlarm) => void>()
    const raise = (alarm: EngineAlarm): void => {
      const at = alarms.findIndex((a) => a.code === alarm.code)
      if (at >= 0 && alarms[at]!.message === alarm.message) return
      if (at >= 0) alarms.splice(at, 1)
      alarms.push(alarm)
      alarmListeners.forEach((listener) => listener(alarm))
    }
    const journalChecked = (error: unknown): void => {
      if (!(error instanceof JournalError)) {
        // The check could not run (no verdict on the file): said in the log, the journal goes on.
        ports.logger.error({ err: error }, 'the journal integrity check could not run')
        return
      }
      markJournalDamaged(db, error)
      raise({ code: 'JOURNAL_DAMAGED', message: JOURNAL_DAMAGED_WORDS })
      ports.logger.error({ err: error }, 'the journal failed its integrity check: it takes no more writes')
      void forwarder.stop()
      void checkpointer.stopBackfill()
    }
    integrity?.done.catch(journalChecked)
    const watch = new JournalWatch(
      {
        audit: async () => {
          const verdict = await journal.audit.verifyAside()
          if (verdict.unprovable) ports.logger.warn(verdict.unprovable.words)
          if (verdict.intact) {
            const at = alarms.findIndex((a) => a.code === 'AUDIT_BROKEN')
            if (at >= 0) alarms.splice(at, 1)
            return
          }
          ports.logger.error({ problems: verdict.problems }, 'the audit trail does not prove itself')
          raise({ code: 'AUDIT_BROKEN', message: auditBrokenWords(verdict) })
        },
        journal: () => {
          // Only a journal still taking writes: one found damaged stays as it stands.
          if (db.open && !isJournalDamaged(db)) {
            const check = checkIntegrityAside(file, { indexes: true })
            return { done: check.done.catch(journalChecked), cancel: () => check.cancel() }
          }
          return { done: Promise.resolve(), cancel: async () => undefined }
        },
      },
      (error) => ports.logger.error({ err: error }, 'a check of the journal could not run'),
      settings.journalWatch,
    )
    watching.watch = watch
    txn.on('update', () => {
      checkpointer.noteActivity()
      watch.noteActivity()
    })
    forwarder.on('status', () => {
      checkpointer.noteActivity()
      watch.noteActivity()
    })
    const recovered = await txn.recover()
    if (recovered > 0) ports.logger.warn({ recovered }, 'settled sales that were in flight when the agent stopped')
    forwarder.start()
    return {
      get alarms() {
        return store ? [...alarms, ...store.alarms()] : alarms
      },
      journal,
      txn,
      forwarder,
      checkedAtStart: watch.checkedAtStart,
      onAlarm: (listener) => {
        alarmListeners.add(listener)
        return () => alarmListeners.delete(listener)
      },
      storeCopy: () => store?.copyView?.(),
      onStoreCopy: (listener) => store?.onCopyViewChange?.(listener) ?? (() => undefined),
      close: async () => {
        await integrity?.cancel()
        await watch.close()
        await forwarder.stop()
        await checkpointer.close()
        await anchor.flush()
        db.close()
      },
    }
  } catch (error) {
    await integrity?.cancel()
    await watching.watch?.close()
    await checkpointer.close()
    db.close()
    throw error
  }
}
