import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { tdesDecrypt, tdesEncrypt } from '../../../../src-main/device/card-data/block-cipher'
import {
  DukptError,
  nextDukptCounter,
  oneBits,
  TdesDukptDevice,
  tdesIpek,
  tdesKsnCounter,
  tdesPinKey,
  tdesTransactionKey,
  withTdesCounter,
} from '../../../../src-main/device/card-data/dukpt-tdes'
import { encodePinBlockIso0 } from '../../../../src-main/device/card-data/pin-block'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
const up = (bytes: Buffer): string => bytes.toString('hex').toUpperCase()

// ANSI X9.24-1:2009 A.4 (docs/card-reader.md §4.3; openemv/dukpt test/dukpt_tdes_test.c, moov-io/dukpt).
const BDK = hex('0123456789ABCDEFFEDCBA9876543210')
const IKSN = hex('FFFF9876543210E00000')
const IPEK = '6AC292FAA1315B4D858AB3A3D7D5933A'
const CLEAR_PIN_BLOCK = '041274EDCBA9876F'
const A4 = [
  {
    ksn: 'FFFF9876543210E00001',
    key: '042666B49184CFA368DE9628D0397BC9',
    pinKey: '042666B49184CF5C68DE9628D0397B36',
    epb: '1B9C1845EB993A7A',
  },
  {
    ksn: 'FFFF9876543210E00002',
    key: 'C46551CEF9FD24B0AA9AD834130D3BC7',
    pinKey: 'C46551CEF9FD244FAA9AD834130D3B38',
    epb: '10A01C8D02C69107',
  },
  {
    ksn: 'FFFF9876543210E00003',
    key: '0DF3D9422ACA56E547676D07AD6BADFA',
    pinKey: '0DF3D9422ACA561A47676D07AD6BAD05',
    epb: '18DC07B94797B466',
  },
] as const

describe('TDES DUKPT golden vectors (X9.24-1:2009 A.4)', () => {
  it('derives the IPEK from the BDK and initial KSN, with KCV AF8C07', () => {
    const ipek = tdesIpek(BDK, IKSN)
    expect(up(ipek)).toBe(IPEK)
    expect(up(tdesEncrypt(ipek, Buffer.alloc(8)).subarray(0, 3))).toBe('AF8C07')
  })

  it('ignores the counter of the KSN it is given for the IPEK', () => {
    expect(up(tdesIpek(BDK, hex('FFFF9876543210E00003')))).toBe(IPEK)
  })

  it('builds the clear format-0 PIN block for PIN 1234, PAN 4012345678909', () => {
    expect(up(encodePinBlockIso0('1234', '4012345678909'))).toBe(CLEAR_PIN_BLOCK)
  })

  it.each(A4.map((v) => [v.ksn, v] as const))('KSN %s: transaction key, PIN key and encrypted PIN block', (_ksn, v) => {
    const key = tdesTransactionKey(hex(IPEK), hex(v.ksn))
    expect(up(key)).toBe(v.key)
    expect(up(tdesPinKey(key))).toBe(v.pinKey)
    expect(up(tdesEncrypt(tdesPinKey(key), hex(CLEAR_PIN_BLOCK)))).toBe(v.epb)
    expect(up(tdesDecrypt(tdesPinKey(key), hex(v.epb)))).toBe(CLEAR_PIN_BLOCK)
  })
})

describe('TDES DUKPT device (future key registers)', () => {
  it('produces the A.4 sequence: KSN, key and PIN key for counters 1, 2, 3', () => {
    const device = new TdesDukptDevice(hex(IPEK), IKSN)
    for (const v of A4) {
      const next = device.next()
      expect([up(next.ksn), up(next.transactionKey), up(next.pinKey)]).toEqual([v.ksn, v.key, v.pinKey])
    }
  })

  it('agrees with the host-side derivation for the first 600 transactions', () => {
    const device = new TdesDukptDevice(hex(IPEK), IKSN)
    for (let i = 0; i < 600; i++) {
      const { ksn, transactionKey } = device.next()
      expect(up(transactionKey)).toBe(up(tdesTransactionKey(hex(IPEK), ksn)))
    }
  })

  it('skips counters with more than 10 one-bits and stops after the last usable one', () => {
    expect(nextDukptCounter(0x3ff, 10)).toBe(0x400)
    expect(nextDukptCounter(0x1ff800, 10)).toBe(0x200000)
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0x1fffff }).filter((c) => oneBits(c) <= 10),
        (counter) => {
          const next = nextDukptCounter(counter, 10)
          expect(next).toBeGreaterThan(counter)
          if (next < 0x200000) expect(oneBits(next)).toBeLessThanOrEqual(10)
          for (let skipped = counter + 1; skipped < Math.min(next, 0x200000); skipped++) expect(oneBits(skipped)).toBeGreaterThan(10)
        },
      ),
    )
  })

  it('reads and writes the 21-bit counter without touching the initial KSN bits', () => {
    const ksn = withTdesCounter(IKSN, 0x1fffff)
    expect(up(ksn)).toBe('FFFF9876543210FFFFFF')
    expect(tdesKsnCounter(ksn)).toBe(0x1fffff)
    expect(up(withTdesCounter(ksn, 0))).toBe('FFFF9876543210E00000')
  })

  it('rejects wrong key and KSN lengths with typed errors', () => {
    expect(() => tdesIpek(BDK.subarray(0, 8), IKSN)).toThrow(expect.objectContaining({ code: 'badKey' }))
    expect(() => tdesTransactionKey(hex(IPEK), hex('FFFF9876543210E0'))).toThrow(DukptError)
  })
})
