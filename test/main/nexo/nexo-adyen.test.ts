/**
 * The nexo endpoint as a POS built on Adyen's Node library meets it: the library, unchanged
 * (`TerminalLocalAPIUnencrypted`), against a whole training agent in this process (the training host
 * over HTTPS, the simulated PIN pad, the journal) with its nexo endpoint on 127.0.0.1:8443, the port
 * the library always uses. Payment, a repeated ServiceID, TransactionStatus after a request the POS
 * gave up on, Abort, Reversal, GetTotals and Diagnosis; a payment approved offline and one reversed
 * after the bank's answer was lost (the training host's faults); Logout; and what a malformed
 * message gets.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, Config, EnvironmentEnum } from '@adyen/api-library'
import TerminalLocalAPIUnencrypted from '@adyen/api-library/lib/src/services/terminalLocalAPIUnencrypted'
import type { TerminalApiRequest, TerminalApiResponse } from '@adyen/api-library/lib/src/typings/terminal/models'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { defaultReaderFactory, openRuntime, startAgent, startNexoEndpoint, type RunningAgent, type Runtime } from '../../../src-main/app'
import type { NexoServer } from '../../../src-main/nexo'
import type { SaleView } from '../../../src-shared/contract'
import { wordsOf } from '../../../src-shared/errors'
import { postNexo } from '../../support/nexo-post'
import { COUNTER, OWNER_POS } from '../../support/service-harness'

let dir: string
let runtime: Runtime
let agent: RunningAgent
let nexo: NexoServer
let token: string

/** The POS: Adyen's library as an ECR uses it. */
function terminalApi(options: { apiKey?: string; timeoutMs?: number } = {}): TerminalLocalAPIUnencrypted {
  const config = new Config({
    environment: EnvironmentEnum.TEST,
    apiKey: options.apiKey ?? token,
    terminalApiLocalEndpoint: 'https://127.0.0.1',
    connectionTimeoutMillis: options.timeoutMs ?? 60_000,
  })
  return new TerminalLocalAPIUnencrypted(new Client(config))
}

let serviceSeq = 0
const nextServiceId = (): string => `S${Date.now().toString(36).slice(-5)}${++serviceSeq}`

function header(category: string, serviceId: string): Record<string, string> {
  return {
    MessageClass: 'Service',
    MessageCategory: category,
    MessageType: 'Request',
    POIID: 'TRAIN-T01',
    SaleID: 'POS-1',
    ServiceID: serviceId,
    ProtocolVersion: '3.0',
  }
}

/** A message as JSON: the POS writes the nexo wire strings the library's enums stand for. */
type NexoJson = { SaleToPOIRequest: Record<string, unknown> }

/** Sends a message as the POS's code would, through the library's request(). */
function send(message: NexoJson, api = terminalApi()): Promise<TerminalApiResponse> {
  return api.request(message as unknown as TerminalApiRequest)
}

function paymentRequest(serviceId: string, amount: number, order: string, paymentType?: string, currency = 'USD'): NexoJson {
  return {
    SaleToPOIRequest: {
      MessageHeader: header('Payment', serviceId),
      PaymentRequest: {
        SaleData: { SaleTransactionID: { TransactionID: order, TimeStamp: new Date().toISOString() } },
        PaymentTransaction: { AmountsReq: { Currency: currency, RequestedAmount: amount } },
        ...(paymentType ? { PaymentData: { PaymentType: paymentType } } : {}),
      },
    },
  }
}

function statusRequest(serviceId: string): NexoJson {
  return {
    SaleToPOIRequest: {
      MessageHeader: header('TransactionStatus', nextServiceId()),
      TransactionStatusRequest: { MessageReference: { MessageCategory: 'Payment', SaleID: 'POS-1', ServiceID: serviceId } },
    },
  }
}

/** Asks again every 100 ms until `check` gives something, for at most `timeoutMs`. */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function sales(): Promise<SaleView[]> {
  const result = await agent.service.dispatch(OWNER_POS, 'listSales', {})
  if (!result.ok) throw new Error(result.error.message)
  return result.value as SaleView[]
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pos-agent-nexo-'))
  runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  agent = await startAgent(runtime, defaultReaderFactory)
  token = agent.apiToken.token
  nexo = await startNexoEndpoint(runtime, agent, { port: 8443 })
}, 60_000)

afterAll(async () => {
  await nexo?.close()
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("the nexo endpoint with Adyen's Node library as the POS", () => {
  let paidSaleId = ''

  it('Login, then a payment approved online: the card, the approval code, the POS order echoed, receipts', async () => {
    const login = await send({
      SaleToPOIRequest: {
        MessageHeader: header('Login', nextServiceId()),
        LoginRequest: {
          DateTime: new Date().toISOString(),
          SaleSoftware: { ManufacturerID: 'Acme', ApplicationName: 'ShopPOS', SoftwareVersion: '1.0', CertificationCode: 'x' },
          OperatorLanguage: 'en',
          OperatorID: 'ann',
        },
      },
    })
    expect(login.SaleToPOIResponse?.LoginResponse?.Response.Result).toBe('Success')
    expect(login.SaleToPOIResponse?.LoginResponse?.POISystemData?.POISoftware.ApplicationName).toBe('pos-agent')

    const serviceId = nextServiceId()
    const answer = await send(paymentRequest(serviceId, 12.34, 'ORDER-42'))
    const response = answer.SaleToPOIResponse!
    expect(response.MessageHeader).toMatchObject({
      MessageCategory: 'Payment',
      MessageType: 'Response',
      ServiceID: serviceId,
      SaleID: 'POS-1',
    })
    const payment = response.PaymentResponse!
    expect(payment.Response.Result).toBe('Success')
    expect(payment.SaleData.SaleTransactionID.TransactionID).toBe('ORDER-42')
    expect(payment.PaymentResult?.OnlineFlag).toBe(true)
    expect(payment.PaymentResult?.AmountsResp).toMatchObject({ AuthorizedAmount: 12.34, Currency: 'USD' })
    expect(payment.PaymentResult?.PaymentInstrumentData?.CardData?.MaskedPan).toMatch(/0010$/)
    expect(payment.PaymentResult?.PaymentInstrumentData?.CardData?.EntryMode).toEqual(['ICC'])
    expect(payment.PaymentResult?.PaymentAcquirerData?.ApprovalCode).toMatch(/^\w{6}$/)
    expect(payment.PaymentReceipt?.map((r) => r.DocumentQualifier)).toEqual(['CashierReceipt', 'CustomerReceipt'])
    const receiptText = payment.PaymentReceipt![0]!.OutputContent.OutputText!.map((line) => line.Text).join('\n')
    expect(receiptText).toContain('USD 12.34')
    expect(receiptText).not.toMatch(/4761739001010010/)
    paidSaleId = payment.POIData.POITransactionID.TransactionID
    const sale = (await sales()).find((s) => s.id === paidSaleId)
    expect(sale).toMatchObject({ state: 'approved', startedBy: 'pos', orderReference: 'ORDER-42', amountMinor: 1234 })

    // The same ServiceID again (the POS resent it): the same answer, never a second charge.
    const before = (await sales()).length
    const again = await send(paymentRequest(serviceId, 12.34, 'ORDER-42'))
    expect(again.SaleToPOIResponse?.PaymentResponse?.POIData.POITransactionID.TransactionID).toBe(paidSaleId)
    expect((await sales()).length).toBe(before)
    // The same ServiceID with another amount is refused, and charges nothing.
    const clash = await send(paymentRequest(serviceId, 99, 'ORDER-43'))
    expect(clash.SaleToPOIResponse?.PaymentResponse?.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed' })
    expect((await sales()).length).toBe(before)
  }, 60_000)

  it('a payment whose request the POS gave up on: TransactionStatus says in progress, then repeats the answer', async () => {
    const serviceId = nextServiceId()
    // The POS's socket times out after 1 s; the sale goes on at the terminal.
    await expect(send(paymentRequest(serviceId, 5, 'ORDER-50'), terminalApi({ timeoutMs: 1_000 }))).rejects.toBeDefined()
    const inProgress = await send(statusRequest(serviceId))
    expect(inProgress.SaleToPOIResponse?.TransactionStatusResponse?.Response).toMatchObject({
      Result: 'Failure',
      ErrorCondition: 'InProgress',
    })
    const done = await eventually(async () => {
      const status = await send(statusRequest(serviceId))
      return String(status.SaleToPOIResponse?.TransactionStatusResponse?.Response.Result) === 'Success' ? status : undefined
    }, 20_000)
    const repeated = done.SaleToPOIResponse!.TransactionStatusResponse!.RepeatedMessageResponse!
    expect(repeated.MessageHeader).toMatchObject({ MessageCategory: 'Payment', ServiceID: serviceId })
    const payment = repeated.RepeatedResponseMessageBody.PaymentResponse!
    expect(payment.Response.Result).toBe('Success')
    expect(payment.SaleData.SaleTransactionID.TransactionID).toBe('ORDER-50')
    expect(payment.PaymentResult?.AmountsResp?.AuthorizedAmount).toBe(5)
    // A ServiceID the terminal never saw.
    const unknown = await send(statusRequest('NEVER'))
    expect(unknown.SaleToPOIResponse?.TransactionStatusResponse?.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotFound' })
  }, 60_000)

  it('Abort stops a payment still waiting for the card: its answer says Aborted, nothing is charged', async () => {
    const serviceId = nextServiceId()
    const pending = send(paymentRequest(serviceId, 7.5, 'ORDER-51'))
    // The simulated PIN pad presents its card 2.5 s after the reader asks; abort before that.
    await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${serviceId}`)
      return sale?.state === 'readingCard' ? sale : undefined
    }, 5_000)
    const abort = await send({
      SaleToPOIRequest: {
        MessageHeader: header('Abort', nextServiceId()),
        AbortRequest: {
          AbortReason: 'MerchantAbort',
          MessageReference: { MessageCategory: 'Payment', SaleID: 'POS-1', ServiceID: serviceId },
        },
      },
    })
    // nexo gives Abort no response message: the library returns an empty one.
    expect(abort.SaleToPOIResponse).toBeUndefined()
    const payment = (await pending).SaleToPOIResponse!.PaymentResponse!
    expect(payment.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'Aborted' })
    expect(payment.PaymentResult?.AmountsResp?.AuthorizedAmount).toBe(0)
    const sale = (await sales()).find((s) => s.id === payment.POIData.POITransactionID.TransactionID)
    expect(sale?.state).toBe('abandoned')
  }, 60_000)

  it('Reversal voids the earlier payment (the customer presents the card again) and the bank confirms it', async () => {
    expect(paidSaleId).not.toBe('')
    const answer = await send({
      SaleToPOIRequest: {
        MessageHeader: header('Reversal', nextServiceId()),
        ReversalRequest: {
          OriginalPOITransaction: { POITransactionID: { TransactionID: paidSaleId, TimeStamp: new Date().toISOString() }, SaleID: 'POS-1' },
          ReversalReason: 'MerchantCancel',
          ReversedAmount: 12.34,
        },
      },
    })
    const reversal = answer.SaleToPOIResponse!.ReversalResponse!
    expect(reversal.Response.Result).toBe('Success')
    expect(reversal.ReversedAmount).toBe(12.34)
    expect((await sales()).find((s) => s.id === paidSaleId)?.state).toBe('cancelled')
  }, 60_000)

  it('GetTotals and Diagnosis: the open batch in nexo totals, the reader and the bank reachable', async () => {
    const totals = await send({
      SaleToPOIRequest: { MessageHeader: header('GetTotals', nextServiceId()), GetTotalsRequest: {} },
    })
    const report = totals.SaleToPOIResponse!.GetTotalsResponse!
    expect(report.Response.Result).toBe('Success')
    expect(report.POIReconciliationID).toBe('1')
    const debit = report.TransactionTotals!.flatMap((t) => t.PaymentTotals ?? [])
    // The 5.00 payment stands; the 12.34 one was voided, the aborted one never charged.
    expect(debit.reduce((sum, t) => sum + t.TransactionAmount, 0)).toBe(5)

    const diagnosis = await send({
      SaleToPOIRequest: { MessageHeader: header('Diagnosis', nextServiceId()), DiagnosisRequest: { HostDiagnosisFlag: true } },
    })
    const status = diagnosis.SaleToPOIResponse!.DiagnosisResponse!
    expect(status.POIStatus).toMatchObject({ GlobalStatus: 'OK', CardReaderOKFlag: true, CommunicationOKFlag: true })
    expect(status.HostStatus?.[0]?.IsReachableFlag).toBe(true)
    expect(status.LoggedSaleID).toEqual(['POS-1'])
  }, 30_000)
})

describe('an Abort is the POS that started the payment', () => {
  it('an Abort from another integrator token, or another SaleID, is rejected in plain words and the payment goes on', async () => {
    const serviceId = nextServiceId()
    const pending = send(paymentRequest(serviceId, 8.25, 'ORDER-52'))
    const waiting = await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${serviceId}`)
      return sale?.state === 'readingCard' ? sale : undefined
    }, 5_000)
    const abortOf = (saleId: string): NexoJson => ({
      SaleToPOIRequest: {
        MessageHeader: { ...header('Abort', nextServiceId()), SaleID: saleId },
        AbortRequest: {
          AbortReason: 'MerchantAbort',
          MessageReference: { MessageCategory: 'Payment', SaleID: 'POS-1', ServiceID: serviceId },
        },
      },
    })
    // A second POS with a token of its own (scope sell), writing the first POS's SaleID in its header.
    const other = agent.tokens.create('second nexo POS')
    try {
      const refused = await send(abortOf('POS-1'), terminalApi({ apiKey: other.token }))
      expect(refused.SaleToPOIResponse).toBeUndefined()
      const event = refused.SaleToPOIRequest!
      expect(event.MessageHeader).toMatchObject({
        MessageClass: 'Event',
        MessageCategory: 'Event',
        MessageType: 'Notification',
        SaleID: 'POS-1',
      })
      expect(event.EventNotification).toMatchObject({ EventToNotify: 'Reject' })
      expect(new URLSearchParams(event.EventNotification!.EventDetails).get('message')).toBe(
        'this payment was started with another integrator token: only the POS that started it can stop it',
      )
      const rejected = JSON.parse(Buffer.from(event.EventNotification!.RejectedMessage, 'base64').toString()) as NexoJson
      expect(rejected.SaleToPOIRequest).toHaveProperty('AbortRequest')
      // The same token as the payment, but another POS's SaleID in the header.
      const otherPos = (await send(abortOf('POS-2'))).SaleToPOIRequest!
      expect(new URLSearchParams(otherPos.EventNotification!.EventDetails).get('message')).toBe(
        'this POS cannot stop a payment another POS started',
      )
      expect((await sales()).find((s) => s.id === waiting.id)?.state).toBe('readingCard')
    } finally {
      agent.tokens.revoke(other.view.id)
    }
    // Nothing stopped it: the simulated PIN pad presents its card and the bank approves.
    const payment = (await pending).SaleToPOIResponse!.PaymentResponse!
    expect(payment.Response.Result).toBe('Success')
    expect(payment.POIData.POITransactionID.TransactionID).toBe(waiting.id)
  }, 60_000)
})

describe('a payment whose customer asked for spoken prompts', () => {
  it("SaleToPOIData with Adyen's accessibility Operation: the sale is marked for speech; a payment without it is not", async () => {
    const serviceId = nextServiceId()
    const message = paymentRequest(serviceId, 2.5, 'ORDER-53')
    const body = message.SaleToPOIRequest.PaymentRequest as { SaleData: Record<string, unknown> }
    body.SaleData.SaleToPOIData = Buffer.from(JSON.stringify({ Operation: [{ Type: 'Payment', Variant: 'Accessibility' }] })).toString(
      'base64',
    )
    const pending = send(message)
    const waiting = await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${serviceId}`)
      return sale?.state === 'readingCard' ? sale : undefined
    }, 5_000)
    expect(waiting.speech).toBe(true)
    expect((await pending).SaleToPOIResponse!.PaymentResponse!.Response.Result).toBe('Success')

    const quiet = nextServiceId()
    expect((await send(paymentRequest(quiet, 1.5, 'ORDER-54'))).SaleToPOIResponse!.PaymentResponse!.Response.Result).toBe('Success')
    expect((await sales()).find((s) => s.reference === `nexo:POS-1:${quiet}`)).not.toHaveProperty('speech')
  }, 60_000)
})

describe('what a POS gets for a message the terminal cannot take', () => {
  it('an amount with more decimals than the currency, an unsupported payment type, an unknown category: nexo failures', async () => {
    const odd = await send(paymentRequest(nextServiceId(), 1.005, 'ORDER-60'))
    expect(odd.SaleToPOIResponse?.PaymentResponse?.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'MessageFormat' })
    const refused = await send(paymentRequest(nextServiceId(), 3, 'ORDER-61', 'OneTimeReservation'))
    expect(refused.SaleToPOIResponse?.PaymentResponse?.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed' })
    const other = await send({
      SaleToPOIRequest: { MessageHeader: header('CardAcquisition', nextServiceId()), CardAcquisitionRequest: {} },
    })
    expect(other.SaleToPOIResponse?.CardAcquisitionResponse?.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed' })
  }, 30_000)

  it('a missing or wrong X-API-Key, garbage JSON and a message without a header: HTTP errors that say what is wrong', async () => {
    await expect(
      send(paymentRequest(nextServiceId(), 1, 'X'), terminalApi({ apiKey: 'not-the-token-of-this-terminal-at-all' })),
    ).rejects.toMatchObject({
      statusCode: 401,
      errorCode: 'TOKEN_INVALID',
    })
    expect(await raw('{"SaleToPOIRequest":', { 'x-api-key': token })).toMatchObject({ status: 400, body: { errorCode: 'MessageFormat' } })
    expect(await raw('{"SaleToPOIRequest":{}}', { 'x-api-key': token })).toMatchObject({
      status: 400,
      body: { errorCode: 'MessageFormat' },
    })
    expect(await raw('{}', {})).toMatchObject({ status: 401, body: { errorCode: 'UNAUTHORISED' } })
    // An integrator token a manager made opens the endpoint too, until it is revoked.
    const made = agent.tokens.create('nexo POS')
    const diagnosis = () =>
      send(
        { SaleToPOIRequest: { MessageHeader: header('Diagnosis', nextServiceId()), DiagnosisRequest: {} } },
        terminalApi({ apiKey: made.token }),
      )
    expect(String((await diagnosis()).SaleToPOIResponse?.DiagnosisResponse?.Response.Result)).toBe('Success')
    agent.tokens.revoke(made.view.id)
    await expect(diagnosis()).rejects.toMatchObject({ statusCode: 401, errorCode: 'TOKEN_INVALID' })
    // Nothing was charged by any of these.
    expect((await sales()).filter((s) => s.orderReference === 'X')).toEqual([])
  })
})

/** A request by hand, for what the library would never send; the endpoint's certificate is validated against its CA. */
async function raw(body: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const answer = await postNexo({ body, headers, ca: readFileSync(nexo.caFile, 'utf8') })
  return { status: answer.status, body: answer.json }
}

describe('how a payment the bank did not answer ends, as the POS reads it', () => {
  const host = () => agent.connection.trainingHost!
  const atHost = (saleId: string) =>
    host()
      .ledger()
      .payments.filter((p) => p.merchantTransID === saleId)
  afterEach(() => host().clearFaults())

  it('the bank unreachable, offline allowed: Success with OnlineFlag false, no approval code, forwarded to the bank later', async () => {
    // The host's own signed 503: provably nothing recorded, so the payment may be stored (docs/gateway.md §D1).
    host().setFault('payment', 'http-503', 1)
    const answer = await send(paymentRequest(nextServiceId(), 9.25, 'ORDER-70'))
    const payment = answer.SaleToPOIResponse!.PaymentResponse!
    expect(payment.Response.Result).toBe('Success')
    expect(payment.Response.ErrorCondition).toBeUndefined()
    expect(new URLSearchParams(payment.Response.AdditionalResponse).get('offline')).toBe('true')
    expect(payment.PaymentResult?.OnlineFlag).toBe(false)
    expect(payment.PaymentResult?.AmountsResp).toMatchObject({ AuthorizedAmount: 9.25, Currency: 'USD' })
    // Approved by the card alone: there is no bank approval code to give.
    expect(payment.PaymentResult?.PaymentAcquirerData?.ApprovalCode).toBeUndefined()
    const receipt = payment.PaymentReceipt![1]!.OutputContent.OutputText!.map((line) => line.Text).join('\n')
    expect(receipt).toContain('APPROVED OFFLINE')
    const saleId = payment.POIData.POITransactionID.TransactionID
    expect((await sales()).find((s) => s.id === saleId)).toMatchObject({ offline: true, startedBy: 'pos', amountMinor: 925 })
    expect(['storedOffline', 'forwarded']).toContain((await sales()).find((s) => s.id === saleId)?.state)

    // The bank is back: the stored payment is forwarded once and the POS's answer still stands.
    agent.engine.forwarder.wake()
    await eventually(async () => ((await sales()).find((s) => s.id === saleId)?.state === 'forwarded' ? true : undefined), 15_000)
    expect(atHost(saleId).map((p) => p.status)).toEqual(['Captured'])
  }, 60_000)

  it("the bank's answer lost after it charged: the agent reverses, the POS gets Failure UnreachableHost, nothing stays charged", async () => {
    // The host records the payment, then the connection drops: the agent cannot know, so it reverses.
    host().setFault('payment', 'process-then-drop', 1)
    const serviceId = nextServiceId()
    const answer = await send(paymentRequest(serviceId, 8.4, 'ORDER-71'))
    const payment = answer.SaleToPOIResponse!.PaymentResponse!
    expect(payment.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'UnreachableHost' })
    expect(new URLSearchParams(payment.Response.AdditionalResponse).get('message')).toMatch(
      /the bank.s answer did not come in time, or could not be read/i,
    )
    expect(payment.PaymentResult?.AmountsResp?.AuthorizedAmount).toBe(0)
    expect(payment.PaymentResult?.PaymentAcquirerData?.ApprovalCode).toBeUndefined()
    const saleId = payment.POIData.POITransactionID.TransactionID
    expect(['reversalPending', 'reversed']).toContain((await sales()).find((s) => s.id === saleId)?.state)

    // The reversal reaches the bank; asked again, the POS gets the same failure, and the bank holds nothing charged.
    agent.engine.forwarder.wake()
    await eventually(async () => ((await sales()).find((s) => s.id === saleId)?.state === 'reversed' ? true : undefined), 15_000)
    expect(atHost(saleId).map((p) => p.status)).toEqual(['Reversed'])
    const status = await send(statusRequest(serviceId))
    const repeated =
      status.SaleToPOIResponse!.TransactionStatusResponse!.RepeatedMessageResponse!.RepeatedResponseMessageBody.PaymentResponse!
    expect(repeated.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'UnreachableHost' })
    expect(repeated.POIData.POITransactionID.TransactionID).toBe(saleId)
  }, 60_000)

  it('the card refuses after the bank approved (AAC at its last word): the agent reverses, the POS gets Failure Refusal', async () => {
    const serviceId = nextServiceId()
    const pending = send(paymentRequest(serviceId, 6.2, 'ORDER-81'))
    await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${serviceId}`)
      return sale?.state === 'readingCard' ? sale : undefined
    }, 5_000)
    const presented = await agent.service.dispatch(COUNTER, 'presentTestCard', { name: 'aac-after-approval' })
    expect(presented.ok).toBe(true)
    const payment = (await pending).SaleToPOIResponse!.PaymentResponse!
    // The bank could be reached and answered: the refusal is the card's, and nexo calls that Refusal.
    expect(payment.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'Refusal' })
    expect(new URLSearchParams(payment.Response.AdditionalResponse).get('message')).toMatch(
      /card refused the payment after the bank approved/i,
    )
    expect(payment.PaymentResult?.AmountsResp?.AuthorizedAmount).toBe(0)
    expect(payment.PaymentResult?.PaymentAcquirerData?.ApprovalCode).toBeUndefined()
    const saleId = payment.POIData.POITransactionID.TransactionID
    expect(['reversalPending', 'reversed']).toContain((await sales()).find((s) => s.id === saleId)?.state)

    // Reversed at the bank; asked again, the POS gets the same answer.
    agent.engine.forwarder.wake()
    await eventually(async () => ((await sales()).find((s) => s.id === saleId)?.state === 'reversed' ? true : undefined), 15_000)
    const status = await send(statusRequest(serviceId))
    const repeated =
      status.SaleToPOIResponse!.TransactionStatusResponse!.RepeatedMessageResponse!.RepeatedResponseMessageBody.PaymentResponse!
    expect(repeated.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'Refusal' })
  }, 60_000)

  it('the bank unreachable and the card refuses to approve offline: Failure Refusal, the card refused it', async () => {
    host().setFault('payment', 'http-503', 1)
    const serviceId = nextServiceId()
    const pending = send(paymentRequest(serviceId, 6.3, 'ORDER-82'))
    await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${serviceId}`)
      return sale?.state === 'readingCard' ? sale : undefined
    }, 5_000)
    expect((await agent.service.dispatch(COUNTER, 'presentTestCard', { name: 'offline-decline' })).ok).toBe(true)
    const payment = (await pending).SaleToPOIResponse!.PaymentResponse!
    expect(payment.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'Refusal' })
    expect(new URLSearchParams(payment.Response.AdditionalResponse).get('message')).toMatch(/card refused the payment/i)
    expect((await sales()).find((s) => s.id === payment.POIData.POITransactionID.TransactionID)).toMatchObject({
      state: 'declined',
      offline: true,
    })
  }, 60_000)
})

describe('Logout', () => {
  const diagnosis = async (): Promise<string[]> => {
    const answer = await send({ SaleToPOIRequest: { MessageHeader: header('Diagnosis', nextServiceId()), DiagnosisRequest: {} } })
    return answer.SaleToPOIResponse!.DiagnosisResponse!.LoggedSaleID ?? []
  }
  const asPos = (saleId: string, category: 'Login' | 'Logout', body: Record<string, unknown>): NexoJson => ({
    SaleToPOIRequest: { MessageHeader: { ...header(category, nextServiceId()), SaleID: saleId }, [`${category}Request`]: body },
  })

  it('forgets the POS that sends it: Diagnosis no longer lists it, the other POS stay logged in', async () => {
    const login = (saleId: string, operator: string) =>
      send(
        asPos(saleId, 'Login', {
          DateTime: new Date().toISOString(),
          SaleSoftware: { ManufacturerID: 'Acme', ApplicationName: 'ShopPOS', SoftwareVersion: '1.0', CertificationCode: 'x' },
          OperatorLanguage: 'en',
          OperatorID: operator,
        }),
      )
    await login('POS-L1', 'ann')
    await login('POS-L2', 'bob')
    expect(await diagnosis()).toEqual(expect.arrayContaining(['POS-L1', 'POS-L2']))

    const logout = await send(asPos('POS-L1', 'Logout', {}))
    expect(logout.SaleToPOIResponse?.MessageHeader).toMatchObject({ MessageCategory: 'Logout', MessageType: 'Response', SaleID: 'POS-L1' })
    expect(logout.SaleToPOIResponse?.LogoutResponse?.Response.Result).toBe('Success')
    const logged = await diagnosis()
    expect(logged).not.toContain('POS-L1')
    expect(logged).toContain('POS-L2')
  })
})

/** A Reversal of `saleId` from POS-1 under `serviceId`, for `amount` (major units). */
function reversalRequest(serviceId: string, saleId: string, amount: number): NexoJson {
  return {
    SaleToPOIRequest: {
      MessageHeader: header('Reversal', serviceId),
      ReversalRequest: {
        OriginalPOITransaction: { POITransactionID: { TransactionID: saleId, TimeStamp: new Date().toISOString() }, SaleID: 'POS-1' },
        ReversalReason: 'MerchantCancel',
        ReversedAmount: amount,
      },
    },
  }
}

function reversalStatusRequest(serviceId: string): NexoJson {
  return {
    SaleToPOIRequest: {
      MessageHeader: header('TransactionStatus', nextServiceId()),
      TransactionStatusRequest: { MessageReference: { MessageCategory: 'Reversal', SaleID: 'POS-1', ServiceID: serviceId } },
    },
  }
}

/** What the training host credited for `saleId` (credits naming it), in minor units. */
function creditedAtHost(saleId: string): number {
  return agent.connection
    .trainingHost!.ledger()
    .entries.filter(
      (e) => e.operation === 'merchandiseCredit' && e.originalMerchantTransID === saleId && e.status === 'Success' && !e.replayed,
    )
    .reduce((sum, e) => sum + Math.round(Number(e.amount?.value ?? 0) * 100), 0)
}

describe('nexo speaks returns, as Adyen integrations refund', () => {
  it('a Reversal with a ReversedAmount below the payment is a return of that amount to its card; repeated, it is the same return', async () => {
    const paid = (await send(paymentRequest(nextServiceId(), 20, 'ORDER-90'))).SaleToPOIResponse!.PaymentResponse!
    expect(paid.Response.Result).toBe('Success')
    const saleId = paid.POIData.POITransactionID.TransactionID
    const serviceId = nextServiceId()
    const answer = (await send(reversalRequest(serviceId, saleId, 5))).SaleToPOIResponse!.ReversalResponse!
    expect(answer.Response.Result).toBe('Success')
    expect(answer.ReversedAmount).toBe(5)
    expect(answer.OriginalPOITransaction?.POITransactionID?.TransactionID).toBe(saleId)
    const returnId = answer.POIData!.POITransactionID.TransactionID
    expect((await sales()).find((s) => s.id === returnId)).toMatchObject({
      kind: 'return',
      originalId: saleId,
      amountMinor: 500,
      startedBy: 'pos',
    })
    expect((await sales()).find((s) => s.id === saleId)).toMatchObject({ state: 'approved', returnableMinor: 1500 })
    agent.engine.forwarder.wake()
    await eventually(async () => ((await sales()).find((s) => s.id === returnId)?.state === 'credited' ? true : undefined), 15_000)
    expect(creditedAtHost(saleId)).toBe(500)

    // The POS sends the same Reversal again (its socket timed out): the same return, not a second credit.
    const again = (await send(reversalRequest(serviceId, saleId, 5))).SaleToPOIResponse!.ReversalResponse!
    expect(again.POIData!.POITransactionID.TransactionID).toBe(returnId)
    const status = (await send(reversalStatusRequest(serviceId))).SaleToPOIResponse!.TransactionStatusResponse!
    expect(status.Response.Result).toBe('Success')
    expect(status.RepeatedMessageResponse!.RepeatedResponseMessageBody.ReversalResponse!.ReversedAmount).toBe(5)
    // More than what is left of the payment is refused, by the same rule as at the counter.
    const tooMuch = (await send(reversalRequest(nextServiceId(), saleId, 19.99))).SaleToPOIResponse!.ReversalResponse!
    expect(tooMuch.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed' })
    expect(creditedAtHost(saleId)).toBe(500)
  }, 60_000)

  it('a Payment with PaymentType Refund is a return without a sale, within its limits; a token without the refund scope may not', async () => {
    const serviceId = nextServiceId()
    const refund = (await send(paymentRequest(serviceId, 10, 'ORDER-91', 'Refund'))).SaleToPOIResponse!.PaymentResponse!
    expect(refund.Response.Result).toBe('Success')
    expect(refund.PaymentResult?.PaymentType).toBe('Refund')
    expect(refund.PaymentResult?.AmountsResp).toMatchObject({ AuthorizedAmount: 10, Currency: 'USD' })
    const returnId = refund.POIData.POITransactionID.TransactionID
    expect((await sales()).find((s) => s.id === returnId)).toMatchObject({ kind: 'return', amountMinor: 1000 })
    expect((await sales()).find((s) => s.id === returnId)?.originalId).toBeUndefined()
    // TransactionStatus finds it as it finds a payment.
    const status = (await send(statusRequest(serviceId))).SaleToPOIResponse!.TransactionStatusResponse!
    expect(status.RepeatedMessageResponse!.RepeatedResponseMessageBody.PaymentResponse!.PaymentResult?.PaymentType).toBe('Refund')
    // Past the limit of a return without a sale (100.00 by default): refused before the card.
    const above = (await send(paymentRequest(nextServiceId(), 100.01, 'ORDER-92', 'Refund'))).SaleToPOIResponse!.PaymentResponse!
    expect(above.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'PaymentRestriction' })

    const seller = agent.tokens.create('nexo POS that sells only')
    try {
      const refused = (await send(paymentRequest(nextServiceId(), 1, 'ORDER-93', 'Refund'), terminalApi({ apiKey: seller.token })))
        .SaleToPOIResponse!.PaymentResponse!
      expect(refused.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed' })
    } finally {
      agent.tokens.revoke(seller.view.id)
    }
    expect((await sales()).filter((s) => s.orderReference === 'ORDER-93' || s.amountMinor === 10_001)).toEqual([])
  }, 60_000)

  it("a Refund in another currency than the terminal's is refused before the card, whatever its amount: nothing is credited", async () => {
    for (const [currency, amount, order] of [
      ['GBP', 100, 'ORDER-94'],
      ['JPY', 10_000, 'ORDER-95'],
    ] as const) {
      const refused = (await send(paymentRequest(nextServiceId(), amount, order, 'Refund', currency))).SaleToPOIResponse!.PaymentResponse!
      expect(refused.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'PaymentRestriction' })
      // The catalogue's words, as the POS shows them to the cashier.
      expect(new URLSearchParams(refused.Response.AdditionalResponse).get('message')).toBe(wordsOf('CURRENCY_NOT_ACCEPTED'))
    }
    expect((await sales()).filter((s) => s.currency !== 'USD')).toEqual([])
  }, 60_000)
})

describe('nexo answers the same after a restart', () => {
  async function restart(): Promise<void> {
    await nexo.close()
    await agent.close()
    runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
    agent = await startAgent(runtime, defaultReaderFactory)
    token = agent.apiToken.token
    nexo = await startNexoEndpoint(runtime, agent, { port: 8443 })
  }

  it('a Reversal, an aborted payment and a login are found again; a payment cut by the restart is the terminal failing, not the bank unreachable', async () => {
    // A void through Reversal, and a payment stopped by Abort.
    const paid = (await send(paymentRequest(nextServiceId(), 3, 'ORDER-95'))).SaleToPOIResponse!.PaymentResponse!
    const paidId = paid.POIData.POITransactionID.TransactionID
    const reversalId = nextServiceId()
    expect((await send(reversalRequest(reversalId, paidId, 3))).SaleToPOIResponse!.ReversalResponse!.Response.Result).toBe('Success')
    const abortedId = nextServiceId()
    const pending = send(paymentRequest(abortedId, 4, 'ORDER-96'))
    await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${abortedId}`)
      return sale?.state === 'readingCard' ? sale : undefined
    }, 5_000)
    await send({
      SaleToPOIRequest: {
        MessageHeader: header('Abort', nextServiceId()),
        AbortRequest: {
          AbortReason: 'MerchantAbort',
          MessageReference: { MessageCategory: 'Payment', SaleID: 'POS-1', ServiceID: abortedId },
        },
      },
    })
    expect((await pending).SaleToPOIResponse!.PaymentResponse!.Response.ErrorCondition).toBe('Aborted')

    // A payment still with the bank when the terminal stops: the bank is slow, the terminal restarts.
    agent.connection.trainingHost!.setFault('payment', 'delay=4000', 1)
    const cutId = nextServiceId()
    const cut = send(paymentRequest(cutId, 6, 'ORDER-97')).catch(() => undefined)
    await eventually(async () => {
      const sale = (await sales()).find((s) => s.reference === `nexo:POS-1:${cutId}`)
      return sale?.state === 'sending' ? sale : undefined
    }, 10_000)
    const before = {
      reversal: (await send(reversalStatusRequest(reversalId))).SaleToPOIResponse!.TransactionStatusResponse!,
      aborted: (await send(statusRequest(abortedId))).SaleToPOIResponse!.TransactionStatusResponse!,
    }
    await restart()
    await cut

    const reversal = (await send(reversalStatusRequest(reversalId))).SaleToPOIResponse!.TransactionStatusResponse!
    expect(reversal.Response.Result).toBe('Success')
    expect(reversal.RepeatedMessageResponse).toEqual(before.reversal.RepeatedMessageResponse)
    const aborted = (await send(statusRequest(abortedId))).SaleToPOIResponse!.TransactionStatusResponse!
    const abortedAnswer = aborted.RepeatedMessageResponse!.RepeatedResponseMessageBody.PaymentResponse!
    expect(abortedAnswer.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'Aborted' })
    expect(abortedAnswer.Response).toEqual(before.aborted.RepeatedMessageResponse!.RepeatedResponseMessageBody.PaymentResponse!.Response)
    const diagnosis = (await send({ SaleToPOIRequest: { MessageHeader: header('Diagnosis', nextServiceId()), DiagnosisRequest: {} } }))
      .SaleToPOIResponse!.DiagnosisResponse!
    expect(diagnosis.LoggedSaleID).toContain('POS-1')

    // Recovery reversed the cut payment: the terminal stopped, the bank was not the one that failed.
    const cutStatus = (await send(statusRequest(cutId))).SaleToPOIResponse!.TransactionStatusResponse!
    const cutAnswer = cutStatus.RepeatedMessageResponse!.RepeatedResponseMessageBody.PaymentResponse!
    expect(cutAnswer.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'UnavailableService' })
    const cutSale = (await sales()).find((s) => s.reference === `nexo:POS-1:${cutId}`)
    expect(cutSale).toMatchObject({ cause: 'interrupted' })
    expect(['reversalPending', 'reversed']).toContain(cutSale?.state)
  }, 90_000)
})
