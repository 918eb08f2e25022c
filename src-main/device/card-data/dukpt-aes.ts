/**
 * AES DUKPT, ANSI X9.24-3:2017, with AES-128, AES-192 or AES-256 base derivation keys
 * (docs/card-reader.md §4.4, pinned by the B.1 and supplement vectors there). Simulated PIN pad and
 * test side only, like dukpt-tdes.ts.
 *
 * KSN = 96 bits: 64-bit Initial Key ID (32-bit BDK ID + 32-bit derivation ID) + 32-bit counter;
 * counters with more than 16 one-bits are never used. Every key is AES-ECB(parent key, derivation
 * data), one 16-byte block per 128 bits of the derived key (two for AES-192/256, the output cut to
 * the key length):
 *   01 | block counter | key usage (2) | algorithm (2) | length in bits (2) | 8 data bytes
 * where the data bytes are the IKID for the initial key, else IKID[4..8] ‖ counter. The initial and
 * intermediate keys have the BDK's type; a working key (PIN) may be of that type or weaker, never
 * stronger (X9.24-3:2017 §6.3.1, as quoted in docs/card-reader.md §4.4).
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

export const AES_KEY_TYPES = ['aes128', 'aes192', 'aes256'] as const
export type AesKeyType = (typeof AES_KEY_TYPES)[number]

/** Algorithm indicator and key length in bits of each derived-key type (docs/card-reader.md §4.4). */
const KEY_TYPE: Readonly<Record<AesKeyType, { algorithm: number; bits: number }>> = {
  aes128: { algorithm: 0x0002, bits: 128 },
  aes192: { algorithm: 0x0003, bits: 192 },
  aes256: { algorithm: 0x0004, bits: 256 },
}
export const AES_MAX_ONE_BITS = 16

/** The AES key type of a key by its length; anything but 16, 24 or 32 bytes is a `badKey`. */
export function aesKeyTypeOf(key: Uint8Array): AesKeyType {
  const type = AES_KEY_TYPES.find((t) => KEY_TYPE[t].bits === key.length * 8)
  if (!type) throw new DukptError('badKey', `an AES DUKPT key is 16, 24 or 32 bytes, got ${key.length}`)
  return type
}

function checkKsn(ksn: Uint8Array): void {
  if (ksn.length !== 12) throw new DukptError('badKsn', `an AES DUKPT KSN is 12 bytes, got ${ksn.length}`)
}

/** Derivation data block `blockCounter` (1-based) for a key of `keyType` (default AES-128, one block). */
export function derivationData(usage: KeyUsage, data: Uint8Array, keyType: AesKeyType = 'aes128', blockCounter = 1): Buffer {
  const out = Buffer.alloc(16)
  out[0] = 0x01 // version
  out[1] = blockCounter
  out.writeUInt16BE(AES_KEY_USAGE[usage], 2)
  out.writeUInt16BE(KEY_TYPE[keyType].algorithm, 4)
  out.writeUInt16BE(KEY_TYPE[keyType].bits, 6)
  out.set(data.subarray(0, 8), 8)
  return out
}

/** A `keyType` key derived from `parent`: as many blocks as the key needs, cut to its length. */
function deriveKey(parent: Uint8Array, usage: KeyUsage, keyType: AesKeyType, data: Uint8Array): Buffer {
  const bytes = KEY_TYPE[keyType].bits / 8
  const blocks: Buffer[] = []
  for (let counter = 1; counter * 16 < bytes + 16; counter++) blocks.push(aesEncrypt(parent, derivationData(usage, data, keyType, counter)))
  return Buffer.concat(blocks).subarray(0, bytes)
}

function counterData(ksn: Uint8Array, counter: number): Buffer {
  const data = Buffer.alloc(8)
  data.set(ksn.subarray(4, 8), 0)
  data.writeUInt32BE(counter >>> 0, 4)
  return data
}

/** Initial key (IK) from the BDK and the 8-byte Initial Key ID; the IK has the BDK's type. */
export function aesInitialKey(bdk: Uint8Array, initialKeyId: Uint8Array): Buffer {
  const keyType = aesKeyTypeOf(bdk)
  if (initialKeyId.length !== 8) throw new DukptError('badKsn', `an Initial Key ID is 8 bytes, got ${initialKeyId.length}`)
  return deriveKey(bdk, 'initialKey', keyType, initialKeyId)
}

export function aesKsnCounter(ksn: Uint8Array): number {
  checkKsn(ksn)
  return Buffer.from(ksn).readUInt32BE(8)
}

/** The intermediate derivation key for a KSN: one derivation per counter one-bit, from the top bit. */
export function aesIntermediateKey(initialKey: Uint8Array, ksn: Uint8Array): Buffer {
  const keyType = aesKeyTypeOf(initialKey)
  const counter = aesKsnCounter(ksn)
  let key: Buffer = Buffer.from(initialKey)
  let register = 0
  for (let bit = 31; bit >= 0; bit--) {
    const mask = 2 ** bit
    if (Math.floor(counter / mask) % 2 === 0) continue
    register += mask
    key = deriveKey(key, 'intermediateDerivation', keyType, counterData(ksn, register))
  }
  return key
}

/**
 * PIN encryption key for a KSN (used with ISO 9564 format 4), of `pinKeyType` (default AES-128, what
 * the simulated PIN pad and the NEO 2's 16-byte AES PIN block use); it may not be stronger than the
 * initial key.
 */
export function aesPinKey(initialKey: Uint8Array, ksn: Uint8Array, pinKeyType: AesKeyType = 'aes128'): Buffer {
  const parentBits = KEY_TYPE[aesKeyTypeOf(initialKey)].bits
  if (KEY_TYPE[pinKeyType].bits > parentBits)
    throw new DukptError('badKey', `an ${pinKeyType} working key cannot be derived from a ${parentBits}-bit initial key`)
  const intermediate = aesIntermediateKey(initialKey, ksn)
  return deriveKey(intermediate, 'pinEncryption', pinKeyType, counterData(ksn, aesKsnCounter(ksn)))
}

/** The next usable AES DUKPT counter; throws `exhausted` past 2^32 - 1. */
export function nextAesCounter(counter: number): number {
  const next = nextDukptCounter(counter, AES_MAX_ONE_BITS)
  if (next > 0xffffffff) throw new DukptError('exhausted', 'AES DUKPT counter exhausted: load a new initial key')
  return next
}
