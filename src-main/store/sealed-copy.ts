/**
 * A queued item's copy, sealed by the terminal that queued it to the store's recovery public key with
 * HPKE in Auth mode (RFC 9180 §5.1.3; DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM). The
 * sender's key is the terminal's own copy key (its public half enrolled with the store, enrolment.ts),
 * so a copy opens only when both the recovery private key and that terminal's key were in it: whoever
 * has only the recovery public key (every terminal's configuration holds it) or another lane's key
 * cannot make a copy the rescue accepts. The subject is the AAD, and the record's own fields must
 * name that subject, so a copy moved to another terminal's or item's subject is refused.
 *
 *   envelope = version (1 byte, 2) | enc (32 bytes, the KEM's encapsulated key) | ciphertext
 *
 * Version 1 (Base mode, unauthenticated) is no longer made, and refused when read.
 */
import type { webcrypto } from 'node:crypto'
import type { SenderContext } from '@hpke/core'
import { z } from 'zod'
import { PosError } from '../../src-shared/pos-error'
import { QUEUE_OPERATIONS } from '../../src-shared/sale'
import { copySuite } from './hpke-node'
import type { CopyRecord } from './queue-replica'
import type { X25519PrivateJwk, X25519PublicJwk } from './recovery-key'
import { copySubject } from './store-names'

const VERSION = 2
const ENC_SIZE = 32
/** RFC 9180 §5.1 `info`: binds every copy to this use of the keys. */
const INFO = new TextEncoder().encode('pos-agent queue copy v2')

/** Contexts kept built ahead: enough for a burst of sales whose contexts are still being built. */
const READY_CONTEXTS = 4

/**
 * Seals copies. A single-shot seal is a fresh sender context (RFC 9180 §5.1.3: an ephemeral key, its
 * Diffie-Hellman with the recipient's key and the sender's with it, the key schedule) and one AEAD
 * seal under it (§6.1). The context does not depend on the copy, and building it is most of the time
 * (the X25519 steps are WebCrypto calls, each a turn of the event loop): so contexts are built ahead
 * (`prepareAhead`, once the store acknowledged the last copy, so that they do not take the processor
 * from the store server while it answers), and an offline approval waits only for the AEAD seal,
 * which node:crypto does at once (hpke-node.ts). Each context seals exactly one copy and is dropped:
 * the envelope and its security are those of the single-shot seal.
 */
export class CopySealer {
  private readonly suite = copySuite()
  private keys: Promise<{ recipientPublicKey: webcrypto.CryptoKey; senderKey: webcrypto.CryptoKeyPair }> | undefined
  private readonly ready: Array<Promise<SenderContext>> = []

  constructor(
    private readonly recoveryPublic: X25519PublicJwk,
    private readonly terminalKey: X25519PrivateJwk,
  ) {}

  async seal(record: CopyRecord, subject: string): Promise<Uint8Array> {
    const context = this.ready.shift() ?? this.context()
    const plain = new TextEncoder().encode(JSON.stringify(record))
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
    // The terminal's key as a pair: given only the private key, the library derives its public half
    // again for every context (RFC 9180 §4.1 AuthEncap needs pkSm).
    const { kty, crv, x } = this.terminalKey
    this.keys ??= Promise.all([
      this.suite.kem.importKey('jwk', this.recoveryPublic, true),
      this.suite.kem.importKey('jwk', this.terminalKey, false),
      this.suite.kem.importKey('jwk', { kty, crv, x }, true),
    ]).then(([recipientPublicKey, privateKey, publicKey]) => ({ recipientPublicKey, senderKey: { privateKey, publicKey } }))
    const context = this.keys.then((keys) => this.suite.createSenderContext({ ...keys, info: INFO }))
    // A context that failed to build fails the seal that takes it; until then it is not an unhandled rejection.
    context.catch(() => undefined)
    return context
  }
}

const operation = z.enum(QUEUE_OPERATIONS)
const id = z.string().min(1).max(200)
const minor = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)
const recordSchema = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(2),
    kind: z.literal('copy'),
    storeId: id,
    terminalId: id,
    saleId: id,
    operation,
    messageId: id,
    body: z.unknown().refine((body) => body !== undefined && body !== null, 'it has no message'),
    amountMinor: minor,
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .nullable(),
    queuedAt: minor,
    seq: minor,
    saleAmountMinor: minor.optional(),
  }),
  z.object({
    v: z.literal(2),
    kind: z.literal('withdrawn'),
    storeId: id,
    terminalId: id,
    saleId: id,
    operation,
    messageId: id,
    withdrawnAt: minor,
  }),
])

export class CopyOpener {
  private readonly suite = copySuite()
  /**
   * The recovery key as a pair, imported once: given only the private key, the library derives its
   * public half again for every copy it opens (RFC 9180 §4.1 Decap needs pkRm), through an export
   * that a non-extractable key refuses and a fallback of three more WebCrypto calls.
   */
  private key: Promise<webcrypto.CryptoKeyPair> | undefined
  /** Enrolled terminals' public keys, imported once each. */
  private readonly senders = new Map<string, Promise<webcrypto.CryptoKey>>()

  constructor(private readonly recoveryPrivate: X25519PrivateJwk) {}

  private keyPair(): Promise<webcrypto.CryptoKeyPair> {
    const { kty, crv, x } = this.recoveryPrivate
    this.key ??= Promise.all([
      this.suite.kem.importKey('jwk', this.recoveryPrivate, false),
      this.suite.kem.importKey('jwk', { kty, crv, x }, true),
    ]).then(([privateKey, publicKey]) => ({ privateKey, publicKey }))
    return this.key
  }

  private sender(publicKey: string): Promise<webcrypto.CryptoKey> {
    let key = this.senders.get(publicKey)
    if (!key) {
      key = this.suite.kem.importKey('jwk', { kty: 'OKP', crv: 'X25519', x: publicKey }, true)
      this.senders.set(publicKey, key)
    }
    return key
  }

  /**
   * The record at `subject`, when one of `senderPublicKeys` (the terminal's enrolled copy keys, newest
   * first) sealed it and its fields name that subject. Anything else is a `COPY_REFUSED` whose words
   * say why, for the rescue's report.
   */
  async open(envelope: Uint8Array, subject: string, senderPublicKeys: string[]): Promise<CopyRecord> {
    if (envelope.length === 0) throw refused(subject, 'it is empty')
    if (envelope[0] === 1)
      throw refused(
        subject,
        'it is an old copy that does not prove which terminal made it (anyone with store access could have), so it is not sent',
      )
    if (envelope[0] !== VERSION || envelope.length <= 1 + ENC_SIZE) throw refused(subject, 'it is not a copy this version can read')
    if (senderPublicKeys.length === 0)
      throw refused(subject, 'the terminal it names is not enrolled with the store, so no copy of it can be trusted')
    // Copied into buffers of their own: a Node Buffer's `slice` is a view of a shared pool, whose
    // `.buffer` is the whole pool.
    const enc = new Uint8Array(envelope.subarray(1, 1 + ENC_SIZE)).buffer
    const ct = new Uint8Array(envelope.subarray(1 + ENC_SIZE)).buffer
    const aad = new TextEncoder().encode(subject)
    const recipientKey = await this.keyPair()
    let plain: ArrayBuffer | undefined
    for (const publicKey of senderPublicKeys) {
      try {
        const senderPublicKey = await this.sender(publicKey)
        plain = await this.suite.open({ recipientKey, enc, info: INFO, senderPublicKey }, ct, aad)
        break
      } catch {
        // Not this key: the next enrolled one (a re-enrolled terminal's older copies).
      }
    }
    if (plain === undefined)
      throw refused(subject, 'it was not sealed by the terminal it names (none of its enrolled keys opens it with this recovery key)')
    const bytes = new Uint8Array(plain)
    let record: CopyRecord
    try {
      const parsed = recordSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)))
      if (!parsed.success) throw refused(subject, 'its content is not a queued message this version knows')
      record = parsed.data
    } catch (error) {
      if (error instanceof PosError) throw error
      throw refused(subject, 'its content is not a queued message this version knows')
    } finally {
      bytes.fill(0)
    }
    let named: string
    try {
      named = copySubject(record.storeId, record.terminalId, record.operation, record.messageId)
    } catch {
      named = ''
    }
    if (named !== subject) throw refused(subject, 'what it says (store, terminal, message) is not what its place at the store says')
    return record
  }
}

/** Why a copy is refused, as the rescue's report line says it (the line names the message itself). */
function refused(subject: string, why: string): PosError {
  return new PosError('COPY_REFUSED', `not sent: ${why}`, { cause: new Error(subject) })
}
