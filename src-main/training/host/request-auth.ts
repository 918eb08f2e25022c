/**
 * Headers and signatures on the host side (docs/gateway.md §3, §D1).
 *
 * Order, as the specification asks ("verifies it before applying any business logic"):
 * 1. Signature: unknown aid, missing or unknown SignType, missing Authorization, a KeyID other than
 *    the configured one, or a signature that does not verify → HTTP 401, A0001, nothing recorded.
 *    The 401 is signed when the host knows the aid's key and the SignType, so that an agent with
 *    the right key but a wrong string to sign can still verify it; otherwise it is unsigned.
 * 2. Headers: Content-Type (application/json, charset utf-8 if given), DateTime (ISO 8601 with an
 *    offset), MsgID (present, at most 1024 bytes) → HTTP 200 V0007 (missing) / V0008 (invalid).
 * A DateTime or MsgID that is absent is an empty line of the string to sign and therefore left out
 * (signer.ts), exactly as a client would have signed it.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { DATE_TIME_PATTERN, isSignType, sign, verifySignature, SIGN_TYPES, type SignType } from '../../gateway'

export interface RequestHeaderValues {
  contentType?: string | undefined
  dateTime?: string | undefined
  msgId?: string | undefined
  signType?: string | undefined
  authorization?: string | undefined
  keyId?: string | undefined
}

export interface Signer {
  key: string
  signType: SignType
}

export type AuthResult = { ok: true; signer: Signer } | { ok: false; message: string; signer?: Signer }

export interface SignedMessage {
  method: string
  /** Path plus query exactly as received. */
  path: string
  body: Buffer
}

/** MsgID may be up to 1024 long (docs/gateway.md §D3 "Lengths"). */
const MSG_ID_MAX_BYTES = 1024

export function readHeaders(headers: IncomingHttpHeaders): RequestHeaderValues {
  const one = (name: string): string | undefined => {
    const value = headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  return {
    contentType: one('content-type'),
    dateTime: one('datetime'),
    msgId: one('msgid'),
    signType: one('signtype'),
    authorization: one('authorization'),
    keyId: one('keyid'),
  }
}

export function authenticate(
  h: RequestHeaderValues,
  aid: string,
  keys: ReadonlyMap<string, string>,
  keyId: string | undefined,
  message: SignedMessage,
): AuthResult {
  const key = keys.get(aid)
  if (key === undefined) return { ok: false, message: `unknown aid ${aid}` }
  if (h.signType === undefined || !isSignType(h.signType)) {
    return { ok: false, message: `SignType must be one of ${SIGN_TYPES.join(', ')}` }
  }
  const signer: Signer = { key, signType: h.signType }
  if (h.authorization === undefined || h.authorization === '') return { ok: false, message: 'Authorization is required', signer }
  if (keyId !== undefined && h.keyId !== undefined && h.keyId !== keyId) return { ok: false, message: `unknown KeyID ${h.keyId}`, signer }
  const parts = { ...message, dateTime: h.dateTime ?? '', msgId: h.msgId ?? '' }
  if (!verifySignature(parts, h.signType, key, h.authorization)) return { ok: false, message: 'signature does not verify', signer }
  return { ok: true, signer }
}

export function headerProblem(h: RequestHeaderValues): { code: 'V0007' | 'V0008'; message: string } | undefined {
  if (h.contentType === undefined) return { code: 'V0007', message: 'Content-Type is required' }
  if (!isJsonContentType(h.contentType)) return { code: 'V0008', message: 'Content-Type must be application/json' }
  if (h.dateTime === undefined || h.dateTime === '') return { code: 'V0007', message: 'DateTime is required' }
  if (!DATE_TIME_PATTERN.test(h.dateTime))
    return { code: 'V0008', message: 'DateTime must be ISO 8601 with an offset, e.g. 2026-11-21T10:00:00+01:00' }
  if (h.msgId === undefined || h.msgId === '') return { code: 'V0007', message: 'MsgID is required' }
  if (Buffer.byteLength(h.msgId, 'utf8') > MSG_ID_MAX_BYTES)
    return { code: 'V0008', message: `MsgID must be at most ${MSG_ID_MAX_BYTES} bytes` }
  return undefined
}

function isJsonContentType(value: string): boolean {
  const [type, ...params] = value.split(';').map((part) => part.trim().toLowerCase())
  if (type !== 'application/json') return false
  return params.every((p) => !p.startsWith('charset=') || p === 'charset=utf-8' || p === 'charset="utf-8"')
}

/**
 * Response headers (docs/gateway.md §D1): DateTime, MsgID and KeyID echoed, the request's SignType,
 * and Authorization over method, request path, echoed DateTime, key, echoed MsgID, response body.
 */
export function responseHeaders(h: RequestHeaderValues, signer: Signer | undefined, message: SignedMessage): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }
  if (h.dateTime) headers.DateTime = h.dateTime
  if (h.msgId) headers.MsgID = h.msgId
  if (h.keyId) headers.KeyID = h.keyId
  if (signer) {
    headers.SignType = signer.signType
    headers.Authorization = sign({ ...message, dateTime: h.dateTime ?? '', msgId: h.msgId ?? '' }, signer.signType, signer.key)
  }
  return headers
}

/** The same length and alphabet as a real signature, but wrong: the `bad-signature` fault. */
export function corruptSignature(signature: string): string {
  const first = signature[0] ?? '0'
  return `${first === '0' ? '1' : '0'}${signature.slice(1)}`
}
