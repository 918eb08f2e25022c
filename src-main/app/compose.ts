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
  checkIntegrityAside,
  countSealedRows,
  DataKeyMissingError,
  FieldSealer,
  FULL_CHECK_AT_OPEN_MAX_BYTES,
  fullCheckPending,
  JOURNAL_FILE,
  JournalError,
  JOURNAL_MIGRATIONS,
  JournalCheckpointer,
  JournalStore,
  markJournalDamaged,
  openIdEpoch,
  openJournalDatabase,
} from '../journal'
import { dataKeyAccount, MemorySecretStore, type SecretStore } from '../keychain'
import { DEFAULT_RETRY_POLICY, Forwarder, HostReach, TxnService, type RetryPolicy, type TxnSettings } from '../txn'
import type { QueueReplica } from '../store'
import { agreeing, counted } from '../../src-shared/counted'

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
}

export interface EngineSettings extends TxnSettings {
  dataDir: string
  retry?: RetryPolicy
  forwarderConcurrency?: number
  /** A larger journal is checked whole aside, after start (journal-integrity.ts); 64 MiB when unset. */
  journalFullCheckAtOpenMaxBytes?: number
  /**
   * Training without an OS keychain: the data key lives in process memory, so every restart loses it
   * by design. Practice rows sealed under the last one stay (unreadable); nothing is stopped for it.
   */
  keysDieWithProcess?: boolean
}

/** A condition a manager must see: shown on the status panel, the local API and `doctor`. */
export interface EngineAlarm {
  code: 'DATA_KEY_MISSING' | 'QUEUE_RESCUED' | 'QUEUE_COPY_MISSING' | 'JOURNAL_DAMAGED'
  message: string
}

export interface Engine {
  alarms: EngineAlarm[]
  journal: JournalStore
  txn: TxnService
  forwarder: Forwarder
  close(): Promise<void>
}

export { JOURNAL_FILE } from '../journal'

/** A manager's words for a journal the full check found damaged. */
export const JOURNAL_DAMAGED_WORDS =
  'The sales record on this terminal is damaged. It takes no more payments, so nothing more is lost. Do not delete it: call support to restore it.'

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
  try {
    const { sealer, alarms, offlineAllowed } = await openSealer(db, settings, ports)
    // A fenced terminal's queue belongs to the rescue: nothing new is stored for it to send.
    const store = ports.store
    if (!offlineAllowed || store?.fenced() !== undefined) settings = { ...settings, offline: { ...settings.offline, enabled: false } }
    const now = ports.now ?? (() => new Date())
    // The keychain itself, not the stand-in a missing data key falls back to: the epoch must outlive this process.
    const idEpoch = await openIdEpoch(db, ports.secrets, settings.merchant.terminalId, () => now().getTime())
    const journal = new JournalStore(db, sealer, {
      idEpoch,
      now: () => now().getTime(),
      onErase: () => checkpointer.noteErase(),
    })
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
    integrity?.done.catch((error: unknown) => {
      if (!(error instanceof JournalError)) {
        // The check could not run (no verdict on the file): said in the log, the journal goes on.
        ports.logger.error({ err: error }, 'the journal integrity check could not run')
        return
      }
      markJournalDamaged(db, error)
      alarms.push({ code: 'JOURNAL_DAMAGED', message: JOURNAL_DAMAGED_WORDS })
      ports.logger.error({ err: error }, 'the journal failed its integrity check: it takes no more writes')
      void forwarder.stop()
      void checkpointer.stopBackfill()
    })
    txn.on('update', () => checkpointer.noteActivity())
    forwarder.on('status', () => checkpointer.noteActivity())
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
      close: async () => {
        await integrity?.cancel()
        await forwarder.stop()
        await checkpointer.close()
        db.close()
      },
    }
  } catch (error) {
    await integrity?.cancel()
    await checkpointer.close()
    db.close()
    throw error
  }
}
