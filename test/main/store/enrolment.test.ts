/**
 * A terminal's copy key and its enrolment certificate (src-main/store/enrolment.ts): only the
 * recovery private key makes or checks a certificate; one whose MAC does not check, that another
 * recovery key made, or that enrols another terminal or store is refused with the reason; the copy
 * key in the keychain is read back only when it is a whole X25519 key. `store enrol` makes the key
 * and the certificate once, puts it at a real store server, and refuses another store's recovery key.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../src-main/keychain'
import {
  checkEnrolment,
  copyKeyAccount,
  enrolledKeys,
  makeCopyKeyPair,
  makeEnrolment,
  makeRecoveryKeyPair,
  enrolTerminal,
  ENROLMENT_FILE,
  openRecoveryPrivateKey,
  readCopyKey,
  readEnrolmentHistory,
  StoreConnection,
  type EnrolInput,
} from '../../../src-main/store'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'

const PASSPHRASE = 'an enrolment test passphrase'
const recovery = openRecoveryPrivateKey(makeRecoveryKeyPair(PASSPHRASE).privateKeyPem, PASSPHRASE).jwk
const otherRecovery = openRecoveryPrivateKey(makeRecoveryKeyPair(PASSPHRASE).privateKeyPem, PASSPHRASE).jwk
const lane = makeCopyKeyPair()
const NOW = new Date('2026-11-28T10:00:00.000Z')
const A = { storeId: 'S1', terminalId: 'T-0001' }

describe('enrolment', () => {
  it('makes a certificate the same recovery key checks, through JSON', () => {
    const certificate = makeEnrolment(recovery, { ...A, publicKey: lane.publicKey, by: 'manager on lane 2', now: NOW })
    expect(certificate).toMatchObject({
      v: 1,
      ...A,
      publicKey: lane.publicKey,
      enrolledAt: '2026-11-28T10:00:00.000Z',
      by: 'manager on lane 2',
    })
    expect(certificate.mac).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(checkEnrolment(recovery, JSON.stringify(certificate), A)).toEqual(certificate)
    expect(checkEnrolment(recovery, new TextEncoder().encode(JSON.stringify(certificate)))).toEqual(certificate)
  })

  it('refuses a certificate whose fields were changed, one another recovery key made, and one for another store or terminal', () => {
    const certificate = makeEnrolment(recovery, { ...A, publicKey: lane.publicKey, by: 'm', now: NOW })
    // A lane swaps in its own key: the MAC no longer checks.
    const swapped = { ...certificate, publicKey: makeCopyKeyPair().publicKey }
    expect(checkEnrolment(recovery, JSON.stringify(swapped), A)).toEqual({
      refused: "the enrolment certificate was not made with this store's recovery key",
    })
    const forged = makeEnrolment(otherRecovery, { ...A, publicKey: lane.publicKey, by: 'm', now: NOW })
    expect(checkEnrolment(recovery, JSON.stringify(forged), A)).toEqual({
      refused: "the enrolment certificate was not made with this store's recovery key",
    })
    const elsewhere = makeEnrolment(recovery, { storeId: 'S2', terminalId: 'T-0001', publicKey: lane.publicKey, by: 'm', now: NOW })
    expect(checkEnrolment(recovery, JSON.stringify(elsewhere), A)).toEqual({
      refused: 'the enrolment certificate is for terminal T-0001 of store S2, not T-0001 of S1',
    })
    const otherLane = makeEnrolment(recovery, { storeId: 'S1', terminalId: 'T-0002', publicKey: lane.publicKey, by: 'm', now: NOW })
    expect(checkEnrolment(recovery, JSON.stringify(otherLane), A)).toMatchObject({ refused: expect.stringMatching(/T-0002 of store S1/) })
    expect(checkEnrolment(recovery, 'not json', A)).toEqual({ refused: 'the enrolment record is not readable' })
    expect(checkEnrolment(recovery, JSON.stringify({ ...certificate, v: 2 }), A)).toEqual({
      refused: 'the enrolment record is not a whole enrolment certificate',
    })
  })

  it('takes from a history only the keys whose certificates check, newest first, and says why the others were not', () => {
    const older = makeCopyKeyPair()
    const history = [
      JSON.stringify(makeEnrolment(recovery, { ...A, publicKey: lane.publicKey, by: 'm', now: NOW })),
      JSON.stringify(makeEnrolment(otherRecovery, { ...A, publicKey: makeCopyKeyPair().publicKey, by: 'm', now: NOW })),
      JSON.stringify(makeEnrolment(recovery, { ...A, publicKey: older.publicKey, by: 'm', now: new Date('2026-01-01T00:00:00Z') })),
      JSON.stringify(makeEnrolment(recovery, { ...A, publicKey: lane.publicKey, by: 'm', now: NOW })),
      'junk',
    ]
    expect(enrolledKeys(recovery, history, A)).toEqual({
      keys: [lane.publicKey, older.publicKey],
      refused: ["the enrolment certificate was not made with this store's recovery key", 'the enrolment record is not readable'],
    })
  })

  it('reads the copy key from the keychain only when it is a whole X25519 key', async () => {
    const secrets = new MemorySecretStore()
    expect(copyKeyAccount('S1', 'T-0001')).toBe('store-copy-key/S1/T-0001')
    expect(await readCopyKey(secrets, 'S1', 'T-0001')).toBeUndefined()
    await secrets.set(copyKeyAccount('S1', 'T-0001'), JSON.stringify(lane.privateJwk))
    expect(await readCopyKey(secrets, 'S1', 'T-0001')).toEqual(lane.privateJwk)
    // Another terminal's account is its own.
    expect(await readCopyKey(secrets, 'S1', 'T-0002')).toBeUndefined()
    await secrets.set(copyKeyAccount('S1', 'T-0001'), JSON.stringify({ ...lane.privateJwk, x: makeCopyKeyPair().publicKey }))
    expect(await readCopyKey(secrets, 'S1', 'T-0001')).toBeUndefined()
    await secrets.set(copyKeyAccount('S1', 'T-0001'), '{"kty":"OKP"')
    expect(await readCopyKey(secrets, 'S1', 'T-0001')).toBeUndefined()
  })
})

describe.runIf(natsServerAvailable())('pos-agent store enrol, against a real nats-server', () => {
  let dir: string
  let nats: NatsServer
  const pair = makeRecoveryKeyPair(PASSPHRASE)
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-enrol-'))
    nats = await startNatsServer()
  })
  afterEach(async () => {
    await nats.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const enrol = async (secrets: MemorySecretStore, audited: unknown[], over: Partial<EnrolInput> = {}) => {
    const out: string[] = []
    const code = await enrolTerminal({
      secrets,
      dataDir: dir,
      ...A,
      recoveryPublicKey: pair.publicKey,
      keyFile: 'recovery.pem',
      keyPem: pair.privateKeyPem,
      passphrase: PASSPHRASE,
      by: 'Dana',
      connection: { servers: [nats.url], storeId: 'S1', maxAgeMs: 3_600_000 },
      audit: (entry) => void audited.push(entry),
      print: (text) => void out.push(text),
      warn: (text) => void out.push(text),
      timeoutMs: 3_000,
      ...over,
    })
    return { code, out: out.join('\n') }
  }

  it('makes the copy key and the certificate once, puts it at the store, refuses another store’s key, and audits each try', async () => {
    const secrets = new MemorySecretStore()
    const audited: Array<{ ok: boolean; detail: string }> = []
    const other = makeRecoveryKeyPair('another store passphrase')
    const refused = await enrol(secrets, audited, { keyPem: other.privateKeyPem, passphrase: 'another store passphrase' })
    expect(refused.code).toBe(3)
    expect(refused.out).toMatch(/not the recovery key of store S1.*nothing was changed/)
    expect(await readCopyKey(secrets, 'S1', 'T-0001')).toBeUndefined()
    expect(existsSync(join(dir, ENROLMENT_FILE))).toBe(false)

    const first = await enrol(secrets, audited)
    expect(first.code, first.out).toBe(0)
    expect(first.out).toMatch(/is enrolled .* it is at the store server\. Restart the agent/)
    const key = (await readCopyKey(secrets, 'S1', 'T-0001'))!
    const certificate = readFileSync(join(dir, ENROLMENT_FILE), 'utf8')
    expect(checkEnrolment(recovery2(pair), certificate, A)).toMatchObject({ publicKey: key.x, by: expect.stringMatching(/^Dana on /) })

    const again = await enrol(secrets, audited)
    expect(again.out).toMatch(/was already enrolled .* nothing changed/)
    expect(await readCopyKey(secrets, 'S1', 'T-0001')).toEqual(key)
    expect(readFileSync(join(dir, ENROLMENT_FILE), 'utf8')).toBe(certificate)

    const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 't', maxAgeMs: 3_600_000 })
    try {
      const history = await readEnrolmentHistory(connection, 'S1', 'T-0001', 3_000)
      expect(enrolledKeys(recovery2(pair), history, A)).toEqual({ keys: [key.x], refused: [] })
    } finally {
      await connection.close()
    }
    expect(audited.map((entry) => entry.ok)).toEqual([false, true, true])
    expect(audited[1]!.detail).toMatch(/copy key .* made; certificate written; it is at the store server/)
    expect(audited[2]!.detail).toMatch(/copy key .* kept; certificate kept/)
  })
})

function recovery2(pair: { privateKeyPem: string }) {
  return openRecoveryPrivateKey(pair.privateKeyPem, PASSPHRASE).jwk
}
