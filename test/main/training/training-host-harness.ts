/**
 * Test harness for the training host: starts it in a temporary state folder and talks to it the way
 * the agent does: real HTTPS on 127.0.0.1, the generated CA as the only extra trust (validation
 * stays on), signed requests built with signer.ts, responses verified with signer.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { formatDateTime, newMsgId } from '../../../src-main/gateway/headers'
import { operationPath, type OperationKind } from '../../../src-main/gateway/operations'
import { sign, verifySignature, isSignType, type SignType } from '../../../src-main/gateway/signer'
import { startTrainingHost, type TrainingHost, type TrainingHostOptions } from '../../../src-main/training/host'

export const AID = 'acq-0001'
export const KEY = '0123456789abcdefABCDEF0123456789'
export const OTHER_AID = 'acq-0002'
export const OTHER_KEY = 'ZYXWVUTSRQPONMLKJIHGFEDCBA987654'
/** Business time of the host in most tests: card expiry 2611 is still valid, 2610 is expired. */
export const HOST_NOW = new Date('2026-11-21T12:00:00Z')

export const CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  luhnFail: '4111111111111112',
} as const

export interface Reply {
  status: number
  headers: Record<string, string>
  raw: Buffer
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response JSON freely
  json: any
  /** Whether the response's Authorization verifies with the key the request was signed with. */
  verified: boolean
  request: { path: string; dateTime: string; msgId: string }
}

export interface SendSpec {
  kind: OperationKind
  originalId?: string
  aid?: string
  /** An object is sent as JSON; a string or Buffer as is. */
  body: unknown
  signType?: SignType
  key?: string
  /** Header overrides (lower-case names); undefined removes the header. */
  headers?: Record<string, string | undefined>
  /** Changes the body after signing: a message altered on the way. */
  tamper?: (body: Buffer) => Buffer
  /** Header values replaced after signing, also a message altered on the way. */
  alterHeaders?: Record<string, string>
}

export interface Harness {
  host: TrainingHost
  agent: Agent
  dir: string
  send(spec: SendSpec): Promise<Reply>
  admin(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: unknown }>
  close(): Promise<void>
}

export async function startHarness(options: Partial<TrainingHostOptions> = {}): Promise<Harness> {
  const dir = options.stateDir ?? (await mkdtemp(join(tmpdir(), 'training-host-')))
  const host = await startTrainingHost({
    stateDir: dir,
    signingKeys: { [AID]: KEY, [OTHER_AID]: OTHER_KEY },
    now: () => HOST_NOW,
    ...options,
  })
  const agent = new Agent({ connect: { ca: host.caPem } })
  return {
    host,
    agent,
    dir,
    send: (spec) => sendSigned(host, agent, spec),
    admin: async (method, path, body) => {
      const res = await request(`${host.url}${path}`, {
        method,
        dispatcher: agent,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      })
      return { status: res.statusCode, json: await res.body.json() }
    },
    close: async () => {
      await host.close()
      await agent.close()
      if (options.stateDir === undefined) await rm(dir, { recursive: true, force: true })
    },
  }
}

export async function sendSigned(host: TrainingHost, agent: Agent, spec: SendSpec): Promise<Reply> {
  const aid = spec.aid ?? AID
  const signType = spec.signType ?? 'HMAC-SHA256'
  const key = spec.key ?? KEY
  const path = operationPath(spec.kind, aid, spec.originalId)
  const body = Buffer.isBuffer(spec.body)
    ? spec.body
    : Buffer.from(typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body), 'utf8')
  const dateTime = spec.headers && 'datetime' in spec.headers ? (spec.headers.datetime ?? '') : formatDateTime(new Date(), 60)
  const msgId = spec.headers && 'msgid' in spec.headers ? (spec.headers.msgid ?? '') : newMsgId()
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    datetime: dateTime,
    msgid: msgId,
    signtype: signType,
    authorization: sign({ method: 'POST', path, dateTime, msgId, body }, signType, key),
    ...spec.headers,
  }
  Object.assign(headers, spec.alterHeaders)
  const sent = spec.tamper ? spec.tamper(body) : body
  const res = await request(`${host.url}${path}`, {
    method: 'POST',
    dispatcher: agent,
    headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined)),
    body: sent,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  })
  const raw = Buffer.from(await res.body.arrayBuffer())
  const flat = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]))
  const replySignType = flat.signtype ?? ''
  const verified =
    isSignType(replySignType) &&
    verifySignature(
      { method: 'POST', path, dateTime: flat.datetime ?? '', msgId: flat.msgid ?? '', body: raw },
      replySignType,
      key,
      flat.authorization,
    )
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    json = undefined
  }
  return { status: res.statusCode, headers: flat, raw, json, verified, request: { path, dateTime, msgId } }
}

export const MERCHANT_TIME = '2026-11-21T13:00:00+01:00'

export interface PaymentOptions {
  value?: string
  currency?: string
  autoCapture?: boolean
  cardInfo?: Record<string, unknown>
  metadata?: string
}

export function paymentBody(id: string, o: PaymentOptions = {}): Record<string, unknown> {
  return {
    autoCapture: o.autoCapture ?? false,
    merchantTransInfo: { merchantTransID: id, merchantTransTime: MERCHANT_TIME },
    paymentMethod: { type: 'card', card: { cardInfo: o.cardInfo ?? { track2: `${CARDS.visa}=29121010000000000` }, posEntryMode: '051' } },
    pspInfo: { merchantID: 'M-0001', terminalID: 'T-0001' },
    transAmount: { currency: o.currency ?? 'USD', value: o.value ?? '12.34' },
    ...(o.metadata !== undefined ? { metadata: o.metadata } : {}),
  }
}

export function cancelBody(id: string, cardInfo?: Record<string, unknown>): Record<string, unknown> {
  return {
    merchantTransInfo: { merchantTransID: id, merchantTransTime: MERCHANT_TIME },
    paymentMethod: { type: 'card', card: cardInfo ? { cardInfo } : {} },
  }
}

export function amountBody(id: string, value: string, currency = 'USD'): Record<string, unknown> {
  return { merchantTransInfo: { merchantTransID: id, merchantTransTime: MERCHANT_TIME }, transAmount: { currency, value } }
}

let counter = 0
/** A fresh merchantTransID per call, readable in failure output. */
export function newId(prefix = 'T'): string {
  counter += 1
  return `${prefix}-${process.pid}-${counter}`
}
