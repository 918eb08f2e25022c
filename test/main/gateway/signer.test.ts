import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keyCheckValue, sign, stringToSign, validateSigningKey, verifySignature, SIGN_TYPES } from '../../../src-main/gateway/signer'
import { formatDateTime, newMsgId } from '../../../src-main/gateway/headers'

// Vectors are computed here, independently of signer.ts, straight from the rule in docs/gateway.md §3
// (the specification's "Authentication"): six lines joined by LF, empty lines dropped, no trailing newline.
const KEY = 'k3y-0123456789abcdefghijklmnopqr'
const parts = {
  method: 'POST',
  path: '/g2/v0/payment/acq/ACQ1/svc.offline.payment',
  dateTime: '2026-11-21T10:15:30+01:00',
  msgId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  body: '{"autoCapture":true,"metadata":"caf\u00e9"}',
}
const expectedText = `POST\n/g2/v0/payment/acq/ACQ1/svc.offline.payment\n2026-11-21T10:15:30+01:00\n${KEY}\n0f1e2d3c4b5a69788796a5b4c3d2e1f0\n{"autoCapture":true,"metadata":"caf\u00e9"}`

describe('string to sign', () => {
  it('is the six lines joined by LF without a trailing newline', () => {
    expect(stringToSign(parts, KEY).toString('utf8')).toBe(expectedText)
  })

  it('drops the body line of a GET and any empty line', () => {
    const text = stringToSign(
      { method: 'GET', path: '/x?merchantTransID=1&token=t', dateTime: parts.dateTime, msgId: '', body: undefined },
      KEY,
    ).toString('utf8')
    expect(text).toBe(`GET\n/x?merchantTransID=1&token=t\n${parts.dateTime}\n${KEY}`)
    expect(text.endsWith('\n')).toBe(false)
  })

  it('keeps the body bytes exactly, including multi-byte UTF-8', () => {
    const body = Buffer.from('{"a":"\u20ac"}', 'utf8')
    const text = stringToSign({ ...parts, body }, KEY)
    expect(text.subarray(text.length - body.length).equals(body)).toBe(true)
  })
})

describe('signature of each sign type', () => {
  const text = Buffer.from(expectedText, 'utf8')
  const expected = {
    SHA256: createHash('sha256').update(text).digest('hex'),
    SHA512: createHash('sha512').update(text).digest('hex'),
    'HMAC-SHA256': createHmac('sha256', KEY).update(text).digest('hex'),
    'HMAC-SHA512': createHmac('sha512', KEY).update(text).digest('hex'),
  } as const

  it.each(SIGN_TYPES)('%s matches the independently computed value', (type) => {
    const signature = sign(parts, type, KEY)
    expect(signature).toBe(expected[type])
    expect(signature).toMatch(/^[0-9a-f]+$/)
    expect(signature).toHaveLength(type.endsWith('512') ? 128 : 64)
  })

  it.each(SIGN_TYPES)('%s verifies, case-insensitively, and fails on any change', (type) => {
    const signature = sign(parts, type, KEY)
    expect(verifySignature(parts, type, KEY, signature)).toBe(true)
    expect(verifySignature(parts, type, KEY, signature.toUpperCase())).toBe(true)
    // one hex digit more or less: Buffer.from(hex) would drop an odd last digit and still compare equal
    expect(verifySignature(parts, type, KEY, `${signature}0`)).toBe(false)
    expect(verifySignature(parts, type, KEY, signature.slice(0, -1))).toBe(false)
    expect(verifySignature(parts, type, KEY, `${signature}00`)).toBe(false)
    expect(verifySignature({ ...parts, body: parts.body.replace('true', 'false') }, type, KEY, signature)).toBe(false)
    expect(verifySignature(parts, type, KEY.replace('k', 'K'), signature)).toBe(false)
    expect(verifySignature(parts, type, KEY, signature.slice(0, -2))).toBe(false)
    expect(verifySignature(parts, type, KEY, undefined)).toBe(false)
    expect(verifySignature(parts, type, KEY, 'not-hex')).toBe(false)
  })

  it('differs between plain hash and HMAC of the same text', () => {
    expect(sign(parts, 'SHA256', KEY)).not.toBe(sign(parts, 'HMAC-SHA256', KEY))
  })
})

describe('key handling', () => {
  it('key check value is the first 6 hex of HMAC-SHA256(key, "KCV") and never the key', () => {
    expect(keyCheckValue(KEY)).toBe(createHmac('sha256', KEY).update('KCV').digest('hex').slice(0, 6).toUpperCase())
  })

  it('accepts only 32 printable characters', () => {
    expect(validateSigningKey(KEY)).toBeUndefined()
    expect(validateSigningKey(KEY.slice(1))).toMatch(/32 characters/)
    expect(validateSigningKey(`${KEY.slice(1)} `)).toMatch(/printable/)
  })
})

describe('header values', () => {
  it('DateTime carries an explicit offset', () => {
    const at = new Date('2026-11-21T09:15:30.000Z')
    expect(formatDateTime(at, 60)).toBe('2026-11-21T10:15:30+01:00')
    expect(formatDateTime(at, -330)).toBe('2026-11-21T03:45:30-05:30')
    expect(formatDateTime(at, 0)).toBe('2026-11-21T09:15:30+00:00')
  })

  it('MsgID is a UUID of at most 32 characters, fresh each time', () => {
    const a = newMsgId()
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(newMsgId()).not.toBe(a)
  })
})
