/**
 * TDES DUKPT, ANSI X9.24-1:2009 (docs/card-reader.md §4.2, pinned by the A.4 vectors in §4.3).
 * The agent never holds a BDK: this is the simulated PIN pad's side and a test decryptor
 * (docs/card-reader.md §4.5 "Keep BDKs out of production code").
 *
 * KSN = 80 bits: 59-bit initial KSN + 21-bit transaction counter; counters with more than 10 one-bits
 * are never used (about 1 M keys per device).
 */
import { tdesEncrypt, xorBytes } from './block-cipher'

export class DukptError extends Error {
  override readonly name = 'DukptError'
  constructor(
    readonly code: 'badKey' | 'badKsn' | 'exhausted',
    message: string,
  ) {
    super(message)
  }
}

/** X9.24-1 key register mask for the left half of each derived key and for the IPEK right half. */
const KEY_MASK = Buffer.from('C0C0C0C000000000C0C0C0C000000000', 'hex')
/** PIN encryption variant (docs/card-reader.md §4.2). */
const PIN_VARIANT = Buffer.from('00000000000000FF00000000000000FF', 'hex')
const COUNTER_TOP_BIT = 0x100000
export const TDES_COUNTER_LIMIT = 0x200000
export const TDES_MAX_ONE_BITS = 10

function check(key: Uint8Array, ksn: Uint8Array): void {
  if (key.length !== 16) throw new DukptError('badKey', `a double-length TDES key is 16 bytes, got ${key.length}`)
  if (ksn.length !== 10) throw new DukptError('badKsn', `a TDES DUKPT KSN is 10 bytes, got ${ksn.length}`)
}

export function tdesKsnCounter(ksn: Uint8Array): number {
  return (((ksn[7] as number) & 0x1f) << 16) | ((ksn[8] as number) << 8) | (ksn[9] as number)
}

/** The KSN with its 21-bit counter replaced. */
export function withTdesCounter(ksn: Uint8Array, counter: number): Buffer {
  const out = Buffer.from(ksn)
  out[7] = ((out[7] as number) & 0xe0) | ((counter >>> 16) & 0x1f)
  out[8] = (counter >>> 8) & 0xff
  out[9] = counter & 0xff
  return out
}

/** IPEK: TDES(BDK, R) ‖ TDES(BDK ⊕ C0C0…, R), R = leftmost 8 bytes of the KSN with counter zeroed. */
export function tdesIpek(bdk: Uint8Array, ksn: Uint8Array): Buffer {
  check(bdk, ksn)
  const r = withTdesCounter(ksn, 0).subarray(0, 8)
  return Buffer.concat([tdesEncrypt(bdk, r), tdesEncrypt(xorBytes(bdk, KEY_MASK), r)])
}

/** Non-reversible key generation process: single DES per half, the C0C0… mask gives the left half. */
function nonReversibleKey(key: Buffer, data: Buffer): Buffer {
  const half = (k: Buffer): Buffer => xorBytes(tdesEncrypt(k.subarray(0, 8), xorBytes(data, k.subarray(8))), k.subarray(8))
  return Buffer.concat([half(xorBytes(key, KEY_MASK)), half(key)])
}

/**
 * Current transaction key for a KSN, host style: walk the counter's one-bits from the top, OR each
 * into the KSN register and run the non-reversible key generation.
 */
export function tdesTransactionKey(ipek: Uint8Array, ksn: Uint8Array): Buffer {
  check(ipek, ksn)
  const counter = tdesKsnCounter(ksn)
  let key: Buffer = Buffer.from(ipek)
  let register = 0
  for (let bit = COUNTER_TOP_BIT; bit > 0; bit >>>= 1) {
    if ((counter & bit) === 0) continue
    register |= bit
    key = nonReversibleKey(key, withTdesCounter(ksn, register).subarray(2))
  }
  return key
}

/** PIN encryption key = transaction key ⊕ 00000000000000FF00000000000000FF. */
export function tdesPinKey(transactionKey: Uint8Array): Buffer {
  return xorBytes(transactionKey, PIN_VARIANT)
}

/** One-bits of an unsigned 32-bit counter (`>>> 0` keeps AES counters above 2^31 unsigned). */
export function oneBits(n: number): number {
  let count = 0
  for (let v = n >>> 0; v !== 0; v = (v & (v - 1)) >>> 0) count++
  return count
}

/**
 * The next usable counter after `counter`: +1 while it has fewer than `maxOneBits` one-bits, else
 * skip ahead by its lowest one-bit, which jumps over every counter with too many one-bits.
 */
export function nextDukptCounter(counter: number, maxOneBits: number): number {
  return oneBits(counter) < maxOneBits ? counter + 1 : counter + ((counter & -counter) >>> 0)
}

/**
 * The PIN pad's own algorithm (X9.24-1 future key registers): each key is derived once from the key
 * that precedes it and then erased, so the device never keeps the IPEK. Register p holds the key for
 * the current counter prefix with bit p set. Gives the same keys as `tdesTransactionKey`.
 */
export class TdesDukptDevice {
  private readonly futureKeys: (Buffer | undefined)[] = []
  private counter = 1

  constructor(
    ipek: Uint8Array,
    private readonly initialKsn: Uint8Array,
  ) {
    check(ipek, initialKsn)
    for (let p = 0; p < 21; p++) this.futureKeys[p] = nonReversibleKey(Buffer.from(ipek), withTdesCounter(initialKsn, 1 << p).subarray(2))
  }

  /** KSN and keys for the next transaction; throws `exhausted` after the last usable counter. */
  next(): { ksn: Buffer; transactionKey: Buffer; pinKey: Buffer } {
    const counter = this.counter
    if (counter >= TDES_COUNTER_LIMIT) throw new DukptError('exhausted', 'DUKPT key set exhausted: load a new initial key')
    const low = 31 - Math.clz32(counter & -counter)
    const key = this.futureKeys[low] as Buffer
    this.futureKeys[low] = undefined
    if (oneBits(counter) < TDES_MAX_ONE_BITS) {
      for (let p = 0; p < low; p++)
        this.futureKeys[p] = nonReversibleKey(key, withTdesCounter(this.initialKsn, counter | (1 << p)).subarray(2))
    }
    this.counter = nextDukptCounter(counter, TDES_MAX_ONE_BITS)
    return { ksn: withTdesCounter(this.initialKsn, counter), transactionKey: key, pinKey: tdesPinKey(key) }
  }
}
