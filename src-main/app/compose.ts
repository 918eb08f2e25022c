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
  countSealedRows,
  DataKeyMissingError,
  FieldSealer,
  JOURNAL_FILE,
  JOURNAL_MIGRATIONS,
  JournalCheckpointer,
  JournalStore,
  openIdEpoch,
  openJournalDatabase,
} from '../journal'
import { dataKeyAccount, MemorySecretStore, type SecretStore } from '../keychain'
import { DEFAULT_RETRY_POLICY, Forwarder, TxnService, type RetryPolicy, type TxnSettings } from '../txn'
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
}

/** A condition a manager must see: shown on the status panel, the local API and `doctor`. */
export interface EngineAlarm {
  code: 'DATA_KEY_MISSING' | 'QUEUE_RESCUED' | 'QUEUE_COPY_MISSING'
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
    const message = `the journal's data key is missing from the keychain while ${counted(sealedRows, 'encrypted row')} ${agreeing(sealedRows, 'waits', 'wait')} for it: offline payments are stopped and those rows are kept; restore the keychain entry "${dataKeyAccount(settings.merchant.terminalId)}" and restart`
    ports.logger.error({ sealedRows }, message)
    const sealer = await FieldSealer.open(new MemorySecretStore(), settings.merchant.terminalId, { create: true })
    return { sealer, alarms: [{ code: 'DATA_KEY_MISSING', message }], offlineAllowed: false }
  }
}

export async function composeEngine(settings: EngineSettings, ports: EnginePorts): Promise<Engine> {
  const file = join(settings.dataDir, JOURNAL_FILE)
  const db = openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS })
  const checkpointer = new JournalCheckpointer(db, file)
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
    const txn = new TxnService({
      journal,
      reader: ports.reader,
      host: ports.host,
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
      ...(store ? { halted: () => store.fenced() } : {}),
    })
    wakeForwarder.wake = () => forwarder.wake()
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
        await forwarder.stop()
        checkpointer.stop()
        db.close()
      },
    }
  } catch (error) {
    checkpointer.stop()
    db.close()
    throw error
  }
}
