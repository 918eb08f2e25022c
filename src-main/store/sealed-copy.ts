/**
 * A queued item's copy, sealed to the store's recovery public key with HPKE (RFC 9180 §6.1,
 * single-shot Base mode; DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM). The subject is the
 * AAD, so a copy moved to another terminal's or item's subject does not open. Only the rescue, with
 * the private key, can read a copy: the store server holds ciphertext only.
 *
 *   envelope = version (1 byte) | enc (32 bytes, the KEM's encapsulated key) | ciphertext
 */
import type { webcrypto } from 'node:crypto'
import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core'
import { PosError } from '../../src-shared/pos-error'
import type { QueueCopy } from './queue-replica'
import type { X25519PrivateJwk, X25519PublicJwk } from './recovery-key'

const VERSION = 1
const ENC_SIZE = 32
/** RFC 9180 §5.1 `info`: binds every copy to this use of the key. */
const INFO = new TextEncoder().encode('pos-agent queue copy v1')

const suite = () => new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() })

export class CopySealer {
  private readonly suite = suite()
  private key: Promise<webcrypto.CryptoKey> | undefined

  constructor(private readonly publicJwk: X25519PublicJwk) {}

  async seal(copy: QueueCopy, subject: string): Promise<Uint8Array> {
    this.key ??= this.suite.kem.importKey('jwk', this.publicJwk, true)
    const plain = new TextEncoder().encode(JSON.stringify(copy))
    const sealed = await this.suite.seal({ recipientPublicKey: await this.key, info: INFO }, plain, new TextEncoder().encode(subject))
    plain.fill(0)
    const out = new Uint8Array(1 + ENC_SIZE + sealed.ct.byteLength)
    out[0] = VERSION
    out.set(new Uint8Array(sealed.enc), 1)
    out.set(new Uint8Array(sealed.ct), 1 + ENC_SIZE)
    return out
  }
}

export class CopyOpener {
  private readonly suite = suite()
  private key: Promise<webcrypto.CryptoKey> | undefined

  constructor(private readonly privateJwk: X25519PrivateJwk) {}

  async open(envelope: Uint8Array, subject: string): Promise<QueueCopy> {
    if (envelope[0] !== VERSION || envelope.length <= 1 + ENC_SIZE)
      throw new PosError('RECOVERY_KEY_INVALID', `the copy at ${subject} is not one this version can read`)
    this.key ??= this.suite.kem.importKey('jwk', this.privateJwk, false)
    try {
      // Copied into buffers of their own: a Node Buffer's `slice` is a view of a shared pool, whose
      // `.buffer` is the whole pool.
      const plain = await this.suite.open(
        { recipientKey: await this.key, enc: new Uint8Array(envelope.subarray(1, 1 + ENC_SIZE)).buffer, info: INFO },
        new Uint8Array(envelope.subarray(1 + ENC_SIZE)).buffer,
        new TextEncoder().encode(subject),
      )
      return JSON.parse(new TextDecoder().decode(plain)) as QueueCopy
    } catch (error) {
      throw new PosError('RECOVERY_KEY_INVALID', `the copy at ${subject} does not open with this recovery key`, { cause: error })
    }
  }
}
