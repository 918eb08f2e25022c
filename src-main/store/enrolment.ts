/**
 * A terminal's copy key and its enrolment with the store (docs/store.md "Copies only a terminal can
 * make"). Each terminal seals its copies with an X25519 key of its own (HPKE Auth mode,
 * sealed-copy.ts), kept in the OS keychain; its public half is enrolled by a certificate that only the
 * holder of the store's recovery private key can make or check: an HMAC keyed by a key derived from
 * the recovery private key (HKDF, RFC 5869). A lane's store credentials therefore cannot enrol it,
 * nor another lane, and the rescue opens a terminal's copies only with keys enrolled for that
 * terminal of that store.
 */
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, hkdfSync, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { X25519PrivateJwk } from './recovery-key'

/** The certificate's file in the terminal's data folder; the lane puts it into `pos_enrol` at every start. */
export const ENROLMENT_FILE = 'store-enrolment.json'

const MAC_SALT = 'pos-agent store enrolment v1'

export interface EnrolmentCertificate {
  v: 1
  storeId: string
  terminalId: string
  /** The terminal's copy key, raw X25519 public key in base64url (43 characters). */
  publicKey: string
  /** ISO 8601. */
  enrolledAt: string
  /** Who enrolled it (the manager's name as typed, or the machine). */
  by: string
  /** HMAC-SHA256 (base64url) over the canonical JSON of the other fields. */
  mac: string
}

const b64url32 = z.string().regex(/^[A-Za-z0-9_-]{43}$/)
const certificateSchema = z.object({
  v: z.literal(1),
  storeId: z.string().min(1).max(200),
  terminalId: z.string().min(1).max(200),
  publicKey: b64url32,
  enrolledAt: z.iso.datetime(),
  by: z.string().max(200),
  mac: b64url32,
})

/** The keychain account of a terminal's copy key (JWK JSON). */
export function copyKeyAccount(storeId: string, terminalId: string): string {
  return `store-copy-key/${storeId}/${terminalId}`
}

/** A new copy key pair for a terminal: the private half for the keychain, the public half for the certificate. */
export function makeCopyKeyPair(): { privateJwk: X25519PrivateJwk; publicKey: string } {
  const { privateKey } = generateKeyPairSync('x25519')
  const privateJwk = privateKey.export({ format: 'jwk' }) as X25519PrivateJwk
  return { privateJwk, publicKey: privateJwk.x }
}

/**
 * The terminal's copy key from the keychain; undefined when there is none, or when what is there is
 * not a whole X25519 key (the terminal then counts as not enrolled, and `store enrol` makes a new one).
 */
export async function readCopyKey(
  secrets: { get(account: string): Promise<string | undefined> },
  storeId: string,
  terminalId: string,
): Promise<X25519PrivateJwk | undefined> {
  const text = await secrets.get(copyKeyAccount(storeId, terminalId))
  if (text === undefined) return undefined
  try {
    const jwk = JSON.parse(text) as X25519PrivateJwk
    const key = createPrivateKey({ key: jwk, format: 'jwk' })
    if (key.asymmetricKeyType !== 'x25519') return undefined
    // The public half must be the private key's own: a mismatch would seal copies no one can open.
    const x = (createPublicKey(key).export({ format: 'jwk' }) as { x: string }).x
    return x === jwk.x ? { kty: 'OKP', crv: 'X25519', x: jwk.x, d: jwk.d } : undefined
  } catch {
    return undefined
  }
}

/** The MAC key: HKDF-SHA256 of the recovery private key's raw 32 bytes (RFC 5869), never the key itself. */
function macKey(recoveryPrivateJwk: X25519PrivateJwk): Buffer {
  const ikm = Buffer.from(recoveryPrivateJwk.d, 'base64url')
  try {
    return Buffer.from(hkdfSync('sha256', ikm, MAC_SALT, '', 32))
  } finally {
    ikm.fill(0)
  }
}

/** The fields in a fixed order (sorted), as JSON: the bytes the MAC covers. */
function canonical(fields: Omit<EnrolmentCertificate, 'mac'>): string {
  const sorted = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return JSON.stringify(sorted)
}

function macOf(recoveryPrivateJwk: X25519PrivateJwk, fields: Omit<EnrolmentCertificate, 'mac'>): Buffer {
  const key = macKey(recoveryPrivateJwk)
  try {
    return createHmac('sha256', key).update(canonical(fields)).digest()
  } finally {
    key.fill(0)
  }
}

export function makeEnrolment(
  recoveryPrivateJwk: X25519PrivateJwk,
  enrol: { storeId: string; terminalId: string; publicKey: string; by: string; now: Date },
): EnrolmentCertificate {
  const fields: Omit<EnrolmentCertificate, 'mac'> = {
    v: 1,
    storeId: enrol.storeId,
    terminalId: enrol.terminalId,
    publicKey: enrol.publicKey,
    enrolledAt: enrol.now.toISOString(),
    by: enrol.by,
  }
  const parsed = certificateSchema.omit({ mac: true }).safeParse(fields)
  if (!parsed.success) throw new Error(`an enrolment needs a store, a terminal and a 43-character public key: ${parsed.error.message}`)
  return { ...fields, mac: macOf(recoveryPrivateJwk, fields).toString('base64url') }
}

/**
 * A certificate as read from the data folder or the `pos_enrol` bucket, checked with the recovery
 * key: its MAC, and with `expected`, that it enrols that terminal of that store. Anything else is
 * `{ refused }` with the reason in plain words (never an exception: the rescue reports it and goes on).
 */
export function checkEnrolment(
  recoveryPrivateJwk: X25519PrivateJwk,
  json: string | Uint8Array,
  expected?: { storeId: string; terminalId: string },
): EnrolmentCertificate | { refused: string } {
  let value: unknown
  try {
    value = JSON.parse(typeof json === 'string' ? json : new TextDecoder().decode(json))
  } catch {
    return { refused: 'the enrolment record is not readable' }
  }
  const parsed = certificateSchema.safeParse(value)
  if (!parsed.success) return { refused: 'the enrolment record is not a whole enrolment certificate' }
  const { mac, ...fields } = parsed.data
  const want = macOf(recoveryPrivateJwk, fields)
  const got = Buffer.from(mac, 'base64url')
  if (got.length !== want.length || !timingSafeEqual(got, want))
    return { refused: "the enrolment certificate was not made with this store's recovery key" }
  if (expected && (fields.storeId !== expected.storeId || fields.terminalId !== expected.terminalId))
    return {
      refused: `the enrolment certificate is for terminal ${fields.terminalId} of store ${fields.storeId}, not ${expected.terminalId} of ${expected.storeId}`,
    }
  return parsed.data
}

/** Whether `checkEnrolment` accepted the certificate. */
export function isEnrolment(checked: EnrolmentCertificate | { refused: string }): checked is EnrolmentCertificate {
  return !('refused' in checked)
}

/**
 * The copy keys a terminal's enrolment history vouches for (newest first, each once), and why any
 * record of it was not taken: the keys the rescue opens that terminal's copies with.
 */
export function enrolledKeys(
  recoveryPrivateJwk: X25519PrivateJwk,
  history: Array<string | Uint8Array>,
  expected: { storeId: string; terminalId: string },
): { keys: string[]; refused: string[] } {
  const keys: string[] = []
  const refused: string[] = []
  for (const record of history) {
    const checked = checkEnrolment(recoveryPrivateJwk, record, expected)
    if (!isEnrolment(checked)) refused.push(checked.refused)
    else if (!keys.includes(checked.publicKey)) keys.push(checked.publicKey)
  }
  return { keys, refused }
}
