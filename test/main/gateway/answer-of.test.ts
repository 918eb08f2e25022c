/**
 * The one reduction of a gateway outcome (gateway/outcome.ts `answerOf`): what the sale, the queue and
 * the rescue decide on, from outcomes the classifier itself makes. The answer is journaled as a sale's
 * event detail, so it carries the decision and nothing of the transport (the host's whole response,
 * the MsgID, the latency); its plain words hold no code a cashier would read as a state.
 */
import { describe, expect, it } from 'vitest'
import {
  answerOf,
  answerWords,
  classifyResponse,
  classifyTransportError,
  NOT_ANSWERED_WORDS,
  type GatewayOutcome,
} from '../../../src-main/gateway/outcome'

const base = { operation: 'payment' as const, msgId: 'M-1', latencyMs: 12 }
const record = { merchantTransInfo: { merchantTransID: 'T1-1' }, transAmount: { currency: 'USD', value: '12.34' } }
const request = { merchantTransID: 'T1-1', amount: { currency: 'USD', value: '12.34' } }

function answered(payment: Record<string, unknown>, code = 'S0000', message?: string): GatewayOutcome {
  return classifyResponse(base, 200, { result: { code, ...(message ? { message } : {}) }, payment: { ...record, ...payment } }, request)
}

describe('answerOf', () => {
  it('an approval keeps its authorisation code, and nothing of the transport', () => {
    const outcome = answered({ status: 'Authorised', pspTransInfo: { authorizationCode: 'A1B2C3' }, svcTransInfo: { svcTransID: 'S-9' } })
    expect(outcome.kind).toBe('approved')
    expect(answerOf(outcome)).toStrictEqual({ kind: 'approved', authCode: 'A1B2C3' })
    expect(answerWords(answerOf(outcome))).toBe('approved')
  })

  it("a decline keeps the bank's words, the issuer's after the host's", () => {
    const answer = answerOf(answered({ status: 'Failed', failureReason: 'Declined', pspFailureReason: 'insufficient funds' }))
    expect(answer).toStrictEqual({ kind: 'declined', reason: 'Declined: insufficient funds' })
    expect(answerWords(answer)).toBe('declined: Declined: insufficient funds')
  })

  it("a rejection keeps the host's code and message; its words say the bank refused the message", () => {
    const answer = answerOf(answered({}, 'V0008', 'merchantTransID exceeds 32 bytes'))
    expect(answer).toStrictEqual({ kind: 'rejected', code: 'V0008', message: 'merchantTransID exceeds 32 bytes' })
    expect(answerWords(answer)).toBe('refused by the bank: merchantTransID exceeds 32 bytes')
  })

  it('a request that never left keeps its technical cause; its words say the bank could not be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })
    const answer = answerOf(classifyTransportError(base, refused, true))
    expect(answer).toStrictEqual({ kind: 'notDelivered', reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' })
    expect(answerWords(answer)).toBe(NOT_ANSWERED_WORDS.notDelivered)
  })

  it('an answer about another request is no answer: its cause is kept for the log, its words are plain', () => {
    const answer = answerOf(answered({ status: 'Authorised', merchantTransInfo: { merchantTransID: 'T1-OTHER' } }))
    expect(answer).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/"T1-OTHER"/) })
    expect(answerWords(answer)).toBe(NOT_ANSWERED_WORDS.unknown)
  })

  it('the words for no answer name no outcome class, code or "host"', () => {
    for (const words of Object.values(NOT_ANSWERED_WORDS)) expect(words).not.toMatch(/notDelivered|unknown|host|[A-Z]\d{4}/)
  })
})
