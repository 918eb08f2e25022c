/**
 * The store's server in the composition (docs/store.md): the link built from the configuration and
 * the keychain, the engine's view of it (the queue replica, the fence, the alarms), and the hooks
 * it reads the journal, the queue and the reader through. Nothing here when `store` is absent.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from 'pino'
import type { CardReader } from '../device'
import { ConfigError, type AgentConfig } from '../config'
import { storeSecretAccount, type SecretStore } from '../keychain'
import type { FenceRecord, OwedItem, StoreLink } from '../store'
import { AuditTrail } from '../service'
import type { Engine, EngineStore } from './compose'
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'

export interface StoreWiring {
  link: StoreLink
  engineStore: EngineStore
  /** Starts the copies and the heartbeat once the engine runs. */
  start(engine: Engine, reader: CardReader): void
}

/**
 * How long a copy may stay in the stream: the longest an item may be owed before a manager must
 * act (the offline age limit, 72 hours for a reversal) and a day's margin; a copy still owed after
 * that is published again by the next pass.
 */
export function copyMaxAgeMs(config: AgentConfig): number {
  return (Math.max(config.offline.maxOldestAgeHours, 72) + 24) * 3_600_000
}

/** The store server's CA (`store.caFile`), read once at start; a file that cannot be read stops the start. */
export function storeCaPem(store: { caFile?: string | undefined }): string | undefined {
  if (store.caFile === undefined) return undefined
  try {
    return readFileSync(store.caFile, 'utf8')
  } catch (error) {
    throw new ConfigError(`store.caFile ${store.caFile} cannot be read (${error instanceof Error ? error.message : String(error)})`)
  }
}

export async function openStoreWiring(
  config: AgentConfig,
  secrets: SecretStore,
  logger: Logger,
  version: string,
  dataDir: string,
  clock: Clock = SYSTEM_CLOCK,
): Promise<StoreWiring | undefined> {
  const store = config.store
  if (!store) return undefined
  // The store's code (its NATS client, the sealing of copies) loads only on a terminal that has a store.
  const { ENROLMENT_FILE, readCopyKey, StoreLink } = await import('../store')
  const enrolmentFile = join(dataDir, ENROLMENT_FILE)
  const password = store.user ? await secrets.get(storeSecretAccount('password', store.user)) : undefined
  const nkeySeed = store.nkey ? await secrets.get(storeSecretAccount('nkey-seed', store.nkey)) : undefined
  if (store.nkey && !nkeySeed) logger.error('the store NKey seed is not in the keychain: run `pos-agent store nkey`')
  const link = new StoreLink(
    {
      servers: store.servers,
      caPem: storeCaPem(store),
      domain: store.domain,
      user: store.user,
      password,
      nkeySeed,
      storeId: config.merchant.storeId,
      terminalId: config.merchant.terminalId,
      recoveryPublicKey: store.recoveryPublicKey,
      copyKey: await readCopyKey(secrets, config.merchant.storeId, config.merchant.terminalId),
      // Put into the store's enrolment bucket at start (docs/store.md).
      enrolment: existsSync(enrolmentFile) ? readFileSync(enrolmentFile, 'utf8') : undefined,
      requireReplica: store.requireReplica,
      requireDurable: store.requireDurable,
      syncAlways: store.syncAlways,
      replicas: store.replicas,
      ackTimeoutMs: store.ackTimeoutMs,
      heartbeatMs: store.heartbeatSeconds * 1000,
      maxAgeMs: copyMaxAgeMs(config),
      version,
    },
    logger,
  )
  return wireStore(link, config.merchant, clock, logger)
}

/** The engine's view of a store link, and the hooks that feed it from the running engine. */
export async function wireStore(
  link: StoreLink,
  merchant: { storeId: string; terminalId: string },
  clock: Clock = SYSTEM_CLOCK,
  logger?: Logger,
): Promise<StoreWiring> {
  const config = { merchant }
  const { fencedWords, queueCopyOf } = await import('../store')
  let fence: FenceRecord | undefined = await link.fenceAtStart()
  const engineStore: EngineStore = {
    replica: link.replica,
    fenced: () => (fence ? fencedWords(fence) : undefined),
    alarms: () => link.alarms(),
    copyView: () => link.copyView(),
    onCopyViewChange: (listener) => link.onCopyViewChange(listener),
  }
  return {
    link,
    engineStore,
    start(engine, reader) {
      const outbox = engine.journal.outbox
      // What the store told this terminal about its queue is in its own audit trail: a fence found at
      // start, and one that appears while it runs (docs/store.md "The rescue").
      // Through the trail's one writer: a record that cannot be written is logged, and the fence still holds.
      const trail = new AuditTrail(engine.journal.audit, (error, entry) =>
        logger?.error({ err: error, action: entry.action }, 'the audit trail could not record the store fence'),
      )
      const auditFence = (found: FenceRecord, when: 'at start' | 'while running'): void => {
        trail.append({
          action: 'storeFenced',
          door: 'store',
          subject: `${config.merchant.storeId}/${config.merchant.terminalId}`,
          ok: true,
          detail: `${when}: rescue ${found.rescueId} of ${found.rescuedAt} from ${found.by}; only reversals are sent from here`,
        })
      }
      if (fence) auditFence(fence, 'at start')
      link.start({
        queue: {
          owed: (): OwedItem[] => outbox.owedKeys(),
          copyOf: (item) => {
            const owed = outbox.get(item.seq)
            const body = owed ? outbox.openBody(item.seq) : undefined
            if (!owed || body === undefined) return undefined
            // A return's credit carries what its sale was approved for (amount and tip), so a rescue never credits more.
            const original = owed.operation === 'merchandiseCredit' ? engine.journal.get(owed.saleId)?.originalId : undefined
            const sale = original === undefined ? undefined : engine.journal.get(original)
            const saleAmountMinor = sale === undefined ? undefined : sale.amountMinor + (sale.tipMinor ?? 0)
            return queueCopyOf(config.merchant, owed.saleId, { ...owed, body, seq: item.seq }, owed.createdAt, { saleAmountMinor })
          },
        },
        status: () => {
          const queue = engine.forwarder.status()
          const device = reader.status()
          return {
            queueDepth: queue.count,
            storedCount: queue.storedCount,
            oldestStoredAgeSeconds:
              queue.oldestStoredAt === undefined ? undefined : Math.round((clock.now() - queue.oldestStoredAt) / 1000),
            attentionCount: queue.attentionCount,
            alarms: engine.alarms.map(({ code, message }) => ({ code, message })),
            reader: !device.connected ? 'not connected' : device.busy ? 'busy' : 'ready',
            bank: queue.hostReachable === undefined ? 'unknown' : queue.hostReachable ? 'reachable' : 'unreachable',
          }
        },
        onFenced: (found) => {
          fence = found
          auditFence(found, 'while running')
        },
      })
      // Every change of the queue (a new item, an answer, a withdrawal) brings the copies up to date,
      // and every sale's change is an event on the lane's subject: listed fields only, never card data.
      engine.txn.on('update', ({ sale }) => {
        link.replica.queueChanged()
        link.publishEvent('sale', {
          id: sale.id,
          kind: sale.kind ?? 'sale',
          state: sale.state,
          amountMinor: sale.amountMinor,
          currency: sale.currency,
          offline: sale.offline,
          ...(sale.reason !== undefined ? { reason: sale.reason } : {}),
        })
      })
      engine.forwarder.on('attention', (item, why) =>
        link.publishEvent('alarm', { saleId: item.saleId, operation: item.operation, failure: why.failure }),
      )
      engine.forwarder.on('status', () => link.replica.queueChanged())
      // The audit trail's head, kept at the store as well as in the keychain: each new last record's
      // number and seal (never the record itself), a copy of the head no one at this lane can take back.
      engine.journal.audit.onHead((head) => link.publishEvent('audit', { seq: head.seq, mac: head.mac }))
    },
  }
}
