/**
 * A dead terminal loses nothing (docs/store.md), against a real nats-server and the training host:
 * terminal A stores three payments offline, owes a reversal and a return's credit, is killed with
 * SIGKILL and its data folder deleted; the bank comes back; the rescue run from another lane brings
 * the host's ledger to exactly what A's cashiers saw; a second run sends nothing; A started again on
 * its old disk refuses to forward, in plain words. Also a rescue interrupted by the bank going away
 * and run again, and what the rescue refuses (docs/store.md "The rescue"): copies forged with the
 * recovery public key alone or by another lane's own enrolled key under A's subjects, junk and
 * subjects of the wrong shape (each a line, the run goes on, nothing reaches the bank), a withdrawn
 * payment, a wrong recovery key (nothing changes, no fence), a dry run, and a terminal heard from lately.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rescueSender } from '../../../src-main/cli/commands/store-commands'
import {
  copyKeyAccount,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  copySubject,
  CopySealer,
  queueCopyOf,
  queueTombstoneOf,
  readFence,
  recoveryPublicJwk,
  runRescue,
  StoreConnection,
  type RescueRunInput,
} from '../../../src-main/store'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { AID, KEY } from '../../support/engine-harness'
import { FileSecretStore } from '../../support/file-secret-store'
import { internalWordsIn } from '../../support/internal-words'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'
import { copiesAtStore, enrolAtStore, hostClient, startLane } from '../../support/store-lane'
import { MemorySecretStore } from '../../../src-main/keychain'
import { copySuite } from '../../../src-main/store/hpke-node'

const PASSPHRASE = 'a manager keeps this apart'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const recovery = openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk
const MAX_AGE = 96 * 3_600_000
/** The lanes' rules (test/support/engine-harness.ts: USD, offline up to USD 100.00 a payment; the configuration's return limits). */
const RULES = {
  currency: 'USD',
  storedPaymentMaxMinor: 10_000,
  unreferencedReturnMaxMinor: 10_000,
  unreferencedReturnPerCardDayMinor: 10_000,
  unreferencedReturnPerDayMinor: 50_000,
}

interface Answer {
  id: string
  state: string
  amountMinor: number
}

/** Terminal A in a child process, driven line by line. */
function startTerminalA(dir: string, host: TrainingHost, natsUrl: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/support/store-lane-worker.ts',
      join(dir, 'A'),
      host.url,
      host.caFile,
      natsUrl,
      'T-000A',
      keys.publicKey,
      join(dir, 'A-keychain.json'),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let errors = ''
  child.stderr!.on('data', (d: Buffer) => (errors += d.toString()))
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await Promise.race([
      lines.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`terminal A did not answer: ${errors}`)), 20_000)),
    ])
    if (line.done) throw new Error(`terminal A stopped: ${errors}`)
    return JSON.parse(line.value) as Record<string, unknown>
  }
  return {
    ready: next(),
    async run(command: string): Promise<Answer> {
      child.stdin!.write(`${command}\n`)
      return (await next()) as unknown as Answer
    },
    kill: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  }
}

describe.runIf(natsServerAvailable())('a dead terminal loses nothing', () => {
  let dir: string
  let nats: NatsServer
  let host: TrainingHost

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-rescue-'))
    nats = await startNatsServer()
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
    audited.length = 0
  })
  afterEach(async () => {
    await host.close()
    await nats.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const audited: Array<{ action: string; ok: boolean; detail: string }> = []
  const rescue = async (overrides: Partial<RescueRunInput> = {}) => {
    const client = hostClient(host.url, host.caPem)
    const out: string[] = []
    try {
      const result = await runRescue({
        connection: { servers: [nats.url], storeId: 'S1', maxAgeMs: MAX_AGE },
        terminalId: 'T-000A',
        recoveryPublicKey: keys.publicKey,
        keyFile: 'recovery.pem',
        keyPem: keys.privateKeyPem,
        passphrase: PASSPHRASE,
        rules: RULES,
        rescueAfterSeconds: 60,
        // A was killed a moment ago: its heartbeat is fresh, and the manager knows it is off.
        terminalIsOff: true,
        dryRun: false,
        confirm: async (question) => (out.push(question), true),
        sender: rescueSender(client),
        reportDir: join(dir, 'reports'),
        reportDirIsDefault: true,
        lane: 'T-000B',
        audit: (entry) => void audited.push(entry),
        print: (text) => void out.push(text),
        warn: (text) => void out.push(text),
        timeoutMs: 3_000,
        ...overrides,
      })
      return { ...result, out: out.join('\n') }
    } finally {
      await client.close()
    }
  }

  /** A's copy key in its keychain (a file, so that it outlives the process) and its enrolment at the store. */
  const enrol = async (keychainFile: string) => {
    const key = makeCopyKeyPair()
    await new FileSecretStore(keychainFile).set(copyKeyAccount('S1', 'T-000A'), JSON.stringify(key.privateJwk))
    await enrolAtStore(nats.url, recovery, { terminalId: 'T-000A', publicKey: key.publicKey })
  }

  it('the rescue from another lane brings the ledger to what A’s cashiers saw; twice sends nothing twice; A on its old disk refuses to forward', async () => {
    await enrol(join(dir, 'A-keychain.json'))
    const a = startTerminalA(dir, host, nats.url)
    await a.ready
    const sold = await a.run('sale 5000')
    expect(sold.state).toBe('approved')

    host.setFault('*', 'http-503')
    const stored = [await a.run('sale 1100'), await a.run('sale 1200'), await a.run('sale 1300')]
    expect(stored.map((s) => s.state)).toEqual(['storedOffline', 'storedOffline', 'storedOffline'])
    // The bank takes this payment but its answer is lost: A owes a reversal.
    host.setFault('payment', 'process-then-drop')
    const reversal = await a.run('sale 2000')
    expect(reversal.state).toBe('reversalPending')
    host.setFault('payment', 'http-503')
    const credit = await a.run(`return ${sold.id} 1500`)
    expect(credit.state).toBe('creditPending')
    // Five items owed, five copies at the store.
    expect(await waitForCount(() => copiesAtStore(nats.url, 'T-000A'), 5)).toBe(5)

    // A dies: SIGKILL, and its data folder is gone. Its old disk is kept aside for later.
    cpSync(join(dir, 'A'), join(dir, 'A-old-disk'), { recursive: true })
    await a.kill()
    rmSync(join(dir, 'A'), { recursive: true, force: true })
    const before = host.ledger()

    host.clearFaults()
    const first = await rescue()
    expect(first.code, first.out).toBe(0)
    expect(first.out).toMatch(
      /5 messages to send to the bank:[\s\S]*476173\*{6}0010[\s\S]*totals: 3 payments \(USD 36\.00\), 1 reversal \(USD 20\.00\), 1 return \(USD 15\.00\)[\s\S]*Send these 5 messages to the bank\?/,
    )
    expect(first.report!.left).toBe(0)
    expect(first.report!.lines.map((l) => [l.saleId, l.operation, l.result]).sort()).toEqual(
      [
        [stored[0]!.id, 'payment', 'approved'],
        [stored[1]!.id, 'payment', 'approved'],
        [stored[2]!.id, 'payment', 'approved'],
        [reversal.id, 'reversal', 'approved'],
        [credit.id, 'merchandiseCredit', 'approved'],
      ].sort(),
    )
    const csv = readFileSync(first.file!, 'utf8')
    expect(csv.split('\n')[0]).toBe('sale,what,message,amount_minor,currency,card,queued_at,result,bank_said,auth_code')
    expect(csv).not.toMatch(/4761730000000010|476173\d{10}/)
    expect(csv).toContain('476173******0010')
    expect(statSync(first.file!).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'reports')).mode & 0o777).toBe(0o700)
    // The rescue is in the audit trail of the lane it ran on: who, what was sent, what the bank answered.
    expect(audited.at(-1)).toMatchObject({ action: 'rescue', ok: true })
    expect(audited.at(-1)!.detail).toMatch(
      /^from T-000B: rescue .* the manager stated that the terminal is off .* sent 3 payments \(USD 36\.00\), 1 reversal \(USD 20\.00\), 1 return \(USD 15\.00\); 5 approved; 0 left/,
    )

    // The host's ledger is what A's cashiers saw: each stored payment charged once, the reversal applied, the credit credited once.
    const ledger = host.ledger()
    for (const s of stored) {
      expect(ledger.payments.filter((p) => p.merchantTransID === s.id)).toHaveLength(1)
      expect(ledger.payments.find((p) => p.merchantTransID === s.id)).toMatchObject({
        status: 'Captured',
        transAmount: { value: (s.amountMinor / 100).toFixed(2) },
      })
    }
    expect(ledger.payments.find((p) => p.merchantTransID === reversal.id)?.status).toBe('Reversed')
    expect(
      ledger.entries.filter((e) => e.operation === 'merchandiseCredit' && e.merchantTransID === credit.id && e.status === 'Success'),
    ).toHaveLength(1)
    expect(ledger.payments.find((p) => p.merchantTransID === sold.id)?.status).toBe('Captured')
    expect(ledger.entries.length).toBeGreaterThan(before.entries.length)
    expect(await copiesAtStore(nats.url, 'T-000A')).toEqual([])

    // Twice: nothing left, nothing sent.
    const second = await rescue()
    expect(second.report).toMatchObject({ continued: true, lines: [], left: 0 })
    expect(second.out).toMatch(/nothing to send to the bank/)
    expect(host.ledger().entries).toHaveLength(ledger.entries.length)

    // A comes back on its old disk: it reads its fence and refuses to forward, in plain words, keeping its journal.
    const old = await startLane({
      dir: join(dir, 'A-old-disk'),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl: nats.url,
      terminalId: 'T-000A',
      reader: new ScriptedCardReader(),
      secrets: new FileSecretStore(join(dir, 'A-keychain.json')),
      recoveryPublicKey: keys.publicKey,
    })
    try {
      const alarm = old.engine.alarms.find((x) => x.code === 'QUEUE_RESCUED')
      expect(alarm?.message).toMatch(/The store rescued this terminal's waiting payments .* no longer sends them/)
      expect(internalWordsIn(alarm!.message)).toEqual([])
      expect(old.engine.forwarder.status().count).toBe(5)
      // Only its reversal goes out again (a reversal only ever undoes, and the bank answers a repeat
      // with its first answer); the payments and the credit stay: they belong to the rescue.
      await expect(old.engine.forwarder.forwardNow()).rejects.toThrow(/no longer sends them/)
      await new Promise((r) => setTimeout(r, 500))
      const after = host.ledger()
      expect(after.entries.slice(ledger.entries.length).map((e) => [e.operation, e.merchantTransID, e.status])).toEqual([
        ['reversal', reversal.id, 'Success'],
      ])
      expect(
        after.payments
          .filter((p) => p.status === 'Captured')
          .map((p) => p.merchantTransID)
          .sort(),
      ).toEqual(
        ledger.payments
          .filter((p) => p.status === 'Captured')
          .map((p) => p.merchantTransID)
          .sort(),
      )
      expect(old.engine.forwarder.status().count).toBe(4)
      expect(old.engine.txn.reads.get(stored[0]!.id)?.state).toBe('storedOffline')
      expect(old.engine.journal.audit.between(0, Date.now() + 1).some((r) => r.action === 'storeFenced' && r.ok)).toBe(true)
    } finally {
      await old.close()
    }
  })

  it('a rescue interrupted by the bank going away finishes on its next run, with each item sent to the bank once', async () => {
    await enrol(join(dir, 'B-keychain.json'))
    const lane = await startLane({
      dir: join(dir, 'B'),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl: nats.url,
      terminalId: 'T-000A',
      reader: new ScriptedCardReader().present(...Array.from({ length: 4 }, () => ({ card: TEST_CARDS.chipVisa() }))),
      secrets: new FileSecretStore(join(dir, 'B-keychain.json')),
      recoveryPublicKey: keys.publicKey,
    })
    host.setFault('*', 'http-503')
    const ids: string[] = []
    for (const amount of [1000, 1100, 1200, 1300]) {
      const sale = await lane.engine.txn.waitForOutcome(lane.engine.txn.sales.start({ amountMinor: amount, currency: 'USD' }).id)
      expect(sale.state).toBe('storedOffline')
      ids.push(sale.id)
    }
    await lane.close()
    // The bank records two payments and its answers are lost; then it is not reachable at all.
    host.setFault('payment', 'process-then-drop', 2)
    const first = await rescue()
    expect(first.code).toBe(1)
    expect(first.report!.left).toBe(4)
    const fence = await readFence(
      new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 't', maxAgeMs: MAX_AGE }),
      'S1',
      'T-000A',
      3_000,
    )
    expect(fence?.terminalId).toBe('T-000A')
    host.clearFaults()
    const second = await rescue()
    expect(second.code).toBe(0)
    expect(second.report!.continued).toBe(true)
    expect(second.report!.lines.filter((l) => l.result === 'approved')).toHaveLength(4)
    for (const id of ids) expect(host.ledger().payments.filter((p) => p.merchantTransID === id && p.status === 'Captured')).toHaveLength(1)
    expect(await copiesAtStore(nats.url, 'T-000A')).toEqual([])
  })

  /** A lane in this process with an enrolled copy key; it sells once online, then stores `amounts` offline. */
  const laneWithSales = async (terminalId: string, amounts: number[], options: { heartbeatMs?: number } = {}) => {
    const key = makeCopyKeyPair()
    await enrolAtStore(nats.url, recovery, { terminalId, publicKey: key.publicKey })
    const lane = await startLane({
      dir: join(dir, terminalId),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl: nats.url,
      terminalId,
      reader: new ScriptedCardReader().present(...Array.from({ length: amounts.length + 1 }, () => ({ card: TEST_CARDS.chipVisa() }))),
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      copyKey: key.privateJwk,
      ...options,
    })
    const sell = (amountMinor: number) => lane.engine.txn.waitForOutcome(lane.engine.txn.sales.start({ amountMinor, currency: 'USD' }).id)
    const online = await sell(5_000)
    expect(online.state).toBe('approved')
    host.setFault('*', 'http-503')
    const stored = []
    for (const amount of amounts) stored.push(await sell(amount))
    expect(stored.map((sale) => sale.state)).toEqual(amounts.map(() => 'storedOffline'))
    host.clearFaults()
    await lane.wiring.link.replica.syncNow()
    return { lane, key, online, stored }
  }

  /** Publishes raw bytes at a subject of the store's queue stream, as any holder of store credentials could. */
  const publish = async (subject: string, data: Uint8Array) => {
    const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'intruder', maxAgeMs: MAX_AGE })
    try {
      await (await connection.jetstream(3_000)).publish(subject, data)
    } finally {
      await connection.close()
    }
  }

  /** A copy sealed as the security review's script did: HPKE Base mode to the recovery public key, no terminal's key. */
  const forgeBaseMode = async (record: object, subject: string, version: number) => {
    const suite = copySuite()
    const recipientPublicKey = await suite.kem.importKey('jwk', recoveryPublicJwk(keys.publicKey), true)
    const info = new TextEncoder().encode(`pos-agent queue copy v${version}`)
    const sender = await suite.createSenderContext({ recipientPublicKey, info })
    const ct = await sender.seal(new TextEncoder().encode(JSON.stringify(record)), new TextEncoder().encode(subject))
    const out = new Uint8Array(33 + ct.byteLength)
    out[0] = version
    out.set(new Uint8Array(sender.enc), 1)
    out.set(new Uint8Array(ct), 33)
    return out
  }

  it("refuses copies forged with the recovery public key or by another lane's enrolled key, junk and wrong subjects, each with a line, and sends A's own once", async () => {
    const a = await laneWithSales('T-000A', [1_100, 1_200, 1_300])
    await a.lane.close()
    const b = await laneWithSales('T-000B', [])
    await b.lane.close()
    const A = { storeId: 'S1', terminalId: 'T-000A' }
    // Base mode to the recovery public key (the review's forge.mjs), old and new version byte: a reversal
    // of A's online payment.
    const reversalAt = copySubject('S1', 'T-000A', 'reversal', a.online.id)
    const reversal = queueCopyOf(
      A,
      a.online.id,
      { operation: 'reversal', messageId: a.online.id, body: { initiatingReason: 'timeout' }, amountMinor: 5_000, currency: 'USD' },
      Date.now() - 3_600_000,
    )
    await publish(reversalAt, await forgeBaseMode({ ...reversal, v: 1 }, reversalAt, 1))
    const forgedId = 'T-000A-92NEQ001-00000009'
    const creditAt = copySubject('S1', 'T-000A', 'merchandiseCredit', forgedId)
    const credit = queueCopyOf(
      A,
      forgedId,
      {
        operation: 'merchandiseCredit',
        messageId: forgedId,
        body: {
          merchantTransInfo: { merchantTransID: forgedId, merchantTransTime: '2026-11-28T09:58:00+00:00' },
          pspInfo: { merchantID: 'M1', terminalID: 'T-000A' },
          transAmount: { currency: 'USD', value: '99.00' },
          paymentMethod: { type: 'card', card: { cardInfo: { cardNumber: '4000056655665556', expiryDate: '2912' } } },
        },
        amountMinor: 9_900,
        currency: 'USD',
      },
      Date.now() - 3_600_000,
    )
    await publish(creditAt, await forgeBaseMode(credit, creditAt, 2))
    // Lane B's own enrolled key, sealing copies that name A, under A's subjects.
    const bSealer = new CopySealer(recoveryPublicJwk(keys.publicKey), b.key.privateJwk)
    const cancelId = `${a.online.id}-V1`
    const cancelAt = copySubject('S1', 'T-000A', 'reversal', `${a.online.id}X`)
    await publish(cancelAt, await bSealer.seal({ ...reversal, messageId: `${a.online.id}X` }, cancelAt))
    const creditByBAt = copySubject('S1', 'T-000A', 'merchandiseCredit', `${forgedId}B`)
    await publish(creditByBAt, await bSealer.seal({ ...credit, messageId: `${forgedId}B` }, creditByBAt))
    // Junk, and a subject of the wrong shape.
    await publish(copySubject('S1', 'T-000A', 'payment', cancelId), new TextEncoder().encode('garbage'))
    await publish('pos.queue.S1.T-000A.payment.a.b', new TextEncoder().encode('garbage'))
    const before = host.ledger()

    const run = await rescue({ terminalIsOff: true })
    expect(run.code, run.out).toBe(1)
    const lines = run.report!.lines
    expect(
      lines
        .filter((l) => l.result === 'approved')
        .map((l) => l.saleId)
        .sort(),
    ).toEqual(a.stored.map((s) => s.id).sort())
    const refused = lines.filter((l) => l.result === 'copy refused')
    expect(refused).toHaveLength(6)
    expect(refused.find((l) => l.operation === 'reversal' && l.messageId === a.online.id)?.bankSaid).toMatch(
      /old copy that does not prove which terminal made it/,
    )
    expect(refused.find((l) => l.messageId === forgedId)?.bankSaid).toMatch(/not sealed by the terminal it names/)
    expect(refused.find((l) => l.messageId === `${a.online.id}X`)?.bankSaid).toMatch(/not sealed by the terminal it names/)
    expect(refused.find((l) => l.messageId === `${forgedId}B`)?.bankSaid).toMatch(/not sealed by the terminal it names/)
    expect(refused.find((l) => l.messageId === cancelId)?.bankSaid).toMatch(/not a copy this version can read/)
    expect(refused.find((l) => l.messageId === 'pos.queue.S1.T-000A.payment.a.b')?.bankSaid).toMatch(/not a copy this version can read/)
    expect(run.out).toMatch(/6 copies refused \(not sent; left at the store untouched\)/)
    expect(run.out).toMatch(/6 copies were refused and left at the store/)
    // The bank saw A's three stored payments, once each, and nothing forged.
    const ledger = host.ledger()
    const added = ledger.entries.slice(before.entries.length)
    expect(added.map((e) => [e.operation, e.merchantTransID]).sort()).toEqual(a.stored.map((s) => ['payment', s.id]).sort())
    expect(ledger.payments.find((p) => p.merchantTransID === a.online.id)?.status).toBe('Captured')
    expect(ledger.entries.some((e) => e.operation === 'merchandiseCredit')).toBe(false)
    // The forgeries stay at the store for whoever looks into them; A's own copies are gone.
    expect(await copiesAtStore(nats.url, 'T-000A')).toHaveLength(6)
  })

  it('a payment the terminal withdrew (a void) is not sent, and its withdrawal is erased', async () => {
    const a = await laneWithSales('T-000A', [1_100, 1_200])
    await a.lane.close()
    const voided = a.stored[0]!
    const at = copySubject('S1', 'T-000A', 'payment', voided.id)
    const sealer = new CopySealer(recoveryPublicJwk(keys.publicKey), a.key.privateJwk)
    await publish(
      at,
      await sealer.seal(
        queueTombstoneOf(
          { storeId: 'S1', terminalId: 'T-000A' },
          voided.id,
          { operation: 'payment', messageId: voided.id },
          Date.UTC(2026, 10, 28, 9, 30),
        ),
        at,
      ),
    )
    const before = host.ledger()
    const run = await rescue()
    expect(run.code, run.out).toBe(0)
    expect(run.out).toMatch(/1 message withdrawn by the terminal \(voided\): not sent/)
    expect(run.report!.lines.find((l) => l.saleId === voided.id)).toMatchObject({
      result: 'withdrawn',
      bankSaid: 'withdrawn by the terminal on 2026-11-28 09:30: not sent',
    })
    const added = host.ledger().entries.slice(before.entries.length)
    expect(added.map((e) => e.merchantTransID)).toEqual([a.stored[1]!.id])
    expect(await copiesAtStore(nats.url, 'T-000A')).toEqual([])
  })

  it('a wrong recovery key or passphrase changes nothing: no fence, nothing sent, each try audited', async () => {
    const a = await laneWithSales('T-000A', [1_100])
    await a.lane.close()
    const other = makeRecoveryKeyPair('another store passphrase')
    const elsewhere = await rescue({ keyPem: other.privateKeyPem, passphrase: 'another store passphrase' })
    expect(elsewhere.code).toBe(3)
    expect(elsewhere.out).toMatch(/not the recovery key of store S1.*nothing was changed/)
    const wrong = await rescue({ passphrase: 'not the passphrase at all' })
    expect(wrong.code).toBe(2)
    expect(wrong.out).toMatch(/wrong passphrase.*nothing was changed/)
    const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 't', maxAgeMs: MAX_AGE })
    try {
      expect(await readFence(connection, 'S1', 'T-000A', 3_000)).toBeUndefined()
    } finally {
      await connection.close()
    }
    expect(await copiesAtStore(nats.url, 'T-000A')).toHaveLength(1)
    expect(audited.map((e) => [e.ok, e.detail])).toEqual([
      [false, "from T-000B: not this store's recovery key"],
      [false, 'from T-000B: the recovery key did not open'],
    ])
  })

  it('--dry-run lists and sends nothing, fences nothing; a manager who does not say yes changes nothing either', async () => {
    const a = await laneWithSales('T-000A', [1_100, 1_200])
    await a.lane.close()
    const before = host.ledger()
    const dry = await rescue({ dryRun: true, confirm: () => Promise.reject(new Error('a dry run asks nothing')) })
    expect(dry.code).toBe(0)
    expect(dry.out).toMatch(
      /2 messages to send to the bank:[\s\S]*payment {2}USD 11\.00 {2}476173\*{6}0010 {2}queued \d+ seconds? ago {2}sale T-000A-[\s\S]*totals: 2 payments \(USD 23\.00\)[\s\S]*dry run: nothing was sent, and the terminal was not fenced/,
    )
    const declined = await rescue({ confirm: async () => false })
    expect(declined.code).toBe(1)
    expect(declined.out).toMatch(/nothing was changed/)
    expect(host.ledger().entries).toHaveLength(before.entries.length)
    expect(await copiesAtStore(nats.url, 'T-000A')).toHaveLength(2)
    const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 't', maxAgeMs: MAX_AGE })
    try {
      expect(await readFence(connection, 'S1', 'T-000A', 3_000)).toBeUndefined()
    } finally {
      await connection.close()
    }
    expect(audited.map((e) => e.ok)).toEqual([true, false])
    expect(audited[0]!.detail).toMatch(/dry run.*2 messages to send \(2 payments \(USD 23\.00\)\), 0 copies refused; nothing was sent/)
  })

  it('a terminal heard from lately is not rescued unless the manager states it is off', async () => {
    const a = await laneWithSales('T-000A', [1_100], { heartbeatMs: 200 })
    // The bank stays away while A runs, so that its payment waits for the rescue.
    host.setFault('*', 'http-503')
    try {
      await new Promise((resolve) => setTimeout(resolve, 400))
      const refused = await rescue({ terminalIsOff: false })
      expect(refused.code).toBe(1)
      expect(refused.out).toMatch(
        /it was last heard from at .* UTC \(\d+ seconds? ago\): it may still be running[\s\S]*Run the rescue again after .* UTC, or you know the terminal is off, say so with --terminal-is-off/,
      )
      const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 't', maxAgeMs: MAX_AGE })
      try {
        expect(await readFence(connection, 'S1', 'T-000A', 3_000)).toBeUndefined()
      } finally {
        await connection.close()
      }
    } finally {
      await a.lane.close()
    }
    host.clearFaults()
    const stated = await rescue({ terminalIsOff: true })
    expect(stated.code, stated.out).toBe(0)
    expect(stated.report!.lines.map((l) => l.result)).toEqual(['approved'])
    expect(audited.at(-1)!.detail).toMatch(/the manager stated that the terminal is off \(it was last heard from at/)
  })
})

async function waitForCount(read: () => Promise<string[]>, want: number, timeoutMs = 10_000): Promise<number> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const n = (await read()).length
    if (n === want || Date.now() > until) return n
    await new Promise((r) => setTimeout(r, 100))
  }
}
