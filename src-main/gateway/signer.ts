/**
 * Message signing, both directions (docs/gateway.md §3 and §D1).
 *
 * The string to sign is up to six lines joined by LF with no trailing newline, empty lines left out:
 * method, path+query, DateTime, signing key, MsgID, body exactly as sent. SHA256/SHA512 hash the whole
 * text (the key is line 4); HMAC types use the same key as HMAC key over the same text. Hex output.
 * Pure: no I/O, the key is passed in.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

export const SIGN_TYPES = ['SHA256', 'SHA512', 'HMAC-SHA256', 'HMAC-SHA512'] as const
export type SignType = (typeof SIGN_TYPES)[number]

export function isSignType(value: string): value is SignType {
  return (SIGN_TYPES as readonly string[]).includes(value)
}

export interface SignedParts {
  method: string
  /** Path plus query string, without scheme and host. */
  path: string
  dateTime: string
  msgId: string
  /** The body bytes exactly as sent or received; absent or empty for a GET request. */
  body?: Buffer | string | undefined
}

/** The text that is hashed. The key is line 4, so callers must never log this text. */
export function stringToSign(parts: SignedParts, signingKey: string): Buffer {
  const body = parts.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(parts.body) ? parts.body : Buffer.from(parts.body, 'utf8')
  const head = [parts.method, parts.path, parts.dateTime, signingKey, parts.msgId].filter((line) => line !== '').join('\n')
  return body.length === 0 ? Buffer.from(head, 'utf8') : Buffer.concat([Buffer.from(`${head}\n`, 'utf8'), body])
}

export function computeSignature(signType: SignType, text: Buffer, signingKey: string): string {
  switch (signType) {
    case 'SHA256':
      return createHash('sha256').update(text).digest('hex')
    case 'SHA512':
      return createHash('sha512').update(text).digest('hex')
    case 'HMAC-SHA256':
      return createHmac('sha256', signingKey).update(text).digest('hex')
    case 'HMAC-SHA512':
      return createHmac('sha512', signingKey).update(text).digest('hex')
  }
}

export function sign(parts: SignedParts, signType: SignType, signingKey: string): string {
  return computeSignature(signType, stringToSign(parts, signingKey), signingKey)
}

/**
 * Checks a received signature. Hex is compared case-insensitively and in constant time, so a
 * forger learns nothing from how long a wrong guess took.
 */
export function verifySignature(parts: SignedParts, signType: SignType, signingKey: string, received: string | undefined): boolean {
  const expectedHex = sign(parts, signType, signingKey)
  // Whole hex digits of exactly the expected length: Buffer.from(hex) silently drops an odd last
  // digit, which would let a signature with one character appended still verify.
  if (received === undefined || received.length !== expectedHex.length || !/^[0-9a-fA-F]+$/.test(received)) return false
  return timingSafeEqual(Buffer.from(received, 'hex'), Buffer.from(expectedHex, 'hex'))
}

/** Key check value shown instead of a key: first 6 hex digits of HMAC-SHA256(key, "KCV"). */
export function keyCheckValue(signingKey: string): string {
  return createHmac('sha256', signingKey).update('KCV').digest('hex').slice(0, 6).toUpperCase()
}

/** The key's shape is declared once in src-shared (the setup form checks it too). */
export { validateSigningKey } from '../../src-shared/signing-key'
