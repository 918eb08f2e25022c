/**
 * A void while the terminal is cut off from the store (docs/store.md "A void while cut off"), against
 * the real nats-server with per-lane permissions, the training host as the bank, and the real engine:
 * a stored payment voided while the store answers is withdrawn there too (a rescue finds nothing to
 * send); one voided while the store cannot be reached goes to the bank as a reversal, the cashier
 * reads that it waits for the bank, and a rescue run afterwards from another lane does not charge it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rescueSender } from '../../../src-main/cli/commands/store-commands'
import { MemorySecretStore } from '../../../src-main/keychain'
import {
  adminConnectionSettings,
  makeCopyKeyPair,
  makeEnrolment,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  runRescue,
  StoreConnection,
} from '../../../src-main/store'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { AID, eventually, KEY, TEN_MINUTE_RETRY } from '../../support/engine-harness'
import { natsServerAvailable } from '../../support/nats-server'
import { hostClient, startLane, type Lane } from '../../support/store-lane'
import { startForwarder, startStoreServer, type Forwarder, type StoreServer } from '../../support/store-server'

const PASSPHRASE = 'void while cut off from the store 2026'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const recovery = openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk
const MAX_AGE = 96 * 3_600_000
const RULES = {
  currency: 'USD',
  storedPaymentMaxMinor: 10_000,
  unreferencedReturnMaxMinor: 10_000,
  unreferencedReturnPerCardDayMinor: 10_000,
  unreferencedReturnPerDayMinor: 50_000,
}

describe.runIf(natsServerAvailable())('a void while cut off from the store', () => {
  let dir: string
  let server: StoreServer
  let admin: StoreConnection
  let host: TrainingHost
  let forwarder: Forwarder
  let lane: Lane
  let reader: ScriptedCardReader

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-void-cut-off-'))
    server = await startStoreServer({ terminals: ['T-0001'] })
    admin = new StoreConnection(
      adminConnectionSettings({ servers: [server.url], storeId: 'S1', name: 'test admin', maxAgeMs: MAX_AGE }, server.adminSeed),
    )
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
    forwarder = await startForwarder(server.port)
    const key = makeCopyKeyPair()
    const enrolment = await enrolAtStoreAsAdmin(key.publicKey)
    reader = new ScriptedCardReader()
    lane = await startLane({
      dir: join(dir, 'lane'),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl: forwarder.url,
      terminalId: 'T-0001',
      nkeySeed: server.laneSeed('T-0001'),
      copyKey: key.privateJwk,
      enrolment,
      reader,
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      ackTimeoutMs: 800,
      heartbeatMs: 60_000,
      // The queue probes the bank once per ten minutes: what it sends is what the test makes it send.
      settings: { retry: TEN_MINUTE_RETRY },
    })
  })
  afterEach(async () => {
    await lane.close()
    await forwarder.close()
    await host.close()
    await admin.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The certificate as `pos-agent store enrol` makes it; the lane puts it into the store at start. */
  const enrolAtStoreAsAdmin = async (publicKey: string) =>
    JSON.stringify(makeEnrolment(recovery, { storeId: 'S1', terminalId: 'T-0001', publicKey, by: 'test', now: new Date() }))

  const storedSale = async (amountMinor: number) => {
    reader.present({ card: TEST_CARDS.chipVisa() })
    const sale = await lane.engine.txn.waitForOutcome(lane.engine.txn.sales.start({ amountMinor, currency: 'USD' }).id)
    expect(sale.state).toBe('storedOffline')
    return sale
  }

  /**
   * The bank down, and the queue knows it: its first stored payment probed the bank and failed, so
   * the next ones wait for the next probe, never sent (the only ones a void withdraws locally).
   */
  const outage = async () => {
    host.setFault('*', 'http-503')
    const first = await storedSale(1_000)
    await eventually(
      () =>
        lane.engine.forwarder.status().hostReachable === false &&
        lane.engine.journal.outbox.ofSale(first.id).every((item) => item.state === 'pending' && item.attempts > 0),
      10_000,
    )
  }

  const rescue = async (dryRun: boolean) => {
    const client = hostClient(host.url, host.caPem)
    const out: string[] = []
    try {
      const result = await runRescue({
        connection: adminConnectionSettings({ servers: [server.url], storeId: 'S1', maxAgeMs: MAX_AGE }, server.adminSeed),
        terminalId: 'T-0001',
        recoveryPublicKey: keys.publicKey,
        keyFile: 'recovery.pem',
        keyPem: keys.privateKeyPem,
        passphrase: PASSPHRASE,
        rules: RULES,
        rescueAfterSeconds: 60,
        // The lane is cut off from the store: to the store it looks dead, and a manager says it is off.
        terminalIsOff: true,
        dryRun,
        confirm: async (question) => (out.push(question), true),
        sender: rescueSender(client),
        reportDir: join(dir, 'reports'),
        reportDirIsDefault: true,
        lane: 'T-0002',
        audit: () => undefined,
        print: (text) => void out.push(text),
        warn: (text) => void out.push(text),
        timeoutMs: 3_000,
      })
      return { ...result, out: out.join('\n') }
    } finally {
      await client.close()
    }
  }

  it('while the store answers: the copy is withdrawn with the payment, and a rescue finds nothing of it to send', async () => {
    await outage()
    const sale = await storedSale(4_100)
    expect(await admin.copySubjects('T-0001', 3_000)).toHaveLength(2)
    const voided = await lane.engine.txn.afterSale.voidSale(sale.id)
    expect(voided).toMatchObject({ state: 'cancelled', reason: 'the stored payment had not been sent to the bank yet' })
    host.clearFaults()
    const dry = await rescue(true)
    expect(dry.report?.lines.filter((line) => line.saleId === sale.id && line.result === 'approved') ?? []).toEqual([])
    expect(host.ledger().payments.filter((p) => p.merchantTransID === sale.id)).toEqual([])
  })

  it('cut off from the store: the void goes to the bank as a reversal, and a rescue afterwards does not charge the payment', async () => {
    await outage()
    const sale = await storedSale(4_300)
    expect(await admin.copySubjects('T-0001', 3_000)).toHaveLength(2)

    // The lane's cable to the store is pulled; the bank is still down. The cashier voids the sale.
    await forwarder.cut()
    const voided = await lane.engine.txn.afterSale.voidSale(sale.id)
    expect(voided.state).toBe('cancelPending')
    expect(voided.reason).toMatch(/waiting for the bank/)

    // The bank comes back: the lane (which knows of no rescue) sends its reversal, and the sale reads voided.
    host.clearFaults()
    await lane.engine.forwarder.forwardNow()
    await eventually(() => lane.engine.txn.reads.get(sale.id)?.state === 'cancelled', 10_000)

    // The store still holds the payment's copy; a rescue from another lane sends it: the bank refuses it.
    const rescued = await rescue(false)
    const line = rescued.report?.lines.find((l) => l.saleId === sale.id && l.operation === 'payment')
    expect(line?.result).toBe('declined')
    const charged = host
      .ledger()
      .payments.filter((p) => p.merchantTransID === sale.id && ['Captured', 'Authorised'].includes(p.status ?? ''))
    expect(charged).toEqual([])
  })
})
