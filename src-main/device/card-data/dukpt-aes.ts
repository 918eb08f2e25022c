/**
 * AES DUKPT, ANSI X9.24-3:2017, AES-128 BDK → AES-128 keys (docs/card-reader.md §4.4, pinned by the
 * B.1 and supplement vectors there). Simulated PIN pad and test side only, like dukpt-tdes.ts.
 *
 * KSN = 96 bits: 64-bit Initial Key ID (32-bit BDK ID + 32-bit derivation ID) + 32-bit counter;
 * counters with more than 16 one-bits are never used. Every key is AES-ECB(key, derivation data):
 *   01 | block counter 01 | key usage (2) | algorithm (2) | length in bits (2) | 8 data bytes
 * where the data bytes are the IKID for the initial key, else IKID[4..8] ‖ counter.
 */
import { aesEncrypt } from './block-cipher'
import { DukptError, nextDukptCounter } from './dukpt-tdes'

/** Key usage indicators (docs/card-reader.md §4.4). */
export const AES_KEY_USAGE = {
  initialKey: 0x8001,
  intermediateDerivation: 0x8000,
  pinEncryption: 0x1000,
} as const
type KeyUsage = keyof typeof AES_KEY_USAGE

/** Derived-key algorithm AES-128 (0002) and its length in bits (0080). */
const ALGORITHM_AES128 = 0x0002
const LENGTH_AES128 = 0x0080
export const AES_MAX_ONE_BITS = 16

function checkKey(key: Uint8Array): void {
  if (key.length !== 16) throw new DukptError('badKey', `only AES-128 keys are supported, got ${key.length} bytes`)
}

function checkKsn(ksn: Uint8Array): void {
  if (ksn.length !== 12) throw new DukptError('badKsn', `an AES DUKPT KSN is 12 bytes, got ${ksn.length}`)
}

export function derivationData(usage: KeyUsage, data: Uint8Array): Buffer {
  const out = Buffer.alloc(16)
  out[0] = 0x01 // version
  out[1] = 0x01 // block counter: one block for a 128-bit key
  out.writeUInt16BE(AES_KEY_USAGE[usage], 2)
  out.writeUInt16BE(ALGORITHM_AES128, 4)
  out.writeUInt16BE(LENGTH_AES128, 6)
  out.set(data.subarray(0, 8), 8)
  return out
}

function counterData(ksn: Uint8Array, counter: number): Buffer {
  const data = Buffer.alloc(8)
  data.set(ksn.subarray(4, 8), 0)
  data.writeUInt32BE(counter >>> 0, 4)
  return data
}

/** Initial key (IK) from the BDK and the 8-byte Initial Key ID. */
export function aesInitialKey(bdk: Uint8Array, initialKeyId: Uint8Array): Buffer {
  checkKey(bdk)
  if (initialKeyId.length !== 8) throw new DukptError('badKsn', `an Initial Key ID is 8 bytes, got ${initialKeyId.length}`)
  return aesEncrypt(bdk, derivationData('initialKey', initialKeyId))
}

export function aesKsnCounter(ksn: Uint8Array): number {
  checkKsn(ksn)
  return Buffer.from(ksn).readUInt32BE(8)
}

/** The intermediate derivation key for a KSN: one derivation per counter one-bit, from the top bit. */
export function aesIntermediateKey(initialKey: Uint8Array, ksn: Uint8Array): Buffer {
  checkKey(initialKey)
  const counter = aesKsnCounter(ksn)
  let key: Buffer = Buffer.from(initialKey)
  let register = 0
  for (let bit = 31; bit >= 0; bit--) {
    const mask = 2 ** bit
    if (Math.floor(counter / mask) % 2 === 0) continue
    register += mask
    key = aesEncrypt(key, derivationData('intermediateDerivation', counterData(ksn, register)))
  }
  return key
}

/** AES-128 PIN encryption key for a KSN (used with ISO 9564 format 4). */
export function aesPinKey(initialKey: Uint8Array, ksn: Uint8Array): Buffer {
  const intermediate = aesIntermediateKey(initialKey, ksn)
  return aesEncrypt(intermediate, derivationData('pinEncryption', counterData(ksn, aesKsnCounter(ksn))))
}

/** The next usable AES DUKPT counter; throws `exhausted` past 2^32 - 1. */
export function nextAesCounter(counter: number): number {
  const next = nextDukptCounter(counter, AES_MAX_ONE_BITS)
  if (next > 0xffffffff) throw new DukptError('exhausted', 'AES DUKPT counter exhausted: load a new initial key')
  return next
}
