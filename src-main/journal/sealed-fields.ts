/**
 * Sensitive card data at rest (tracks, ICC data, PIN block and KSN, expiry): PCI DSS 3.3.2 wants SAD
 * kept before authorization encrypted with strong cryptography, under a key separate from any other
 * (docs/card-reader.md §5). AES-256-GCM under a 32-byte data key kept in the OS keychain, apart from the
 * signing key. Envelope, stored as a BLOB:
 *
 *   byte 0      envelope version (1)
 *   bytes 1-4   key id: first 4 bytes of SHA-256(key), tells which key sealed it without revealing it
 *   bytes 5-16  nonce: 12 random bytes, fresh for every seal
 *   bytes 17-32 GCM tag (16 bytes)
 *   bytes 33..  ciphertext (same length as the plaintext)
 *
 * The AAD is bytes 0-4 followed by the caller's context (`table:rowId:field`, see sealedFieldAad), so
 * a ciphertext copied into another row or column, or re-labelled with another key id, fails to open.
 * Random 96-bit nonces are safe for 2^32 seals per key (NIST SP 800-38D §8.3), far beyond a
 * terminal's lifetime of sales.
 *
 * Version 2 is the same layout sealed under a sale's own key instead of the data key (sale-keys.ts:
 * destroying that key is what makes a purged sale's data unrecoverable); its key id still names the
 * data key, the one that wraps the sale's key and so the one the row needs from the keychain. Version 1
 * envelopes (sealed under the data key itself, before sales had keys of their own) still open.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto'
import { dataKeyAccount, type SecretStore } from '../keychain'
import { JournalError } from './journal-error'

export const DATA_KEY_BYTES = 32
/** Sealed under the data key itself. */
export const SEALED_ENVELOPE_VERSION = 1
/** Sealed under a sale's own key, which the data key named in bytes 1-4 wraps. */
export const SALE_KEY_ENVELOPE_VERSION = 2
const ENVELOPE_VERSIONS: readonly number[] = [SEALED_ENVELOPE_VERSION, SALE_KEY_ENVELOPE_VERSION]
const KEY_ID_BYTES = 4
const NONCE_BYTES = 12
const TAG_BYTES = 16
const HEADER_BYTES = 1 + KEY_ID_BYTES
/** Bytes an envelope adds to its plaintext. */
export const SEALED_ENVELOPE_OVERHEAD = HEADER_BYTES + NONCE_BYTES + TAG_BYTES

/** `keyDestroyed`: the sale's own key was destroyed when its card data was purged, on purpose. */
export const SEALED_FIELD_FAILURES = ['malformed', 'unknownVersion', 'wrongKey', 'tampered', 'keyDestroyed'] as const
export type SealedFieldFailure = (typeof SEALED_FIELD_FAILURES)[number]

/** A sealed field that cannot be opened. Never answered with garbage plaintext instead. */
export class SealedFieldError extends JournalError {
  override readonly name = 'SealedFieldError'
  constructor(
    readonly reason: SealedFieldFailure,
    message: string,
  ) {
    super('SEALED_FIELD_UNREADABLE', message)
  }
}

export class DataKeyMissingError extends JournalError {
  override readonly name = 'DataKeyMissingError'
  constructor(
    readonly terminalId: string,
    readonly account: string,
  ) {
    super(
      'DATA_KEY_MISSING',
      `the journal's data key for terminal ${terminalId} is missing from the OS keychain (entry "${account}"): ` +
        'the agent stops taking offline payments; the encrypted rows are kept, never deleted; restore the keychain entry from its backup',
    )
  }
}

export class DataKeyInvalidError extends JournalError {
  override readonly name = 'DataKeyInvalidError'
  constructor(
    readonly account: string,
    problem: string,
  ) {
    super(
      'DATA_KEY_INVALID',
      `the journal's data key in the OS keychain (entry "${account}") is unusable: ${problem}; the encrypted rows are kept, never deleted`,
    )
  }
}

/** The canonical AAD context for a column of a row: `table:rowId:field`. */
export function sealedFieldAad(table: string, rowId: string | number | bigint, field: string): string {
  for (const part of [table, String(rowId), field]) {
    // A ':' inside a part would let two different (table, row, field) triples share one AAD.
    if (part === '' || part.includes(':')) throw new TypeError(`sealed-field AAD parts must be non-empty and contain no ':', got "${part}"`)
  }
  return `${table}:${rowId}:${field}`
}

/** Zero-fills buffers that held plaintext, so it does not linger in memory or in a crash dump. */
export function wipe(...buffers: (Buffer | undefined)[]): void {
  for (const buffer of buffers) buffer?.fill(0)
}

export class FieldSealer {
  /** First 8 hex digits of SHA-256 of the data key: safe to log and to compare. */
  readonly keyId: string
  private readonly hashKeys = new Map<string, KeyObject>()

  private constructor(
    private readonly key: KeyObject,
    private readonly keyIdBytes: Buffer,
  ) {
    this.keyId = keyIdBytes.toString('hex')
  }

  /**
   * Loads the terminal's data key from the keychain. Only when `create` is true is a missing key
   * generated: the caller passes false once encrypted rows exist, because a new key could never open
   * them and would hide the loss (DataKeyMissingError instead).
   */
  static async open(store: SecretStore, terminalId: string, options: { create: boolean }): Promise<FieldSealer> {
    const account = dataKeyAccount(terminalId)
    let encoded = await store.get(account)
    if (encoded === undefined) {
      if (!options.create) throw new DataKeyMissingError(terminalId, account)
      const fresh = randomBytes(DATA_KEY_BYTES)
      encoded = fresh.toString('base64')
      wipe(fresh)
      await store.set(account, encoded)
      // Read back: a keychain that drops writes must fail now, not when a queued sale needs its data.
      if ((await store.get(account)) !== encoded) throw new DataKeyInvalidError(account, 'the keychain did not keep the new key')
    }
    const raw = Buffer.from(encoded, 'base64')
    try {
      if (raw.length !== DATA_KEY_BYTES || raw.toString('base64') !== encoded) {
        throw new DataKeyInvalidError(account, `expected ${DATA_KEY_BYTES} bytes in base64`)
      }
      // createSecretKey copies the key into a KeyObject, so the raw bytes can be wiped at once.
      return new FieldSealer(createSecretKey(raw), createHash('sha256').update(raw).digest().subarray(0, KEY_ID_BYTES))
    } finally {
      wipe(raw)
    }
  }

  /**
   * A keyed hash for matching without storing the value (the duplicate guard's card fingerprint).
   * The HMAC key is derived from the data key with HKDF per purpose, so it never doubles as the
   * encryption key, and a stolen database alone cannot be searched for a known card number.
   */
  keyedHash(purpose: string, value: string): string {
    return createHmac('sha256', this.hashKey(purpose)).update(value, 'utf8').digest('hex')
  }

  /** A purpose's HMAC key, derived once and kept, like the data key, only inside a KeyObject. */
  private hashKey(purpose: string): KeyObject {
    let key = this.hashKeys.get(purpose)
    if (key === undefined) {
      const derived = Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `pos-agent:${purpose}`, 32))
      try {
        key = createSecretKey(derived)
      } finally {
        wipe(derived)
      }
      this.hashKeys.set(purpose, key)
    }
    return key
  }

  /** The key id an envelope was sealed under, to tell which key encrypted rows need. */
  static keyIdOf(envelope: Buffer): string {
    return parse(envelope).keyId.toString('hex')
  }

  /** Seals with a fresh nonce. A string plaintext is encoded as UTF-8 and its copy wiped. */
  seal(aad: string, plaintext: Buffer | string): Buffer {
    return sealEnvelope(SEALED_ENVELOPE_VERSION, this.keyIdBytes, this.key, aad, plaintext)
  }

  /** The plaintext, or SealedFieldError. The caller wipes the returned buffer after use. */
  open(aad: string, envelope: Buffer): Buffer {
    return this.openEnvelope(SEALED_ENVELOPE_VERSION, this.key, aad, envelope)
  }

  /** Seals under a sale's own key (version 2); the header names this data key, which wraps it. */
  sealUnder(saleKey: KeyObject, aad: string, plaintext: Buffer | string): Buffer {
    return sealEnvelope(SALE_KEY_ENVELOPE_VERSION, this.keyIdBytes, saleKey, aad, plaintext)
  }

  /** Opens a version 2 envelope with the sale's key that this data key unwrapped. */
  openUnder(saleKey: KeyObject, aad: string, envelope: Buffer): Buffer {
    return this.openEnvelope(SALE_KEY_ENVELOPE_VERSION, saleKey, aad, envelope)
  }

  private openEnvelope(version: number, key: KeyObject, aad: string, envelope: Buffer): Buffer {
    const { header, keyId, nonce, tag, ciphertext } = parse(envelope)
    if (!keyId.equals(this.keyIdBytes)) {
      throw new SealedFieldError(
        'wrongKey',
        `the sealed field ${aad} was sealed under data key ${keyId.toString('hex')}, the keychain holds ${this.keyId}`,
      )
    }
    if (header[0] !== version) {
      const under = (v: number) => (v === SEALED_ENVELOPE_VERSION ? 'the data key' : "a sale's own key")
      throw new SealedFieldError('wrongKey', `the sealed field ${aad} was sealed under ${under(header[0]!)}, not ${under(version)}`)
    }
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES })
    decipher.setAAD(aadBytes(header, aad))
    decipher.setAuthTag(tag)
    const head = decipher.update(ciphertext)
    try {
      return Buffer.concat([head, decipher.final()])
    } catch {
      throw new SealedFieldError(
        'tampered',
        `the sealed field ${aad} failed authentication: it was altered, or belongs to another row or field`,
      )
    } finally {
      // Unauthenticated output must never escape; on success concat already made the returned copy.
      wipe(head)
    }
  }
}

/** The envelope's version: which key sealed it (the data key, or a sale's own key). */
export function envelopeVersion(envelope: Buffer): number {
  return parse(envelope).header[0]!
}

function sealEnvelope(version: number, keyIdBytes: Buffer, key: KeyObject, aad: string, plaintext: Buffer | string): Buffer {
  const header = Buffer.alloc(HEADER_BYTES)
  header[0] = version
  keyIdBytes.copy(header, 1)
  const nonce = randomBytes(NONCE_BYTES)
  const input = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext
  try {
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES })
    cipher.setAAD(aadBytes(header, aad))
    const ciphertext = Buffer.concat([cipher.update(input), cipher.final()])
    return Buffer.concat([header, nonce, cipher.getAuthTag(), ciphertext])
  } finally {
    if (input !== plaintext) wipe(input)
  }
}

function parse(envelope: Buffer): { header: Buffer; keyId: Buffer; nonce: Buffer; tag: Buffer; ciphertext: Buffer } {
  if (!Buffer.isBuffer(envelope) || envelope.length < SEALED_ENVELOPE_OVERHEAD) {
    throw new SealedFieldError('malformed', `a sealed field is at least ${SEALED_ENVELOPE_OVERHEAD} bytes`)
  }
  if (!ENVELOPE_VERSIONS.includes(envelope[0]!))
    throw new SealedFieldError('unknownVersion', `unknown sealed-field envelope version ${envelope[0]}`)
  const nonceEnd = HEADER_BYTES + NONCE_BYTES
  return {
    header: envelope.subarray(0, HEADER_BYTES),
    keyId: envelope.subarray(1, HEADER_BYTES),
    nonce: envelope.subarray(HEADER_BYTES, nonceEnd),
    tag: envelope.subarray(nonceEnd, nonceEnd + TAG_BYTES),
    ciphertext: envelope.subarray(nonceEnd + TAG_BYTES),
  }
}

function aadBytes(header: Buffer, aad: string): Buffer {
  if (aad === '') throw new TypeError('a sealed field needs an AAD naming its row and field (see sealedFieldAad)')
  return Buffer.concat([header, Buffer.from(aad, 'utf8')])
}
