/**
 * The store's recovery key pair: an X25519 key for HPKE (RFC 9180 §7.1, DHKEM(X25519, HKDF-SHA256)).
 * The public half goes into every terminal's configuration as 43 base64url characters; the private
 * half is an encrypted PKCS #8 PEM (RFC 5958; PBES2 of RFC 8018 §6.2, PBKDF2-HMAC-SHA256 and
 * AES-256-CBC, as OpenSSL writes it), opened only by `pos-agent rescue` with its passphrase.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { PosError } from '../../src-shared/pos-error'

/** A passphrase shorter than this is refused: the key file may be copied with the USB stick it is on. */
export const MIN_PASSPHRASE_LENGTH = 12

export interface RecoveryKeyPair {
  /** For `store.recoveryPublicKey`: the raw X25519 public key, base64url. */
  publicKey: string
  /** The private key file's content: encrypted PKCS #8 PEM. */
  privateKeyPem: string
}

export function makeRecoveryKeyPair(passphrase: string): RecoveryKeyPair {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH)
    throw new PosError('RECOVERY_KEY_INVALID', `the passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters long`)
  const { publicKey, privateKey } = generateKeyPairSync('x25519')
  return {
    publicKey: publicJwk(publicKey).x,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString(),
  }
}

export type X25519PublicJwk = { kty: 'OKP'; crv: 'X25519'; x: string }
export type X25519PrivateJwk = X25519PublicJwk & { d: string }

/** The configured public key, checked: 32 bytes of base64url. */
export function recoveryPublicJwk(text: string): X25519PublicJwk {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text) || Buffer.from(text, 'base64url').length !== 32)
    throw new PosError('RECOVERY_KEY_INVALID', 'the recovery public key must be the 43 characters `pos-agent store keygen` printed')
  return { kty: 'OKP', crv: 'X25519', x: text }
}

/** The private key from its file and passphrase; a wrong passphrase or another file says so plainly. */
export function openRecoveryPrivateKey(pem: string, passphrase: string): { jwk: X25519PrivateJwk; publicKey: string } {
  let key: KeyObject
  try {
    key = createPrivateKey({ key: pem, format: 'pem', passphrase })
  } catch (error) {
    throw new PosError('RECOVERY_KEY_INVALID', 'the recovery key could not be opened: wrong passphrase, or not a recovery key file', {
      cause: error,
    })
  }
  if (key.asymmetricKeyType !== 'x25519') throw new PosError('RECOVERY_KEY_INVALID', 'this file is not a store recovery key')
  const jwk = key.export({ format: 'jwk' }) as X25519PrivateJwk
  return { jwk, publicKey: publicJwk(createPublicKey(key)).x }
}

function publicJwk(key: KeyObject): X25519PublicJwk {
  return key.export({ format: 'jwk' }) as X25519PublicJwk
}
