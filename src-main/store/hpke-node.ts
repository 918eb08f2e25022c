/**
 * The queue copies' HPKE suite (RFC 9180: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM)
 * from the maintained library (@hpke/core: the KEM, the key schedule, the contexts, their nonces and
 * sequence numbers), with its KDF and AEAD primitives given through the library's own interfaces
 * (`KdfInterface`, `AeadInterface`) and computed by node:crypto.
 *
 * Why: the library computes HMAC, HKDF and AES-GCM through WebCrypto, and in Node every WebCrypto
 * call is a job on libuv's thread pool whose answer waits for a free turn of the event loop. An
 * offline approval waits for its copy's AEAD seal (a key import and an encryption: two such turns),
 * and on a busy terminal each turn can wait behind milliseconds of other work (a journal commit, the
 * queue's retries). node:crypto's HMAC and AES-GCM are synchronous and take microseconds for inputs
 * this size, so the seal no longer gives the event loop away. The algorithms, and so the copies' bytes,
 * are the same: a copy sealed with this suite opens with the library's own, and the other way round.
 */
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto'
import { AeadId, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256, type AeadEncryptionContext, type AeadInterface } from '@hpke/core'

type Bytes = ArrayBufferLike | ArrayBufferView

function view(bytes: Bytes): Uint8Array {
  return ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes)
}

/** The library's interfaces answer ArrayBuffers of their own: a Node Buffer may be a view of a shared pool. */
function own(bytes: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(bytes.byteLength)
  new Uint8Array(out).set(bytes)
  return out
}

const HASH_SIZE = 32

/** HKDF-SHA256 (RFC 5869) by node:crypto; the labels around it (RFC 9180 §4) stay the library's. */
export class NodeHkdfSha256 extends HkdfSha256 {
  override extract(salt: Bytes, ikm: Bytes): Promise<ArrayBuffer> {
    // RFC 5869 §2.2: an absent salt is HashLen zero bytes (as the library does).
    const key = salt.byteLength === 0 ? new Uint8Array(HASH_SIZE) : view(salt)
    return Promise.resolve(own(createHmac('sha256', key).update(view(ikm)).digest()))
  }

  override expand(prk: Bytes, info: Bytes, length: number): Promise<ArrayBuffer> {
    if (length > 255 * HASH_SIZE) return Promise.reject(new Error('Entropy limit reached'))
    // RFC 5869 §2.3: T(i) = HMAC(PRK, T(i-1) | info | i), the output their concatenation.
    const okm = new Uint8Array(length)
    let block = new Uint8Array(0)
    for (let i = 1, done = 0; done < length; i++) {
      block = createHmac('sha256', view(prk)).update(block).update(view(info)).update(Uint8Array.of(i)).digest()
      okm.set(block.subarray(0, length - done), done)
      done += block.byteLength
    }
    return Promise.resolve(okm.buffer)
  }

  override extractAndExpand(salt: Bytes, ikm: Bytes, info: Bytes, length: number): Promise<ArrayBuffer> {
    return Promise.resolve(hkdfSync('sha256', view(ikm), view(salt), view(info), length))
  }
}

const TAG_SIZE = 16

/** One context's AES-GCM key, as a key object: the raw bytes the key schedule gave are wiped. */
class NodeAesGcmContext implements AeadEncryptionContext {
  private readonly key: KeyObject
  private readonly algorithm: 'aes-128-gcm' | 'aes-256-gcm'

  constructor(raw: Bytes) {
    const bytes = view(raw)
    this.algorithm = bytes.byteLength === 16 ? 'aes-128-gcm' : 'aes-256-gcm'
    this.key = createSecretKey(Buffer.from(bytes))
    bytes.fill(0)
  }

  seal(iv: Bytes, data: Bytes, aad: Bytes): Promise<ArrayBuffer> {
    const cipher = createCipheriv(this.algorithm, this.key, view(iv), { authTagLength: TAG_SIZE })
    cipher.setAAD(view(aad))
    const head = cipher.update(view(data))
    const tail = cipher.final()
    const out = new Uint8Array(head.byteLength + tail.byteLength + TAG_SIZE)
    out.set(head, 0)
    out.set(tail, head.byteLength)
    out.set(cipher.getAuthTag(), head.byteLength + tail.byteLength)
    return Promise.resolve(out.buffer)
  }

  open(iv: Bytes, data: Bytes, aad: Bytes): Promise<ArrayBuffer> {
    try {
      const sealed = view(data)
      if (sealed.byteLength < TAG_SIZE) throw new Error('the ciphertext is shorter than its tag')
      const decipher = createDecipheriv(this.algorithm, this.key, view(iv), { authTagLength: TAG_SIZE })
      decipher.setAAD(view(aad))
      decipher.setAuthTag(sealed.subarray(sealed.byteLength - TAG_SIZE))
      const head = decipher.update(sealed.subarray(0, sealed.byteLength - TAG_SIZE))
      const tail = decipher.final()
      const out = new Uint8Array(head.byteLength + tail.byteLength)
      out.set(head, 0)
      out.set(tail, head.byteLength)
      return Promise.resolve(out.buffer)
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }
}

/** AES-GCM (NIST SP 800-38D) by node:crypto, under the AEAD id RFC 9180 §7.3 gives it. */
export class NodeAesGcm implements AeadInterface {
  readonly id: AeadId
  readonly nonceSize = 12
  readonly tagSize = TAG_SIZE

  /** 32 bytes: AES-256-GCM, the copies' AEAD; 16: AES-128-GCM. */
  constructor(readonly keySize: 16 | 32 = 32) {
    this.id = keySize === 16 ? AeadId.Aes128Gcm : AeadId.Aes256Gcm
  }

  createEncryptionContext(key: Bytes): AeadEncryptionContext {
    return new NodeAesGcmContext(key)
  }
}

/** RFC 9180 §4.1: the KEM's own labels are under suite_id = concat("KEM", I2OSP(kem_id, 2)), kem_id 0x0020. */
const KEM_SUITE_ID = new Uint8Array([0x4b, 0x45, 0x4d, 0x00, 0x20])

/**
 * The library's DHKEM(X25519, HKDF-SHA256) (its X25519, Encap and Decap, §4.1), its shared secret's
 * ExtractAndExpand given to node:crypto's HKDF like the key schedule's.
 */
export class NodeDhkemX25519HkdfSha256 extends DhkemX25519HkdfSha256 {
  constructor() {
    super()
    const kdf = new NodeHkdfSha256()
    kdf.init(KEM_SUITE_ID)
    this._kdf = kdf
  }
}

/** The copies' suite: the library's KEM and key schedule, node:crypto's HKDF and AES-256-GCM. */
export function copySuite(): CipherSuite {
  return new CipherSuite({ kem: new NodeDhkemX25519HkdfSha256(), kdf: new NodeHkdfSha256(), aead: new NodeAesGcm(32) })
}
