/**
 * The chaos worker's nexo door: the application layer (AgentService) on the worker's engine and a
 * NexoTerminal over it, as the agent composes them, with the journal's nexo memory. Messages go to
 * `NexoTerminal.handle` as the HTTPS endpoint hands them over (the transport is tested elsewhere), from
 * two POS (their SaleIDs), with the token a POS that also refunds holds. `check` asks TransactionStatus
 * of what the model sent and reads the journal beside it, so the parent can judge that they agree.
 */
import type { Logger } from 'pino'
import type { Engine } from '../../src-main/app/compose'
import type { CardReader } from '../../src-main/device'
import type { SecretStore } from '../../src-main/keychain'
import { NexoTerminal, nexoReference } from '../../src-main/nexo'
import { AgentService, type TokenGrant } from '../../src-main/service'
import type { ChaosCard } from './chaos-worker'
import { TEST_SALE_LIMITS } from './engine-harness'

/** The two POS of the store, by their nexo SaleID. */
export const NEXO_POS = ['POS-A', 'POS-B'] as const
export type NexoPos = (typeof NEXO_POS)[number]

export type NexoCommand =
  | {
      op: 'nexoPayment'
      pos: NexoPos
      serviceId: string
      amountMinor: number
      /** A Payment of PaymentType Refund: a return without a sale. */
      refund: boolean
      /** false: the POS gives up on the answer (it asks TransactionStatus later). */
      wait: boolean
      card: ChaosCard
    }
  | { op: 'nexoAbort'; pos: NexoPos; of: NexoPos; serviceId: string }
  | { op: 'nexoReversal'; pos: NexoPos; serviceId: string; saleId: string; amountMinor: number; wait: boolean; card: ChaosCard }
  | { op: 'nexoCheck'; requests: Array<{ pos: NexoPos; serviceId: string; category: 'Payment' | 'Reversal' }> }

/** What the journal says of one nexo request, beside what TransactionStatus answered. */
export interface NexoCheck {
  pos: NexoPos
  serviceId: string
  category: 'Payment' | 'Reversal'
  answer: Record<string, unknown> | null
  journal?: { id: string; state: string; kind: string; aborted: boolean } | undefined
  /** The same, read once TransactionStatus answered. */
  journalAfter?: { id: string; state: string; kind: string; aborted: boolean } | undefined
}

const POS_TOKEN: TokenGrant = { id: 'chaos-pos', name: 'chaos POS', scopes: ['read', 'sell', 'refund'] }

/** The application layer on the worker's engine, as the agent composes it: the doors (nexo, ZVT) share it. */
export function chaosService(engine: Engine, reader: CardReader, secrets: SecretStore, logger: Logger): AgentService {
  return new AgentService({
    engine,
    reader,
    secrets,
    retry: {
      baseDelayMs: 30,
      maxDelayMs: 200,
      maxAttempts: 10_000,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    },
    logger,
    info: {
      mode: 'training',
      currency: 'USD',
      terminalId: 'T1',
      merchantId: 'M1',
      storeAddress: [],
      restaurantMode: false,
      tipTolerancePercent: 20,
      saleLimits: TEST_SALE_LIMITS,
      trainingCards: [],
    },
    settings: { offlineBaseUrl: 'https://127.0.0.1', aid: 'CHAOS', storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
  })
}

export function nexoDoor(engine: Engine, service: AgentService, logger: Logger) {
  const terminal = new NexoTerminal({
    service,
    memory: engine.journal.nexo,
    terminalId: 'T1',
    merchantId: 'M1',
    version: 'chaos',
    logger,
    reversalWaitMs: 3_000,
  })
  const header = (pos: NexoPos, category: string, serviceId: string) => ({
    MessageClass: 'Service',
    MessageCategory: category,
    MessageType: 'Request',
    SaleID: pos,
    ServiceID: serviceId,
    POIID: 'T1',
  })
  const handle = (message: Record<string, unknown>) => terminal.handle({ SaleToPOIRequest: message }, POS_TOKEN)
  let statusSeq = 0

  /** The answer's Response (Result, ErrorCondition) and the POI transaction it names, for the parent. */
  const summary = (answer: unknown, category: string): Record<string, unknown> => {
    const body = (answer as { SaleToPOIResponse?: Record<string, Record<string, unknown>> } | null)?.SaleToPOIResponse?.[
      `${category}Response`
    ]
    const poi = (body?.POIData as { POITransactionID?: { TransactionID?: string } } | undefined)?.POITransactionID?.TransactionID
    return { response: body?.Response, poiTransactionId: poi }
  }

  async function run(command: NexoCommand): Promise<Record<string, unknown>> {
    switch (command.op) {
      case 'nexoPayment': {
        const answer = handle({
          MessageHeader: header(command.pos, 'Payment', command.serviceId),
          PaymentRequest: {
            SaleData: { SaleTransactionID: { TransactionID: `order-${command.serviceId}`, TimeStamp: new Date().toISOString() } },
            PaymentTransaction: { AmountsReq: { Currency: 'USD', RequestedAmount: command.amountMinor / 100 } },
            ...(command.refund ? { PaymentData: { PaymentType: 'Refund' } } : {}),
          },
        })
        if (!command.wait) {
          void answer.catch(() => undefined)
          return { started: true }
        }
        return summary(await answer, 'Payment')
      }
      case 'nexoAbort':
        await handle({
          MessageHeader: header(command.pos, 'Abort', `abort-${command.serviceId}-${++statusSeq}`),
          AbortRequest: {
            AbortReason: 'MerchantAbort',
            MessageReference: { MessageCategory: 'Payment', SaleID: command.of, ServiceID: command.serviceId },
          },
        })
        return {}
      case 'nexoReversal': {
        const answer = handle({
          MessageHeader: header(command.pos, 'Reversal', command.serviceId),
          ReversalRequest: {
            OriginalPOITransaction: { POITransactionID: { TransactionID: command.saleId, TimeStamp: new Date().toISOString() } },
            ReversalReason: 'MerchantCancel',
            ReversedAmount: command.amountMinor / 100,
          },
        })
        if (!command.wait) {
          void answer.catch(() => undefined)
          return { started: true }
        }
        return summary(await answer, 'Reversal')
      }
      case 'nexoCheck': {
        const checks: NexoCheck[] = []
        const journalOf = (request: { pos: NexoPos; serviceId: string; category: 'Payment' | 'Reversal' }): NexoCheck['journal'] => {
          const target =
            request.category === 'Payment'
              ? engine.journal.byReference(nexoReference(request.pos, request.serviceId))?.id
              : engine.journal.nexo.reversalOf(request.pos, request.serviceId)?.saleId
          const row = target === undefined ? undefined : engine.journal.get(target)
          return row
            ? { id: row.id, state: row.state, kind: row.kind ?? 'sale', aborted: engine.journal.nexo.wasAborted(row.id) }
            : undefined
        }
        for (const request of command.requests) {
          // Read before and after the question: the queue may move the sale meanwhile.
          const journal = journalOf(request)
          const answer = await handle({
            MessageHeader: header(request.pos, 'TransactionStatus', `status-${++statusSeq}`),
            TransactionStatusRequest: {
              MessageReference: { MessageCategory: request.category, SaleID: request.pos, ServiceID: request.serviceId },
            },
          })
          const body = (answer as { SaleToPOIResponse?: Record<string, Record<string, unknown>> } | null)?.SaleToPOIResponse
            ?.TransactionStatusResponse
          checks.push({ ...request, answer: body ?? null, journal, journalAfter: journalOf(request) })
        }
        return { checks }
      }
    }
  }

  return { run }
}
