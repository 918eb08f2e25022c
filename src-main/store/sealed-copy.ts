/**
 * A queued item's copy, sealed to the store's recovery public key with HPKE (RFC 9180 §6.1,
 * single-shot Base mode; DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM). The subject is the
 * AAD, so a copy moved to another terminal's or item's subject does not open. Only the rescue, with
 * the private key, can read a copy: the store server holds ciphertext only.
 *
 *   envelope = version (1 byte) | enc (32 bytes, the KEM's encapsulated key) | ciphertext
 */
import type { webcrypto } from 'node:crypto'
import type { SenderContext } from '@hpke/core'
import { PosError } from '../../src-shared/pos-error'
import { copySuite } from './hpke-node'
import type { QueueCopy } from './queue-replica'
import type { X25519PrivateJwk, X25519PublicJwk } from './recovery-key'

const VERSION = 1
const ENC_SIZE = 32
/** RFC 9180 §5.1 `info`: binds every copy to this use of the key. */
const INFO = new TextEncoder().encode('pos-agent queue copy v1')

/** Contexts kept built ahead: enough for a burst of sales whose contexts are still being built. */
const READY_CONTEXTS = 4

/**
 * Seals copies. A single-shot seal is a fresh sender context (RFC 9180 §5.1.1: an ephemeral key, its
 * Diffie-Hellman with the recipient's key, the key schedule) and one AEAD seal under it (§6.1). The
 * context does not depend on the copy, and building it is most of the time (the X25519 steps are
 * WebCrypto calls, each a turn of the event loop): so contexts are built ahead (`prepareAhead`, once
 * the store acknowledged the last copy, so that they do not take the processor from the store server
 * while it answers), and an offline approval waits only for the AEAD seal, which node:crypto does at
 * once (hpke-node.ts). Each context seals exactly one copy and is dropped: the envelope and its
 * security are those of the single-shot seal.
 */
export class CopySealer {
  private readonly suite = copySuite()
  private key: Promise<webcrypto.CryptoKey> | undefined
  private readonly ready: Array<Promise<SenderContext>> = []

  constructor(private readonly publicJwk: X25519PublicJwk) {}

  async seal(copy: QueueCopy, subject: string): Promise<Uint8Array> {
    const context = this.ready.shift() ?? this.context()
    const plain = new TextEncoder().encode(JSON.stringify(copy))
    try {
      const taken = await context
      const ct = await taken.seal(plain, new TextEncoder().encode(subject))
      const out = new Uint8Array(1 + ENC_SIZE + ct.byteLength)
      out[0] = VERSION
      out.set(new Uint8Array(taken.enc), 1)
      out.set(new Uint8Array(ct), 1 + ENC_SIZE)
      return out
    } finally {
      plain.fill(0)
    }
  }

  /** Builds contexts for the next copies, in the background, up to a few. */
  prepareAhead(): void {
    while (this.ready.length < READY_CONTEXTS) this.ready.push(this.context())
  }

  private context(): Promise<SenderContext> {
    this.key ??= this.suite.kem.importKey('jwk', this.publicJwk, true)
    const context = this.key.then((recipientPublicKey) => this.suite.createSenderContext({ recipientPublicKey, info: INFO }))
    // A context that failed to build fails the seal that takes it; until then it is not an unhandled rejection.
    context.catch(() => undefined)
    return context
  }
}

export class CopyOpener {
  private readonly suite = copySuite()
  /**
   * The recovery key as a pair, imported once: given only the private key, the library derives its
   * public half again for every copy it opens (RFC 9180 §4.1 Decap needs pkRm), through an export
   * that a non-extractable key refuses and a fallback of three more WebCrypto calls.
   */
  private key: Promise<webcrypto.CryptoKeyPair> | undefined

  constructor(private readonly privateJwk: X25519PrivateJwk) {}

  private keyPair(): Promise<webcrypto.CryptoKeyPair> {
    const { kty, crv, x } = this.privateJwk
    this.key ??= Promise.all([
      this.suite.kem.importKey('jwk', this.privateJwk, false),
      this.suite.kem.importKey('jwk', { kty, crv, x }, true),
    ]).then(([privateKey, publicKey]) => ({ privateKey, publicKey }))
    return this.key
  }

  async open(envelope: Uint8Array, subject: string): Promise<QueueCopy> {
    if (envelope[0] !== VERSION || envelope.length <= 1 + ENC_SIZE)
      throw new PosError('RECOVERY_KEY_INVALID', `the copy at ${subject} is not one this version can read`)
    try {
      // Copied into buffers of their own: a Node Buffer's `slice` is a view of a shared pool, whose
      // `.buffer` is the whole pool.
      const plain = await this.suite.open(
        { recipientKey: await this.keyPair(), enc: new Uint8Array(envelope.subarray(1, 1 + ENC_SIZE)).buffer, info: INFO },
        new Uint8Array(envelope.subarray(1 + ENC_SIZE)).buffer,
        new TextEncoder().encode(subject),
      )
      return JSON.parse(new TextDecoder().decode(plain)) as QueueCopy
    } catch (error) {
      throw new PosError('RECOVERY_KEY_INVALID', `the copy at ${subject} does not open with this recovery key`, { cause: error })
    }
  }
}
