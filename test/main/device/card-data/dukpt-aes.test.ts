import { describe, expect, it } from 'vitest'
import {
  aesInitialKey,
  aesIntermediateKey,
  aesKsnCounter,
  aesPinKey,
  derivationData,
  nextAesCounter,
} from '../../../../src-main/device/card-data/dukpt-aes'
import { DukptError } from '../../../../src-main/device/card-data/dukpt-tdes'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
const up = (bytes: Buffer): string => bytes.toString('hex').toUpperCase()

// ANSI X9.24-3:2017 B.1 and the AES-128 supplement (docs/card-reader.md §4.4; openemv/dukpt, moov-io/dukpt).
const BDK = hex('FEDCBA9876543210F1F1F1F1F1F1F1F1')
const IKID = hex('1234567890123456')
const IK = '1273671EA26AC29AFA4D1084127652A1'

describe('AES DUKPT golden vectors (X9.24-3:2017)', () => {
  it('uses the published derivation data for the initial key', () => {
    expect(up(derivationData('initialKey', IKID))).toBe('01018001000200801234567890123456')
  })

  it('derives the initial key from the BDK and Initial Key ID', () => {
    expect(up(aesInitialKey(BDK, IKID))).toBe(IK)
  })

  it.each([
    ['123456789012345600000001', '4F21B565BAD9835E112B6465635EAE44'],
    ['123456789012345600000002', '2F34D68DE10F68D38091A73B9E7C437C'],
  ])('KSN %s: intermediate derivation key %s', (ksn, key) => {
    expect(up(aesIntermediateKey(hex(IK), hex(ksn)))).toBe(key)
  })

  it.each([
    ['123456789012345600000001', 'AF8CB133A78F8DC2D1359F18527593FB'],
    ['123456789012345600000002', 'D30BDC73EC9714B000BEC66BDB7B6D09'],
  ])('KSN %s: AES-128 PIN encryption key %s', (ksn, key) => {
    expect(up(aesPinKey(hex(IK), hex(ksn)))).toBe(key)
  })
})

describe('AES DUKPT counter', () => {
  it('reads counters above 2^31 as unsigned', () => {
    expect(aesKsnCounter(hex('1234567890123456FFFF0000'))).toBe(0xffff0000)
  })

  it('skips counters with more than 16 one-bits and reports exhaustion past 2^32 - 1', () => {
    expect(nextAesCounter(1)).toBe(2)
    expect(nextAesCounter(0x80000000)).toBe(0x80000001)
    expect(nextAesCounter(0xffff)).toBe(0x10000)
    expect(nextAesCounter(0x7fff8000)).toBe(0x80000000)
    expect(() => nextAesCounter(0xffff0000)).toThrow(expect.objectContaining({ code: 'exhausted' }))
  })

  it('derives keys for counters with the top bit set (unsigned arithmetic throughout)', () => {
    const high = aesPinKey(hex(IK), hex('123456789012345680000000'))
    expect(high).toHaveLength(16)
    expect(up(high)).not.toBe(up(aesPinKey(hex(IK), hex('123456789012345600000000'))))
  })

  it('supports AES-128 keys only and 12-byte KSNs, with typed errors', () => {
    expect(() => aesInitialKey(Buffer.alloc(32), IKID)).toThrow(DukptError)
    expect(() => aesPinKey(hex(IK), hex('1234567890123456000001'))).toThrow(expect.objectContaining({ code: 'badKsn' }))
  })
})
