/**
 * The queue's copies sealed to the store's recovery key (src-main/store/sealed-copy.ts): contexts are
 * built ahead, yet every copy has its own ephemeral key and opens with the single-shot open of the
 * same library, under its own subject only.
 */
import { describe, expect, it } from 'vitest'
import {
  CopyOpener,
  CopySealer,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  recoveryPublicJwk,
  type QueueCopy,
} from '../../../src-main/store'

const PASSPHRASE = 'a recovery passphrase for tests'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const opener = () => new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk)

function copy(n: number): QueueCopy {
  return {
    v: 1,
    storeId: 'S1',
    terminalId: 'T-0001',
    saleId: `T-0001-S${n}`,
    operation: 'payment',
    messageId: `T-0001-S${n}`,
    body: { amount: `${n}.00`, track2: '4761739001010010=25122011143804400000' },
    amountMinor: n * 100,
    currency: 'USD',
    queuedAt: 1_700_000_000_000 + n,
  }
}

const subject = (n: number) => `pos.queue.S1.T-0001.payment.T-0001-S${n}`
/** The envelope's encapsulated key (RFC 9180 §4: the ephemeral public key of its one sender context). */
const encOf = (envelope: Uint8Array) => Buffer.from(envelope.subarray(1, 33)).toString('hex')

describe('sealed copies', () => {
  it('gives each copy of a burst its own ephemeral key, and each opens to what was sealed', async () => {
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey))
    // One sealed with nothing built ahead, then more at once than the sealer keeps ready, then one
    // after another with contexts built ahead in between.
    const first = await sealer.seal(copy(0), subject(0))
    sealer.prepareAhead()
    const burst = await Promise.all(Array.from({ length: 9 }, (_, i) => sealer.seal(copy(i + 1), subject(i + 1))))
    sealer.prepareAhead()
    const tenth = await sealer.seal(copy(10), subject(10))
    sealer.prepareAhead()
    const after = [tenth, await sealer.seal(copy(11), subject(11))]
    const envelopes = [first, ...burst, ...after]
    expect(new Set(envelopes.map(encOf)).size).toBe(envelopes.length)
    const open = opener()
    for (const [i, envelope] of envelopes.entries()) expect(await open.open(envelope, subject(i))).toEqual(copy(i))
    // Nothing of the card data is readable in the envelope.
    for (const envelope of envelopes) expect(Buffer.from(envelope).toString('latin1')).not.toContain('4761739001010010')
  })

  it('does not open under another subject, nor with another recovery key', async () => {
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey))
    const envelope = await sealer.seal(copy(1), subject(1))
    await expect(opener().open(envelope, subject(2))).rejects.toThrow(/does not open with this recovery key/)
    const other = makeRecoveryKeyPair(PASSPHRASE)
    await expect(new CopyOpener(openRecoveryPrivateKey(other.privateKeyPem, PASSPHRASE).jwk).open(envelope, subject(1))).rejects.toThrow(
      /does not open with this recovery key/,
    )
  })
})
