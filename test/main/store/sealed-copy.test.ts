/**
 * The queue's copies sealed by the terminal that queued them to the store's recovery key
 * (src-main/store/sealed-copy.ts, HPKE Auth mode): contexts are built ahead, yet every copy has its
 * own ephemeral key; a copy opens only with the recovery key and a copy key enrolled for the terminal
 * that sealed it, under its own subject, with fields that name that subject. Copies forged with the
 * recovery public key alone (Base mode, old or new version byte) or by another terminal are refused.
 */
import type { CipherSuite } from '@hpke/core'
import { describe, expect, it } from 'vitest'
import {
  CopyOpener,
  CopySealer,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  queueCopyOf,
  queueTombstoneOf,
  recoveryPublicJwk,
  type CopyRecord,
  type QueueCopy,
} from '../../../src-main/store'
import { copySuite } from '../../../src-main/store/hpke-node'
import { copySubject } from '../../../src-main/store/store-names'

const PASSPHRASE = 'a recovery passphrase for tests'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const recovery = openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk
const opener = () => new CopyOpener(recovery)
const laneA = makeCopyKeyPair()
const laneB = makeCopyKeyPair()
const A = { storeId: 'S1', terminalId: 'T-0001' }

function copy(n: number, merchant = A): QueueCopy {
  return queueCopyOf(
    merchant,
    `T-0001-S${n}`,
    {
      operation: 'payment',
      messageId: `T-0001-S${n}`,
      body: { amount: `${n}.00`, track2: '4761739001010010=25122011143804400000' },
      amountMinor: n * 100,
      currency: 'USD',
      seq: n,
    },
    1_700_000_000_000 + n,
  )
}

const subject = (n: number, terminalId = 'T-0001') => copySubject('S1', terminalId, 'payment', `T-0001-S${n}`)
/** The envelope's encapsulated key (RFC 9180 §4: the ephemeral public key of its one sender context). */
const encOf = (envelope: Uint8Array) => Buffer.from(envelope.subarray(1, 33)).toString('hex')

/** A copy sealed as the store's review script did: HPKE Base mode to the recovery public key, no sender key. */
async function forgeBaseMode(record: unknown, at: string, version: number, info: string): Promise<Uint8Array> {
  const suite: CipherSuite = copySuite()
  const recipientPublicKey = await suite.kem.importKey('jwk', recoveryPublicJwk(keys.publicKey), true)
  const sender = await suite.createSenderContext({ recipientPublicKey, info: new TextEncoder().encode(info) })
  const ct = await sender.seal(new TextEncoder().encode(JSON.stringify(record)), new TextEncoder().encode(at))
  const out = new Uint8Array(1 + 32 + ct.byteLength)
  out[0] = version
  out.set(new Uint8Array(sender.enc), 1)
  out.set(new Uint8Array(ct), 33)
  return out
}

describe('sealed copies', () => {
  it('gives each copy of a burst its own ephemeral key, and each opens with the enrolled key to what was sealed', async () => {
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey), laneA.privateJwk)
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
    expect(envelopes.every((envelope) => envelope[0] === 2)).toBe(true)
    const open = opener()
    for (const [i, envelope] of envelopes.entries()) expect(await open.open(envelope, subject(i), [laneA.publicKey])).toEqual(copy(i))
    // Nothing of the card data is readable in the envelope.
    for (const envelope of envelopes) expect(Buffer.from(envelope).toString('latin1')).not.toContain('4761739001010010')
  })

  it("opens with any key of the terminal's enrolment history (copies sealed before a re-enrolment)", async () => {
    const envelope = await new CopySealer(recoveryPublicJwk(keys.publicKey), laneA.privateJwk).seal(copy(1), subject(1))
    const newer = makeCopyKeyPair()
    expect(await opener().open(envelope, subject(1), [newer.publicKey, laneA.publicKey])).toEqual(copy(1))
  })

  it('refuses a copy sealed with the recovery public key alone (Base mode), as version 1 or 2', async () => {
    const forgedV1 = await forgeBaseMode({ ...copy(1), v: 1 }, subject(1), 1, 'pos-agent queue copy v1')
    await expect(opener().open(forgedV1, subject(1), [laneA.publicKey])).rejects.toMatchObject({
      code: 'COPY_REFUSED',
      message: expect.stringMatching(/old copy that does not prove which terminal made it/),
    })
    // The same forgery given the new version byte and info: it does not open in Auth mode with A's key.
    const forgedV2 = await forgeBaseMode(copy(1), subject(1), 2, 'pos-agent queue copy v2')
    await expect(opener().open(forgedV2, subject(1), [laneA.publicKey])).rejects.toMatchObject({
      code: 'COPY_REFUSED',
      message: expect.stringMatching(/not sealed by the terminal it names/),
    })
  })

  it("refuses a copy another lane sealed with its own key under A's subject, naming A", async () => {
    const forged = await new CopySealer(recoveryPublicJwk(keys.publicKey), laneB.privateJwk).seal(copy(2), subject(2))
    await expect(opener().open(forged, subject(2), [laneA.publicKey])).rejects.toThrow(/not sealed by the terminal it names/)
    // It opens only with B's own key: B can make copies for B alone.
    expect(await opener().open(forged, subject(2), [laneB.publicKey])).toEqual(copy(2))
  })

  it('refuses a copy whose fields disagree with its subject, and one moved to another subject', async () => {
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey), laneA.privateJwk)
    // Sealed by A (so it authenticates) under A's subject for item 3, but saying it is item 4 of T-0002.
    const lying: CopyRecord = { ...copy(3), messageId: 'T-0001-S4' }
    await expect(opener().open(await sealer.seal(lying, subject(3)), subject(3), [laneA.publicKey])).rejects.toThrow(
      /what it says \(store, terminal, message\) is not what its place at the store says/,
    )
    const other: CopyRecord = copy(3, { storeId: 'S1', terminalId: 'T-0002' })
    await expect(opener().open(await sealer.seal(other, subject(3)), subject(3), [laneA.publicKey])).rejects.toThrow(
      /is not what its place/,
    )
    const moved = await sealer.seal(copy(3), subject(3))
    await expect(opener().open(moved, subject(5), [laneA.publicKey])).rejects.toThrow(/not sealed by the terminal it names/)
  })

  it('refuses another recovery key, a terminal with no enrolled key, junk, and content that is not a queued message', async () => {
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey), laneA.privateJwk)
    const envelope = await sealer.seal(copy(1), subject(1))
    const other = makeRecoveryKeyPair(PASSPHRASE)
    await expect(
      new CopyOpener(openRecoveryPrivateKey(other.privateKeyPem, PASSPHRASE).jwk).open(envelope, subject(1), [laneA.publicKey]),
    ).rejects.toThrow(/not sealed by the terminal it names/)
    await expect(opener().open(envelope, subject(1), [])).rejects.toThrow(/not enrolled with the store/)
    await expect(opener().open(new Uint8Array(0), subject(1), [laneA.publicKey])).rejects.toThrow(/it is empty/)
    await expect(opener().open(new TextEncoder().encode('garbage'), subject(1), [laneA.publicKey])).rejects.toThrow(
      /not a copy this version can read/,
    )
    const notACopy = await sealer.seal({ hello: 'world' } as unknown as CopyRecord, subject(1))
    await expect(opener().open(notACopy, subject(1), [laneA.publicKey])).rejects.toThrow(/not a queued message this version knows/)
    const negative = await sealer.seal({ ...copy(1), amountMinor: -500 }, subject(1))
    await expect(opener().open(negative, subject(1), [laneA.publicKey])).rejects.toThrow(/not a queued message this version knows/)
  })

  it('seals and opens a withdrawal (tombstone) on the subject of the item it withdraws', async () => {
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey), laneA.privateJwk)
    const tombstone = queueTombstoneOf(A, 'T-0001-S7', { operation: 'payment', messageId: 'T-0001-S7' }, 1_700_000_100_000)
    const opened = await opener().open(await sealer.seal(tombstone, subject(7)), subject(7), [laneA.publicKey])
    expect(opened).toEqual({ ...tombstone, kind: 'withdrawn', v: 2 })
  })
})
