/**
 * The store's recovery key pair: an X25519 key for HPKE (RFC 9180 §7.1, DHKEM(X25519, HKDF-SHA256)).
 * The public half goes into every terminal's configuration as 43 base64url characters; the private
 * half is a file, opened only by `pos-agent rescue`, `lift-fence` and `store enrol` with its passphrase.
 *
 * The file may be copied with the USB stick it is on, so the passphrase is stretched with scrypt
 * (RFC 7914; N = 2^17, r = 8, p = 1: about a third of a second and 128 MiB per guess) into an
 * AES-256-GCM key that seals the private key's 32 bytes (NIST SP 800-38D). The parameters, the salt,
 * the nonce and the public key are in the file and are the AEAD's associated data, so none can be
 * changed without the file failing to open:
 *
 *   -----BEGIN POS-AGENT STORE RECOVERY KEY-----
 *   base64 of {"v":1,"kdf":"scrypt","N":131072,"r":8,"p":1,"salt":…,"iv":…,"publicKey":…,"sealed":…}
 *   -----END POS-AGENT STORE RECOVERY KEY-----
 *
 * Files made before (an encrypted PKCS #8 PEM, PBES2 of RFC 8018 with 2,048 PBKDF2 iterations, as
 * Node writes it) still open, with a note to re-wrap them (`pos-agent store keygen --rewrap`).
 */
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  scryptSync,
  type KeyObject,
} from 'node:crypto'
import { PosError } from '../../src-shared/pos-error'
import { MIN_PASSPHRASE_LENGTH, passphraseProblem } from './passphrase-rule'

export { MIN_PASSPHRASE_LENGTH }

export interface RecoveryKeyPair {
  /** For `store.recoveryPublicKey`: the raw X25519 public key, base64url. */
  publicKey: string
  /** The private key file's content. */
  privateKeyPem: string
}

export type X25519PublicJwk = { kty: 'OKP'; crv: 'X25519'; x: string }
export type X25519PrivateJwk = X25519PublicJwk & { d: string }

const BEGIN = '-----BEGIN POS-AGENT STORE RECOVERY KEY-----'
const END = '-----END POS-AGENT STORE RECOVERY KEY-----'
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 }
/** scrypt needs 128·N·r bytes; Node refuses more than 32 MiB unless told. */
const MAX_MEMORY = 512 * 1024 * 1024

interface KeyFile {
  v: 1
  kdf: 'scrypt'
  N: number
  r: number
  p: number
  salt: string
  iv: string
  publicKey: string
  /** The private key's 32 bytes under AES-256-GCM, with its 16-byte tag at the end (base64url). */
  sealed: string
}

/** A new pair, the private key wrapped under `passphrase` (which must meet the passphrase rule). */
export function makeRecoveryKeyPair(passphrase: string): RecoveryKeyPair {
  const problem = passphraseProblem(passphrase)
  if (problem) throw new PosError('RECOVERY_KEY_INVALID', problem)
  const { privateKey } = generateKeyPairSync('x25519')
  const jwk = privateKey.export({ format: 'jwk' }) as X25519PrivateJwk
  return { publicKey: jwk.x, privateKeyPem: wrapRecoveryKey(jwk, passphrase) }
}

/** The private key in a new file's content under `passphrase` (the rule is the caller's: keygen, re-wrap). */
export function wrapRecoveryKey(jwk: X25519PrivateJwk, passphrase: string): string {
  const salt = randomBytes(16)
  const iv = randomBytes(12)
  const head = {
    v: 1 as const,
    kdf: 'scrypt' as const,
    ...SCRYPT,
    salt: salt.toString('base64url'),
    iv: iv.toString('base64url'),
    publicKey: jwk.x,
  }
  const key = scryptSync(passphrase.normalize('NFC'), salt, 32, { ...SCRYPT, maxmem: MAX_MEMORY })
  const raw = Buffer.from(jwk.d, 'base64url')
  try {
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    cipher.setAAD(Buffer.from(associatedData(head)))
    const sealed = Buffer.concat([cipher.update(raw), cipher.final(), cipher.getAuthTag()])
    const file: KeyFile = { ...head, sealed: sealed.toString('base64url') }
    const body = Buffer.from(JSON.stringify(file)).toString('base64')
    return `${BEGIN}\n${body.replace(/.{1,64}/g, '$&\n')}${END}\n`
  } finally {
    key.fill(0)
    raw.fill(0)
  }
}

function associatedData(head: Omit<KeyFile, 'sealed'>): string {
  return JSON.stringify([head.v, head.kdf, head.N, head.r, head.p, head.salt, head.iv, head.publicKey])
}

/** The configured public key, checked: 32 bytes of base64url. */
export function recoveryPublicJwk(text: string): X25519PublicJwk {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text) || Buffer.from(text, 'base64url').length !== 32)
    throw new PosError('RECOVERY_KEY_INVALID', 'the recovery public key must be the 43 characters `pos-agent store keygen` printed')
  return { kty: 'OKP', crv: 'X25519', x: text }
}

export interface OpenedRecoveryKey {
  jwk: X25519PrivateJwk
  publicKey: string
  /** The file is of the older, weaker kind (PBES2): it should be re-wrapped. */
  legacy: boolean
}

/** The plain words that go with a legacy file wherever it is opened. */
export function rewrapNote(file: string): string {
  return `note: ${file} is protected the older, weaker way; make a stronger copy with \`pos-agent store keygen --rewrap ${file} --out NEW-FILE\`, then destroy this one`
}

const WRONG = 'the recovery key could not be opened: wrong passphrase, or not a recovery key file'

/** The private key from its file and passphrase; a wrong passphrase or another file says so plainly. */
export function openRecoveryPrivateKey(pem: string, passphrase: string): OpenedRecoveryKey {
  const text = pem.trim()
  if (text.startsWith(BEGIN)) return openScryptFile(text, passphrase)
  let key: KeyObject
  try {
    key = createPrivateKey({ key: pem, format: 'pem', passphrase })
  } catch (error) {
    throw new PosError('RECOVERY_KEY_INVALID', WRONG, { cause: error })
  }
  if (key.asymmetricKeyType !== 'x25519') throw new PosError('RECOVERY_KEY_INVALID', 'this file is not a store recovery key')
  const jwk = key.export({ format: 'jwk' }) as X25519PrivateJwk
  return { jwk, publicKey: publicJwk(createPublicKey(key)).x, legacy: true }
}

function openScryptFile(text: string, passphrase: string): OpenedRecoveryKey {
  if (!text.endsWith(END)) throw new PosError('RECOVERY_KEY_INVALID', 'the recovery key file is cut short')
  let file: KeyFile
  try {
    file = JSON.parse(Buffer.from(text.slice(BEGIN.length, -END.length).replace(/\s+/g, ''), 'base64').toString('utf8')) as KeyFile
  } catch (error) {
    throw new PosError('RECOVERY_KEY_INVALID', 'the recovery key file is damaged', { cause: error })
  }
  // Bounds on what the file asks for: a doctored file must not make the opening take all memory.
  const sane =
    file.v === 1 &&
    file.kdf === 'scrypt' &&
    Number.isInteger(Math.log2(file.N)) &&
    file.N >= 2 ** 14 &&
    file.N <= 2 ** 20 &&
    file.r >= 1 &&
    file.r <= 16 &&
    file.p >= 1 &&
    file.p <= 4 &&
    typeof file.salt === 'string' &&
    typeof file.iv === 'string' &&
    typeof file.sealed === 'string' &&
    typeof file.publicKey === 'string'
  if (!sane) throw new PosError('RECOVERY_KEY_INVALID', 'the recovery key file is damaged, or of a kind this version does not know')
  const sealed = Buffer.from(file.sealed, 'base64url')
  if (sealed.length !== 32 + 16) throw new PosError('RECOVERY_KEY_INVALID', 'the recovery key file is damaged')
  const key = scryptSync(passphrase.normalize('NFC'), Buffer.from(file.salt, 'base64url'), 32, {
    N: file.N,
    r: file.r,
    p: file.p,
    maxmem: MAX_MEMORY,
  })
  let raw: Buffer
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(file.iv, 'base64url'))
    decipher.setAAD(Buffer.from(associatedData(file)))
    decipher.setAuthTag(sealed.subarray(32))
    raw = Buffer.concat([decipher.update(sealed.subarray(0, 32)), decipher.final()])
  } catch (error) {
    throw new PosError('RECOVERY_KEY_INVALID', WRONG, { cause: error })
  } finally {
    key.fill(0)
  }
  try {
    const d = raw.toString('base64url')
    const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', x: file.publicKey, d }, format: 'jwk' })
    const x = publicJwk(createPublicKey(privateKey)).x
    if (x !== file.publicKey) throw new PosError('RECOVERY_KEY_INVALID', 'the recovery key file is damaged')
    return { jwk: { kty: 'OKP', crv: 'X25519', x, d }, publicKey: x, legacy: false }
  } finally {
    raw.fill(0)
  }
}

function publicJwk(key: KeyObject): X25519PublicJwk {
  return key.export({ format: 'jwk' }) as X25519PublicJwk
}
