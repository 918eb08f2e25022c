/**
 * The copies' HPKE suite with node:crypto's HKDF and AES-GCM (src-main/store/hpke-node.ts) against the
 * library's own suite (WebCrypto, tested by its authors on RFC 9180's test vectors): from the same
 * ephemeral key both give the very same bytes, and each opens what the other sealed.
 */
import { randomBytes } from 'node:crypto'
import { Aes128Gcm, Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core'
import { describe, expect, it } from 'vitest'
import { copySuite, NodeAesGcm, NodeDhkemX25519HkdfSha256, NodeHkdfSha256 } from '../../../src-main/store/hpke-node'

const library = (aead: Aes128Gcm | Aes256Gcm = new Aes256Gcm()) =>
  new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead })
const INFO = new TextEncoder().encode('pos-agent queue copy v1')
const hex = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('hex')

describe('the copies HPKE suite on node:crypto', () => {
  it('seals the same bytes as the library from the same ephemeral key, for AES-256-GCM and AES-128-GCM', async () => {
    const pairs: Array<[CipherSuite, CipherSuite]> = [
      [copySuite(), library()],
      [
        new CipherSuite({ kem: new NodeDhkemX25519HkdfSha256(), kdf: new NodeHkdfSha256(), aead: new NodeAesGcm(16) }),
        library(new Aes128Gcm()),
      ],
    ]
    for (const [ours, theirs] of pairs) {
      const recipient = await theirs.kem.generateKeyPair()
      for (const size of [0, 1, 15, 16, 17, 700, 4_000]) {
        // The ephemeral key from fixed key material (RFC 9180 §7.1.3 DeriveKeyPair), as the RFC's test vectors do.
        const ekm = new Uint8Array(randomBytes(32)).buffer
        const plain = new Uint8Array(randomBytes(size))
        const aad = new TextEncoder().encode(`pos.queue.S1.T-0001.payment.${size}`)
        const a = await ours.seal({ recipientPublicKey: recipient.publicKey, info: INFO, ekm }, plain, aad)
        const b = await theirs.seal({ recipientPublicKey: recipient.publicKey, info: INFO, ekm }, plain, aad)
        expect(hex(a.enc)).toBe(hex(b.enc))
        expect(hex(a.ct)).toBe(hex(b.ct))
        // Each opens the other's, and a changed subject (the AAD) or byte does not open.
        expect(hex(await theirs.open({ recipientKey: recipient, enc: a.enc, info: INFO }, a.ct, aad))).toBe(hex(plain.buffer))
        expect(hex(await ours.open({ recipientKey: recipient, enc: b.enc, info: INFO }, b.ct, aad))).toBe(hex(plain.buffer))
        await expect(
          ours.open({ recipientKey: recipient, enc: b.enc, info: INFO }, b.ct, new TextEncoder().encode('another')),
        ).rejects.toThrow()
        const flipped = new Uint8Array(b.ct.slice(0))
        flipped[flipped.length - 1]! ^= 1
        await expect(ours.open({ recipientKey: recipient, enc: b.enc, info: INFO }, flipped.buffer, aad)).rejects.toThrow()
      }
    }
  })

  it('gives a fresh ephemeral key to every context, and the key schedule the library gives', async () => {
    const ours = copySuite()
    const theirs = library()
    const recipient = await theirs.kem.generateKeyPair()
    const encs = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const context = await ours.createSenderContext({ recipientPublicKey: recipient.publicKey, info: INFO })
      encs.add(hex(context.enc))
      // The exporter secret (RFC 9180 §5.3) comes out of the same key schedule as the AEAD key and nonce.
      const exported = await context.export(new TextEncoder().encode('check'), 32)
      const receiving = await theirs.createRecipientContext({ recipientKey: recipient, enc: context.enc, info: INFO })
      expect(hex(await receiving.export(new TextEncoder().encode('check'), 32))).toBe(hex(exported))
    }
    expect(encs.size).toBe(20)
  })
})
