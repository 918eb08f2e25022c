/**
 * Which signed answers answer their request (host contract §1), as a table over the pure classifier:
 * a reversal's record may name its original or no id at all, never another; the original `payment` a
 * follow-up's answer returns must be the one in its path; a record of an operation with an id of its
 * own must name it. The same rules against the training host over HTTPS: gateway-client.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { identityOf } from '../../../src-main/gateway/answer-match'
import { classifyResponse } from '../../../src-main/gateway/outcome'
import type { OperationKind } from '../../../src-main/gateway/operations'

const ORIGINAL = 'T1-ORIGINAL-0001'
const svcTransInfo = { svcTransID: 'SVC-1' }
const original = (id = ORIGINAL) => ({ status: 'Reversed', merchantTransInfo: { merchantTransID: id } })

function classify(kind: OperationKind, body: unknown, answer: Record<string, unknown>, originalId?: string) {
  const base = { operation: kind, msgId: 'M1', latencyMs: 1 }
  return classifyResponse(base, 200, { result: { code: 'S0000' }, ...answer }, identityOf(kind, body, originalId))
}

describe('a reversal answer', () => {
  const reversal = (answer: Record<string, unknown>) => classify('reversal', { initiatingReason: 'test' }, answer, ORIGINAL)

  it.each([
    ['a bare record: status and svcTransInfo, no payment', { reversal: { status: 'Success', svcTransInfo } }],
    ['a record with an empty merchantTransInfo', { reversal: { status: 'Success', svcTransInfo, merchantTransInfo: {} } }],
    ['a record with a null merchantTransInfo', { reversal: { status: 'Success', svcTransInfo, merchantTransInfo: null } }],
    ['a bare record with the original payment', { reversal: { status: 'Success', svcTransInfo }, payment: original() }],
    [
      'a record naming the original, with the payment',
      { reversal: { status: 'Success', svcTransInfo, merchantTransInfo: { merchantTransID: ORIGINAL } }, payment: original() },
    ],
  ])('%s → approved', (_form, answer) => {
    expect(reversal(answer)).toMatchObject({ kind: 'approved', svcTransID: 'SVC-1' })
  })

  it.each([
    ['a record naming another id', { reversal: { status: 'Success', merchantTransInfo: { merchantTransID: 'T1-OTHER' } } }, /"T1-OTHER"/],
    ['a record naming a number for an id', { reversal: { status: 'Success', merchantTransInfo: { merchantTransID: 7 } } }, /"7"/],
    [
      'a bare record with another payment',
      { reversal: { status: 'Success', svcTransInfo }, payment: original('T1-OTHER') },
      /payment "T1-OTHER"/,
    ],
  ])('%s → unknown', (_form, answer, why) => {
    expect(reversal(answer)).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(why) })
  })
})

describe('the answers of operations with an id of their own', () => {
  const info = { merchantTransID: 'T1-CANCEL-0001', merchantTransTime: '2026-11-21T10:00:00+01:00' }

  it('a cancel answered with its own record and the original payment → approved; with another payment → unknown', () => {
    const cancel = { status: 'Success', merchantTransInfo: { merchantTransID: info.merchantTransID } }
    expect(classify('cancel', { merchantTransInfo: info }, { cancel, payment: original() }, ORIGINAL)).toMatchObject({ kind: 'approved' })
    expect(classify('cancel', { merchantTransInfo: info }, { cancel, payment: original('T1-OTHER') }, ORIGINAL)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/not this request's original/),
    })
  })

  it('a cancel or a payment whose record names no id → unknown: only a reversal has none of its own', () => {
    expect(classify('cancel', { merchantTransInfo: info }, { cancel: { status: 'Success', svcTransInfo } }, ORIGINAL)).toMatchObject({
      kind: 'unknown',
    })
    const body = { merchantTransInfo: info, transAmount: { currency: 'USD', value: '1.00' } }
    expect(classify('payment', body, { payment: { status: 'Authorised', svcTransInfo } })).toMatchObject({ kind: 'unknown' })
  })
})
