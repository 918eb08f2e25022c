import { describe, expect, it } from 'vitest'
import { FaultBook, faultRuleFromJson, parseFault, parseFaultSpec } from '../../../src-main/training/host/faults'

describe('parseFaultSpec (the --fault flag)', () => {
  it.each([
    ['payment:delay=2000', { operation: 'payment', fault: { kind: 'delay', ms: 2000 } }],
    ['*:process-then-drop', { operation: '*', fault: { kind: 'process-then-drop' } }],
    ['reversal:http-503x3', { operation: 'reversal', fault: { kind: 'http-503' }, times: 3 }],
    ['payment:delay=500x2', { operation: 'payment', fault: { kind: 'delay', ms: 500 }, times: 2 }],
    ['svc.offline.tips:garbage-body', { operation: 'tips', fault: { kind: 'garbage-body' } }],
    ['capture:bad-signature', { operation: 'capture', fault: { kind: 'bad-signature' } }],
    ['cancel:drop-before-processing', { operation: 'cancel', fault: { kind: 'drop-before-processing' } }],
  ])('%s', (spec, expected) => {
    expect(parseFaultSpec(spec)).toEqual(expected)
  })

  it.each([
    'payment',
    ':http-503',
    'refund:http-503',
    'payment:explode',
    'payment:delay',
    'payment:delay=abc',
    'payment:http-503=5',
    'payment:http-503x0',
    'payment:delay=9999999',
  ])('rejects %j with a message', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/./)
  })
})

describe('FaultBook', () => {
  it('a specific operation wins over *, and times counts down to removal', () => {
    const book = new FaultBook()
    book.set('*', 'http-503')
    book.set('payment', parseFault('delay=10'), 2)
    expect(book.take('payment')).toEqual({ kind: 'delay', ms: 10 })
    expect(book.list()).toContainEqual({ operation: 'payment', fault: { kind: 'delay', ms: 10 }, times: 1 })
    expect(book.take('payment')).toEqual({ kind: 'delay', ms: 10 })
    expect(book.take('payment')).toEqual({ kind: 'http-503' })
    expect(book.take('reversal')).toEqual({ kind: 'http-503' })
    book.clear('*')
    expect(book.take('reversal')).toBeUndefined()
  })

  it('replaces the fault of a target and clears all', () => {
    const book = new FaultBook()
    book.set('tips', 'garbage-body')
    book.set('tips', 'bad-signature')
    expect(book.list()).toEqual([{ operation: 'tips', fault: { kind: 'bad-signature' } }])
    book.clear()
    expect(book.list()).toEqual([])
  })

  it('refuses bad counts and kinds', () => {
    const book = new FaultBook()
    expect(() => book.set('payment', 'http-503', 0)).toThrow(/times/)
    expect(() => book.set('payment', { kind: 'delay', ms: -1 })).toThrow(/delay/)
    expect(() => book.set('payment', 'nonsense')).toThrow(/unknown fault/)
  })

  it('reads the admin JSON form', () => {
    expect(faultRuleFromJson({ operation: 'payment', fault: 'delay=20', times: 1 })).toEqual({
      operation: 'payment',
      fault: { kind: 'delay', ms: 20 },
      times: 1,
    })
    expect(faultRuleFromJson({ operation: '*', fault: { kind: 'delay', ms: 5 } })).toEqual({
      operation: '*',
      fault: { kind: 'delay', ms: 5 },
    })
    expect(() => faultRuleFromJson({ fault: 'http-503' })).toThrow()
    expect(() => faultRuleFromJson({ operation: 'payment', fault: { kind: 'delay' } })).toThrow(/delay/)
  })
})
