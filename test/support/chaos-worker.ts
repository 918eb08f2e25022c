/**
 * Child process of the chaos checker: the whole engine (real journal file, real HTTPS client, data
 * key in the real Secret Service so that it outlives a SIGKILL) driven by JSON commands, one per
 * line on stdin, each answered by one JSON line on stdout carrying the command's `n`.
 *
 * argv: <dataDir> <hostUrl> <caFile> <keychainService> <retail|restaurant>
 *
 * Commands run as they arrive and may overlap (a sale in progress while a void is asked for), which
 * is how "a void at any moment" reaches the engine; the parent decides how much it waits.
 */
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import pino from 'pino'
import { composeEngine } from '../../src-main/app/compose'
import { wireStore } from '../../src-main/app/store-wiring'
import { copySubject, makeCopyKeyPair, StoreLink } from '../../src-main/store'
import type { QueueOperation } from '../../src-shared/sale'
import { copiesAtStore } from './store-lane'
import type { CardData, CardDecision } from '../../src-main/device'
import { UndiciHostClient } from '../../src-main/gateway/gateway-client'
import { KeytarSecretStore } from '../../src-main/keychain'
import type { OfflinePolicy } from '../../src-main/txn/txn-types'
import { ScriptedCardReader, TEST_CARDS, type Presentation } from '../fakes/scripted-card-reader'
import { chaosService, nexoDoor, type NexoCommand } from './chaos-nexo'
import { zvtDoor, type ZvtCommand } from './chaos-zvt'
import { AID, KEY, TEST_SALE_LIMITS, testSettings } from './engine-harness'

export type ChaosCard = 'chip' | 'swipe' | 'contactless'

/** What can go wrong at the reader: the read fails, no card comes, or the reader is lost at completion. */
export const READER_FAULTS = ['readFails', 'noCard', 'completionFails'] as const
export type ReaderFault = (typeof READER_FAULTS)[number]

/** The presentation the scripted reader gives for one sale: the card (a chip answers its 2nd GENERATE AC as a card does), or a fault. */
function presentationFor(card: ChaosCard, decision: CardDecision | undefined, fault: ReaderFault | undefined): Presentation {
  if (fault === 'readFails') return { result: { kind: 'failed', code: 'DEVICE_ERROR', message: 'the card could not be read' } }
  if (fault === 'noCard') return { result: { kind: 'timeout' } }
  return {
    card: CHAOS_CARDS[card](),
    ...(decision ? { decision } : {}),
    ...(card === 'chip' ? { completion: 'asCard' as const } : {}),
    ...(fault === 'completionFails' ? { completionFails: true } : {}),
  }
}

/** What can go wrong at the reader when a return asks for the card (a return completes no chip). */
export const RETURN_READER_FAULTS = ['readFails', 'noCard'] as const
export type ReturnReaderFault = (typeof RETURN_READER_FAULTS)[number]

/** The most a return without a sale may credit on the worker's terminal (`limits.unreferencedReturnMax`, USD 100.00). */
export const UNREFERENCED_RETURN_MAX_MINOR = 10_000
/** The most returns without a sale may credit to one card, and in all, in a business day (USD 150.00, 400.00). */
export const UNREFERENCED_RETURN_PER_CARD_DAY_MINOR = 15_000
export const UNREFERENCED_RETURN_PER_DAY_MINOR = 40_000

/**
 * How much a return asks: a fixed amount, or (a referenced return) a share of what is left to return
 * of the sale as the terminal sees it when the return starts, or, `overMinor` > 0, that much more
 * than is left.
 */
export type ReturnAmount = { minor: number } | { percentOfLeft: number; overMinor: number }

/**
 * What a return credits: a card without a sale, or one of `sales` (the `index`-th, counted among
 * those the terminal still has something to return of when `chargedOnly`, as a cashier picks one
 * from the list; among all of them otherwise), to the card it was paid with or to another.
 */
export type ReturnTarget =
  { card: ChaosCard } | { sales: Array<{ id: string; card: ChaosCard }>; index: number; chargedOnly: boolean; otherCard: boolean }

/** A card with a number other than this one's. */
export const otherCardThan = (card: ChaosCard): ChaosCard => (card === 'swipe' ? 'chip' : 'swipe')

export type WorkerCommand =
  | {
      op: 'startSale'
      amountMinor: number
      offlinePolicy: OfflinePolicy
      card: ChaosCard
      decision?: CardDecision
      readerFault?: ReaderFault
    }
  | {
      op: 'startReturn'
      target: ReturnTarget
      amount: ReturnAmount
      readerFault?: ReturnReaderFault
      managerApproved: boolean
      /** The model's handle on the return, whether or not its answer arrives (a kill in the middle). */
      reference: string
      /** The customer presents the card only this long after the reader asks: other commands race the read. */
      cardAfterMs?: number
    }
  | { op: 'waitForOutcome'; id: string; timeoutMs?: number }
  | { op: 'voidSale'; id: string; card: ChaosCard }
  | { op: 'adjustTip'; id: string; tipMinor: number }
  | { op: 'closeDay'; managerOverride: boolean }
  | { op: 'forwardNow' }
  | { op: 'acknowledge'; id: string }
  | { op: 'managerRetry'; id: string }
  | { op: 'status' }
  /** With a store: the items the journal still owes whose copy is not in the stream (after the copies are brought up to date). */
  | { op: 'uncopied' }
  | NexoCommand
  | ZvtCommand

/** A contactless EMV card: its own PAN, so that the card-data scan covers a third number. */
export function contactlessVisa(): CardData {
  return {
    method: 'contactlessChip',
    posEntryMode: '071',
    termReadability: '8',
    pinFlag: false,
    pan: '4111111111111111',
    expiry: '3012',
    track2: '4111111111111111=30122011143804400000',
    icCardData: '9F2608A1B2C3D4E5F607189F2701809F360200029F3704C1D2E3F4',
    cardSequenceNum: '00',
    summary: {
      maskedPan: '411111******1111',
      brand: 'VISA',
      method: 'contactlessChip',
      applicationId: 'A0000000031010',
      applicationLabel: 'VISA CREDIT',
      expired: false,
      onlinePin: false,
    },
  }
}

export const CHAOS_CARDS: Readonly<Record<ChaosCard, () => CardData>> = {
  chip: TEST_CARDS.chipVisa,
  swipe: TEST_CARDS.swipeMastercard,
  contactless: contactlessVisa,
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

// Run as tsx's test/support/chaos-worker.ts, or as the one-file build chaos-engine.ts makes of it.
const isMain = /chaos-worker[^/]*\.(ts|mjs)$/.test(process.argv[1] ?? '')
if (isMain) await main()

async function main(): Promise<void> {
  const [dataDir, hostUrl, caFile, service, mode, storeUrl, recoveryPublicKey] = process.argv.slice(2)
  if (!dataDir || !hostUrl || !caFile || !service)
    throw new Error('usage: chaos-worker <dataDir> <hostUrl> <caFile> <service> <retail|restaurant>')

  const reader = new ScriptedCardReader()
  const secrets = await KeytarSecretStore.open(service)
  const logger = pino({ level: 'silent' })
  const host = new UndiciHostClient(
    {
      offlineBaseUrl: hostUrl,
      baseUrl: hostUrl,
      aid: AID,
      signType: 'HMAC-SHA256',
      extraCaPem: readFileSync(caFile, 'utf8'),
      connectTimeoutMs: 1_000,
      responseTimeoutMs: 700,
    },
    { signingKey: KEY },
  )
  // A store server when the scenario draws one (docs/store.md): the production wiring, requireReplica on.
  const settings = testSettings(dataDir)
  const store =
    storeUrl && recoveryPublicKey
      ? await wireStore(
          new StoreLink(
            {
              servers: [storeUrl],
              storeId: settings.merchant.storeId,
              terminalId: settings.merchant.terminalId,
              recoveryPublicKey,
              // A key of this run: the scenario never rescues, so it needs no enrolment at the store.
              copyKey: makeCopyKeyPair().privateJwk,
              enrolment: undefined,
              requireReplica: true,
              ackTimeoutMs: 400,
              heartbeatMs: 500,
              maxAgeMs: 96 * 3_600_000,
              version: 'chaos',
            },
            logger,
          ),
          settings.merchant,
        )
      : undefined
  const engine = await composeEngine(
    {
      ...settings,
      restaurantMode: mode === 'restaurant',
      limits: {
        ...TEST_SALE_LIMITS,
        unreferencedReturnMaxMinor: UNREFERENCED_RETURN_MAX_MINOR,
        unreferencedReturnPerCardDayMinor: UNREFERENCED_RETURN_PER_CARD_DAY_MINOR,
        unreferencedReturnPerDayMinor: UNREFERENCED_RETURN_PER_DAY_MINOR,
      },
      cardReadTimeoutSeconds: 5,
      duplicateWindowMs: 0,
      retry: {
        baseDelayMs: 30,
        maxDelayMs: 200,
        maxAttempts: 10_000,
        maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
      },
    },
    { reader, host, secrets, logger, store: store?.engineStore },
  )
  store?.start(engine, reader)
  const agentService = chaosService(engine, reader, secrets, logger)
  const nexo = nexoDoor(engine, agentService, logger)
  const zvt = zvtDoor(engine, agentService, reader, logger)

  const answer = (n: unknown, body: Record<string, unknown>): void => {
    process.stdout.write(`${JSON.stringify({ n, ...body })}\n`)
  }
  /** A card is offered only for the operation that reads it; a refused operation takes it back. */
  const withCard = async <T>(presentation: Presentation, run: () => Promise<T> | T): Promise<T> => {
    reader.present(presentation)
    try {
      return await run()
    } finally {
      reader.withdraw(presentation)
    }
  }

  const run = async (command: WorkerCommand): Promise<Record<string, unknown>> => {
    switch (command.op) {
      case 'startSale': {
        const presentation = presentationFor(command.card, command.decision, command.readerFault)
        reader.present(presentation)
        try {
          const sale = engine.txn.sales.start({ amountMinor: command.amountMinor, currency: 'USD', offlinePolicy: command.offlinePolicy })
          return { sale }
        } catch (error) {
          reader.withdraw(presentation)
          throw error
        }
      }
      case 'startReturn': {
        const { target, amount } = command
        let original: { id: string; card: ChaosCard } | undefined
        if ('sales' in target) {
          const charged = target.sales.filter((s) => (engine.txn.reads.get(s.id)?.returnableMinor ?? 0) > 0)
          const among = target.chargedOnly && charged.length > 0 ? charged : target.sales
          original = among[target.index % among.length]
          if (!original) throw new Error('a referenced return needs a sale')
        }
        const card = 'card' in target ? target.card : target.otherCard ? otherCardThan(original!.card) : original!.card
        const presentation: Presentation = command.readerFault
          ? presentationFor(card, undefined, command.readerFault)
          : { ...presentationFor(card, undefined, undefined), ...(command.cardAfterMs ? { after: sleep(command.cardAfterMs) } : {}) }
        let amountMinor: number
        if ('minor' in amount) amountMinor = amount.minor
        else {
          const left = original === undefined ? 0 : (engine.txn.reads.get(original.id)?.returnableMinor ?? 0)
          amountMinor = amount.overMinor > 0 ? left + amount.overMinor : Math.max(1, Math.floor((left * amount.percentOfLeft) / 100))
        }
        reader.present(presentation)
        try {
          const sale = engine.txn.returns.start({
            originalId: original?.id,
            amountMinor,
            currency: 'USD',
            managerApproved: command.managerApproved,
            reference: command.reference,
          })
          return { sale, amountMinor, originalId: original?.id }
        } catch (error) {
          reader.withdraw(presentation)
          throw error
        }
      }
      case 'waitForOutcome': {
        const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), command.timeoutMs ?? 10_000).unref())
        const sale = await Promise.race([engine.txn.waitForOutcome(command.id), timeout])
        return sale ? { sale } : { timedOut: true, sale: engine.txn.reads.get(command.id) }
      }
      case 'voidSale':
        // A card offered for one operation may be read by another sent at the same time: a chip answers as a card does.
        return {
          sale: await withCard(presentationFor(command.card, undefined, undefined), () => engine.txn.afterSale.voidSale(command.id)),
        }
      case 'adjustTip':
        return { sale: await engine.txn.afterSale.adjustTip(command.id, command.tipMinor, true) }
      case 'closeDay':
        return { report: await engine.txn.day.close(undefined, command.managerOverride) }
      case 'forwardNow':
        return { sent: await engine.forwarder.forwardNow(), queue: engine.forwarder.status() }
      case 'acknowledge':
        return { sale: await engine.txn.afterSale.acknowledge(command.id) }
      case 'managerRetry':
        return { sale: await engine.txn.afterSale.managerRetry(command.id) }
      case 'status':
        return { queue: engine.forwarder.status(), sales: engine.txn.day.report().sales, alarms: engine.alarms }
      case 'uncopied': {
        if (!store) return { uncopied: [] }
        const subject = (item: { operation: QueueOperation; messageId: string }) =>
          copySubject(settings.merchant.storeId, settings.merchant.terminalId, item.operation, item.messageId)
        // The promise is "eventually": with the store back, a copy lands within a few passes (the client
        // reconnects with backoff, and a reversal the forwarder queues meanwhile is copied on the next pass).
        // One that is still missing after 20 s of passes is a copy that never comes.
        const until = Date.now() + 20_000
        for (;;) {
          await store.link.replica.syncNow()
          const present = new Set(await copiesAtStore(storeUrl!, settings.merchant.terminalId, settings.merchant.storeId))
          const uncopied = engine.journal.outbox
            .waiting(Number.MAX_SAFE_INTEGER)
            .filter((item) => !present.has(subject(item)))
            .map((item) => `${item.saleId} ${item.operation} (${item.state})`)
          if (uncopied.length === 0 || Date.now() > until) return { uncopied }
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
      }
      case 'nexoPayment':
      case 'nexoReversal':
        // The card is offered for the read this message leads to (a refund, a payment, a void or a return).
        // A chip answers its 2nd GENERATE AC as a card does, as for a sale at the counter.
        reader.present(presentationFor(command.card, undefined, undefined))
        return nexo.run(command)
      case 'nexoAbort':
      case 'nexoCheck':
        return nexo.run(command)
      case 'zvtOpen':
      case 'zvtCard':
      case 'zvtSales':
        return zvt.run(command, (card) => presentationFor(card, undefined, undefined))
    }
  }

  const lines = createInterface({ input: process.stdin })
  lines.on('line', (line) => {
    let parsed: { n?: unknown } & WorkerCommand
    try {
      parsed = JSON.parse(line) as typeof parsed
    } catch {
      answer(null, { ok: false, error: `not JSON: ${line}` })
      return
    }
    run(parsed).then(
      (body) => answer(parsed.n, { ok: true, ...body }),
      (error: unknown) =>
        answer(parsed.n, {
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          code: (error as { code?: unknown }).code,
        }),
    )
  })
  lines.on('close', () => {
    agentService.close()
    // The link first: its replica reads the journal on a timer.
    void zvt
      .close()
      .then(() => store?.link.close())
      .then(() => engine.close())
      .then(() => host.close())
      .then(() => process.exit(0))
  })
  process.stdout.write(`${JSON.stringify({ ready: true, alarms: engine.alarms })}\n`)
}
