/**
 * The agent as a nexo POI: each Sale-to-POI message becomes the same contract operation the local
 * API would call, through the application layer (src-main/service) as a nexo caller with the POS's
 * token and SaleID, typed end to end, so a nexo payment is a sale like any other: journaled, shown
 * on the cashier screen, reversed when its answer does not come. Who may do what is the service's
 * rule (the token's scopes), not this file's.
 *
 * - Payment → startSale with the reference `nexo:<SaleID>:<ServiceID>`: a repeated ServiceID is the
 *   same sale (answered, never charged twice); the same ServiceID with another amount is refused.
 *   The answer comes when the sale has ended for the POS (approved, stored, declined, stopped).
 *   PaymentType Refund → startReturn without a sale, under the same reference (Adyen's "unreferenced
 *   refund"): the same machine, rules and limits as at the counter, for a token with the refund scope.
 * - TransactionStatus → the sale (or return) by that reference: the answer to "the POS crashed mid-sale".
 * - Reversal → voidSale of the POI transaction (the customer presents the card again); with a
 *   ReversedAmount below the payment's, startReturn of that amount (Adyen's "referenced refund").
 * - Abort → cancelSale of the payment still at the counter, only from the token and SaleID that
 *   started it; nexo gives it no answer of its own, and another POS's Abort is rejected with an
 *   EventNotification (nexo-abort.ts).
 * - GetTotals → the open batch's report; Diagnosis → reader, bank and queue; Login/Logout → the
 *   POS's operator, kept for Diagnosis (LoggedSaleID).
 * What nexo must remember (a login, an Abort, what a Reversal's ServiceID was about) is kept in the
 * journal (`memory`), so TransactionStatus and Diagnosis answer the same after a restart.
 * Every failure is a nexo Response with an ErrorCondition: nothing the POS sends ends in a crash.
 */
import { createHash } from 'node:crypto'
import type { Logger } from 'pino'
import type { OperationName, OperationRequest, OperationResults, PosEvent, SaleView } from '../../src-shared/contract'
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'
import { PosError, wordsOf } from '../../src-shared/errors'
import { INSTALLATION_GRANT, type Caller, type TokenGrant } from '../service'
import { COUNTER_BUSY } from '../../src-shared/sale'
import {
  envelopeSchema,
  failure,
  isNexoCategory,
  REQUEST_SCHEMAS,
  success,
  type MessageHeader,
  type NexoCategory,
  type NexoRequest,
  type TransactionIdentification,
} from './nexo-messages'
import { PaymentStarters, rejection } from './nexo-abort'
import { asksForSpeech } from './nexo-accessibility'
import { minorAmount, paymentResponseBody, paymentSettledForPos, type PaymentContext } from './nexo-payment'
import { CONDITION_OF, NexoRefusal, NexoRejection, parseBody } from './nexo-refusal'
import { diagnosisBody, totalsBody } from './nexo-reports'
import { repeatedStatus } from './nexo-status'
import { returnReversalBody, returnSettled, voidReversalBody } from './nexo-reversal'

/** What nexo remembers across restarts (the journal's NexoStore). */
export interface NexoMemory {
  login(posSaleId: string, operatorId: string | undefined): void
  logout(posSaleId: string): void
  loggedIn(): string[]
  recordAbort(saleId: string, posSaleId: string): void
  wasAborted(saleId: string): boolean
  recordReversal(posSaleId: string, serviceId: string, saleId: string, kind: 'void' | 'return'): { saleId: string; kind: 'void' | 'return' }
  reversalOf(posSaleId: string, serviceId: string): { saleId: string; kind: 'void' | 'return' } | undefined
}

/** What the terminal needs of the agent: the application layer's typed call, its events, and its audit trail. */
export interface NexoService {
  call<K extends OperationName>(caller: Caller, operation: K, request: OperationRequest<K>): Promise<OperationResults[K]>
  /** Keeps a refusal of this door's own (an Abort from a POS that did not start the payment) in the audit trail. */
  recordRefusal(caller: Caller, refusal: { action: string; subject?: string | undefined; detail: string }): void
  on(event: 'event', listener: (event: PosEvent) => void): unknown
  off(event: 'event', listener: (event: PosEvent) => void): unknown
}

export interface NexoTerminalOptions {
  service: NexoService
  memory: NexoMemory
  terminalId: string
  merchantId: string
  storeName?: string | undefined
  storeAddress?: readonly string[] | undefined
  training?: boolean | undefined
  version: string
  logger: Logger
  /** How long a Reversal waits for the bank to confirm a void before it answers InProgress (ms). */
  reversalWaitMs?: number
  /** What the answers are dated by (src-shared/clock.ts). */
  clock?: Clock
}

/**
 * An answer: the response envelope; nothing (Abort has no response message); or, for a request the
 * terminal refuses to act on and that has no response of its own, a Reject EventNotification.
 */
export type NexoAnswer = { SaleToPOIResponse: Record<string, unknown> } | { SaleToPOIRequest: Record<string, unknown> } | null

/** The id the installation token's grant carries (service/caller.ts). */
const INSTALLATION_TOKEN_ID = INSTALLATION_GRANT.id

/** A nexo POS as the service knows it: its token, and the SaleID in the message's header. */
type NexoCaller = Extract<Caller, { door: 'nexo' }>

/** The sale reference of a nexo payment; a long SaleID is hashed so the reference stays within 64 characters. */
export function nexoReference(saleId: string, serviceId: string): string {
  const plain = `nexo:${saleId}:${serviceId}`
  if (plain.length <= 64) return plain
  return `nexo:#${createHash('sha256').update(saleId).digest('hex').slice(0, 40)}:${serviceId}`
}

export class NexoTerminal {
  private readonly starters = new PaymentStarters()
  private warnedOfInstallationToken = false

  private readonly clock: Clock

  constructor(private readonly options: NexoTerminalOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK
  }

  /** One message in (from a POS holding `token`), one answer out; never throws. */
  async handle(message: unknown, token: TokenGrant): Promise<NexoAnswer | { malformed: string }> {
    const envelope = envelopeSchema.safeParse(message)
    if (!envelope.success) return { malformed: `not a SaleToPOIRequest with a MessageHeader: ${envelope.error.issues[0]?.message ?? ''}` }
    const request = envelope.data.SaleToPOIRequest
    const header = request.MessageHeader
    const category = header.MessageCategory
    if (!isNexoCategory(category))
      return this.answer(header, category, { Response: failure('NotAllowed', `${category} is not supported by this terminal`) })
    const caller: NexoCaller = { door: 'nexo', token, saleId: header.SaleID }
    if (token.id === INSTALLATION_TOKEN_ID && !this.warnedOfInstallationToken) {
      // Said once a run: every POS holding the admin's token could stop the others' payments and refund.
      this.warnedOfInstallationToken = true
      this.options.logger.warn(
        { from: header.SaleID },
        'a nexo POS uses the installation token: make it a token of its own with the sell scope (refund only where it refunds), docs/nexo.md',
      )
    }
    try {
      const body = await this.run(category, header, request[`${category}Request`], caller)
      return body === null ? null : this.answer(header, category, body)
    } catch (error) {
      if (error instanceof NexoRejection) {
        this.options.logger.warn({ category, from: header.SaleID, token: token.id }, `nexo ${category} rejected: ${error.message}`)
        // Someone tried to stop another POS's payment: a manager finds it in the audit trail, not only in a log.
        this.options.service.recordRefusal(caller, { action: `nexo${category}`, subject: error.subject, detail: error.message })
        return rejection(header, this.options.terminalId, error.message, message, new Date(this.clock.now()))
      }
      if (error instanceof NexoRefusal) return this.answer(header, category, { Response: failure(error.condition, error.message) })
      this.options.logger.error({ err: error, category }, 'nexo message failed')
      return this.answer(header, category, { Response: failure('UnavailableService', 'the terminal could not handle this message') })
    }
  }

  private answer(header: MessageHeader, category: string, body: Record<string, unknown>): NexoAnswer {
    return {
      SaleToPOIResponse: {
        MessageHeader: { ...header, MessageType: 'Response', POIID: header.POIID ?? this.options.terminalId },
        [`${category}Response`]: body,
      },
    }
  }

  private run(category: NexoCategory, header: MessageHeader, body: unknown, caller: NexoCaller): Promise<Record<string, unknown> | null> {
    switch (category) {
      case 'Login':
        return Promise.resolve(this.login(header, parseBody(REQUEST_SCHEMAS.Login, body, category)))
      case 'Logout':
        parseBody(REQUEST_SCHEMAS.Logout, body, category)
        this.options.memory.logout(header.SaleID)
        return Promise.resolve({ Response: success() })
      case 'Payment':
        return this.payment(header, parseBody(REQUEST_SCHEMAS.Payment, body, category), caller)
      case 'Reversal':
        return this.reversal(header, parseBody(REQUEST_SCHEMAS.Reversal, body, category), caller)
      case 'TransactionStatus':
        return this.transactionStatus(header, parseBody(REQUEST_SCHEMAS.TransactionStatus, body, category), caller)
      case 'Abort':
        return this.abort(header, parseBody(REQUEST_SCHEMAS.Abort, body, category), caller)
      case 'GetTotals':
        parseBody(REQUEST_SCHEMAS.GetTotals, body, category)
        return this.totals(caller)
      case 'Diagnosis':
        parseBody(REQUEST_SCHEMAS.Diagnosis, body, category)
        return this.diagnosis(caller)
    }
  }

  private login(header: MessageHeader, request: NexoRequest<'Login'>): Record<string, unknown> {
    this.options.memory.login(header.SaleID, request.OperatorID)
    return {
      Response: success(),
      POISystemData: {
        DateTime: new Date(this.clock.now()).toISOString(),
        POISoftware: {
          ManufacturerID: 'pos-agent',
          ApplicationName: 'pos-agent',
          SoftwareVersion: this.options.version,
          CertificationCode: 'none',
        },
        POIStatus: { GlobalStatus: 'OK' },
      },
    }
  }

  // ---- Payment --------------------------------------------------------------------------------

  private async payment(header: MessageHeader, request: NexoRequest<'Payment'>, caller: NexoCaller): Promise<Record<string, unknown>> {
    const paymentType = request.PaymentData?.PaymentType ?? 'Normal'
    if (paymentType !== 'Normal' && paymentType !== 'Refund')
      throw new NexoRefusal('NotAllowed', `PaymentType ${paymentType} is not supported: only Normal payments and Refund`)
    const { Currency: currency, RequestedAmount: requested } = request.PaymentTransaction.AmountsReq
    const amountMinor = minorAmount(requested, currency)
    if (amountMinor === undefined)
      throw new NexoRefusal('MessageFormat', `RequestedAmount ${requested} has more decimals than ${currency} allows`)
    const reference = nexoReference(header.SaleID, header.ServiceID)
    // The token that starts a payment is the one whose Abort may stop it.
    return this.starters.whilePaying(reference, caller.token.id, () =>
      this.pay(paymentType, { amountMinor, currency, reference }, request, caller),
    )
  }

  private async pay(
    paymentType: string,
    amount: { amountMinor: number; currency: string; reference: string },
    request: NexoRequest<'Payment'>,
    caller: NexoCaller,
  ): Promise<Record<string, unknown>> {
    const { amountMinor, currency, reference } = amount
    if (paymentType === 'Refund') {
      // A return without a sale on this terminal: the card presented is credited, within the limits.
      const started = await this.call(caller, 'startReturn', { amountMinor, currency, reference })
      const ret = await this.settled(caller, started.id, paymentSettledForPos)
      return paymentResponseBody(ret, this.context(ret, request.SaleData.SaleTransactionID))
    }
    const started = await this.call(caller, 'startSale', {
      amountMinor,
      currency,
      reference,
      options: { merchantOrderReference: request.SaleData.SaleTransactionID.TransactionID },
      // The POS confirmed its amount on its own screen; the terminal's maximum still applies.
      amountConfirmed: true,
      // A customer who asked for spoken prompts, as Adyen's accessibility mode is asked for.
      ...(asksForSpeech(request.SaleData.SaleToPOIData) ? { speech: true } : {}),
    })
    const sale = await this.settled(caller, started.id, paymentSettledForPos)
    return paymentResponseBody(sale, this.context(sale, request.SaleData.SaleTransactionID))
  }

  // ---- TransactionStatus ----------------------------------------------------------------------

  private async transactionStatus(
    header: MessageHeader,
    request: NexoRequest<'TransactionStatus'>,
    caller: Caller,
  ): Promise<Record<string, unknown>> {
    const reference = request.MessageReference
    const category = reference?.MessageCategory ?? 'Payment'
    const serviceId = reference?.ServiceID
    const saleId = reference?.SaleID ?? header.SaleID
    if (category === 'Reversal') {
      const reversal = serviceId !== undefined ? this.options.memory.reversalOf(saleId, serviceId) : undefined
      if (reversal === undefined) throw new NexoRefusal('NotFound', 'no reversal with this ServiceID on this terminal')
      return repeatedStatus(header, this.options.terminalId, 'Reversal', serviceId!, saleId, {
        Reversal: await this.reversalAnswer(caller, reversal),
      })
    }
    if (category !== 'Payment') throw new NexoRefusal('NotAllowed', `TransactionStatus of ${category} is not supported`)
    const sale =
      serviceId !== undefined ? await this.saleByReference(caller, nexoReference(saleId, serviceId)) : await this.lastNexoSale(caller)
    if (sale === undefined) throw new NexoRefusal('NotFound', 'no payment with this ServiceID on this terminal')
    if (COUNTER_BUSY.has(sale.state)) {
      return { Response: failure('InProgress', 'the payment is still at the counter', { saleId: sale.id }) }
    }
    const original = serviceId ?? sale.reference?.split(':').at(-1) ?? header.ServiceID
    return repeatedStatus(header, this.options.terminalId, 'Payment', original, saleId, {
      Payment: paymentResponseBody(sale, this.context(sale)),
    })
  }

  // ---- Reversal -------------------------------------------------------------------------------

  private async reversal(header: MessageHeader, request: NexoRequest<'Reversal'>, caller: Caller): Promise<Record<string, unknown>> {
    const { memory } = this.options
    // A repeated ServiceID is the same reversal: answered from what it started, never started twice.
    const known = memory.reversalOf(header.SaleID, header.ServiceID)
    if (known !== undefined) return this.reversalAnswer(caller, known, true)
    const id = request.OriginalPOITransaction.POITransactionID.TransactionID
    const original = await this.call(caller, 'getSale', { id })
    const reversed = request.ReversedAmount === undefined ? original.amountMinor : minorAmount(request.ReversedAmount, original.currency)
    if (reversed === undefined)
      throw new NexoRefusal('MessageFormat', `ReversedAmount ${request.ReversedAmount} has more decimals than ${original.currency} allows`)
    if (reversed > original.amountMinor) throw new NexoRefusal('NotAllowed', 'the ReversedAmount is more than the payment')
    if (reversed < original.amountMinor) {
      // Part of the payment: a return of that amount to the card it was paid with (a referenced refund).
      const started = await this.call(caller, 'startReturn', {
        originalId: id,
        amountMinor: reversed,
        currency: original.currency,
        reference: nexoReference(header.SaleID, header.ServiceID),
      })
      return this.reversalAnswer(caller, memory.recordReversal(header.SaleID, header.ServiceID, started.id, 'return'), true)
    }
    memory.recordReversal(header.SaleID, header.ServiceID, id, 'void')
    await this.call(caller, 'voidSale', { id })
    return this.reversalAnswer(caller, { saleId: id, kind: 'void' }, true)
  }

  /** What a Reversal started, as it stands (`wait`: once the card step is over, and a void's bank answer for a while). */
  private async reversalAnswer(
    caller: Caller,
    reversal: { saleId: string; kind: 'void' | 'return' },
    wait = false,
  ): Promise<Record<string, unknown>> {
    if (reversal.kind === 'return') {
      const ret = wait
        ? await this.settled(caller, reversal.saleId, returnSettled)
        : await this.call(caller, 'getSale', { id: reversal.saleId })
      const original = ret.originalId === undefined ? undefined : await this.call(caller, 'getSale', { id: ret.originalId })
      return returnReversalBody(ret, original)
    }
    const id = reversal.saleId
    if (!wait) return voidReversalBody(await this.call(caller, 'getSale', { id }))
    // The customer presents the card again; then the void goes to the bank.
    let sale = await this.settled(caller, id, (s) => s.state !== 'voidReadingCard')
    if (sale.state === 'cancelPending') {
      const voided = sale
      sale = await this.settled(caller, id, (s) => s.state !== 'cancelPending', this.options.reversalWaitMs ?? 20_000).catch(() => voided)
    }
    return voidReversalBody(sale)
  }

  // ---- Abort, totals, diagnosis ---------------------------------------------------------------

  private async abort(header: MessageHeader, request: NexoRequest<'Abort'>, caller: NexoCaller): Promise<null> {
    const serviceId = request.MessageReference.ServiceID
    const saleId = request.MessageReference.SaleID ?? header.SaleID
    if (serviceId === undefined) return null
    // A POS stops its own payments only: the SaleID in its header and the token it holds must be the
    // ones that started the payment (nexo-abort.ts). Anything else is rejected in plain words.
    const named = `${saleId}/${serviceId}`
    if (saleId !== header.SaleID) throw new NexoRejection('this POS cannot stop a payment another POS started', named)
    const reference = nexoReference(saleId, serviceId)
    const sale = await this.saleByReference(caller, reference)
    if (sale === undefined || !COUNTER_BUSY.has(sale.state)) return null
    if (this.starters.starterOf(reference) !== caller.token.id)
      throw new NexoRejection('this payment was started with another integrator token: only the POS that started it can stop it', sale.id)
    this.options.memory.recordAbort(sale.id, header.SaleID)
    // Refused when the payment can no longer be stopped (it is with the bank): its own answer says how it ended.
    await this.options.service.call(caller, 'cancelSale', { id: sale.id }).catch((error: unknown) => {
      const code = error instanceof PosError ? error.code : 'INTERNAL'
      this.options.logger.info({ sale: sale.id, code }, 'nexo abort came too late to stop the payment')
    })
    return null
  }

  private async totals(caller: Caller): Promise<Record<string, unknown>> {
    return totalsBody(await this.call(caller, 'dayReport', {}), this.options.terminalId)
  }

  private async diagnosis(caller: Caller): Promise<Record<string, unknown>> {
    const [device, queue] = await Promise.all([this.call(caller, 'deviceStatus', {}), this.call(caller, 'queueStatus', {})])
    return diagnosisBody(device, queue, this.options.memory.loggedIn())
  }

  // ---- the agent ------------------------------------------------------------------------------

  private context(sale: SaleView, saleTransactionId?: TransactionIdentification): PaymentContext {
    return {
      terminalId: this.options.terminalId,
      merchantId: this.options.merchantId,
      storeName: this.options.storeName,
      storeAddress: this.options.storeAddress,
      training: this.options.training,
      aborted: this.options.memory.wasAborted(sale.id),
      saleTransactionId,
    }
  }

  /** One operation as this POS; a refusal becomes the nexo error condition for it. */
  private async call<K extends OperationName>(caller: Caller, operation: K, request: OperationRequest<K>): Promise<OperationResults[K]> {
    try {
      return await this.options.service.call(caller, operation, request)
    } catch (error) {
      if (!(error instanceof PosError)) throw error
      throw new NexoRefusal(CONDITION_OF[error.code] ?? 'UnavailableService', wordsOf(error.code))
    }
  }

  private async saleByReference(caller: Caller, reference: string): Promise<SaleView | undefined> {
    try {
      return await this.options.service.call(caller, 'getSaleByReference', { reference })
    } catch (error) {
      if (error instanceof PosError && error.code === 'NO_SUCH_SALE') return undefined
      if (error instanceof PosError) throw new NexoRefusal(CONDITION_OF[error.code] ?? 'UnavailableService', wordsOf(error.code))
      throw error
    }
  }

  /** The most recent payment made through nexo (a TransactionStatus without a MessageReference). */
  private async lastNexoSale(caller: Caller): Promise<SaleView | undefined> {
    const sales = await this.call(caller, 'listSales', {})
    return sales.filter((sale) => sale.reference?.startsWith('nexo:')).sort((a, b) => b.createdAt - a.createdAt)[0]
  }

  /** The sale once `done` holds: from its events, after a first look (it may have ended already). */
  private settled(caller: Caller, id: string, done: (sale: SaleView) => boolean, timeoutMs?: number): Promise<SaleView> {
    const { service } = this.options
    return new Promise<SaleView>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const finish = (sale: SaleView | Error): void => {
        service.off('event', listener)
        if (timer) clearTimeout(timer)
        if (sale instanceof Error) reject(sale)
        else resolve(sale)
      }
      const listener = (event: PosEvent): void => {
        if (event.type === 'sale' && event.sale.id === id && done(event.sale)) finish(event.sale)
      }
      service.on('event', listener)
      if (timeoutMs !== undefined) timer = setTimeout(() => finish(new Error('waited too long')), timeoutMs)
      service.call(caller, 'getSale', { id }).then(
        (sale) => {
          if (done(sale)) finish(sale)
        },
        () => undefined,
      )
    })
  }
}
