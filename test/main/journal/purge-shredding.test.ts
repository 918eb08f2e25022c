/**
 * Purged card data is unrecoverable (PCI DSS v4.0.1 Requirement 3.3.1, docs/card-reader.md §5), on
 * real SQLite files: after the purge neither the database file nor its WAL holds the card data, the
 * envelope or the wrapped key of the sale; and an envelope kept from before the purge no longer
 * opens, even with the data key, because the sale's own key is gone.
 */
import Database from 'better-sqlite3'
import { createSecretKey } from 'node:crypto'
import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { JournalCheckpointer } from '../../../src-main/journal/checkpointer'
import { openJournalDatabase } from '../../../src-main/journal/database'
import { JournalStore } from '../../../src-main/journal/journal-store'
import { migrateTo } from '../../../src-main/journal/migrations'
import { outboxBodyAad } from '../../../src-main/journal/outbox-store'
import { SaleKeys, saleKeyAad } from '../../../src-main/journal/sale-keys'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { FieldSealer, SealedFieldError, sealedFieldAad } from '../../../src-main/journal/sealed-fields'
import { MemorySecretStore } from '../../../src-main/keychain'
import { catchError, useTempJournals } from './journal-harness'
import { filesHolding, NEW_SALE, openJournal, PAN, saleWithCard, TERMINAL, TRACK2, trackCheckpointer } from './store-harness'

const cardAad = (saleId: string) => sealedFieldAad('sealed_card', saleId, 'purchase')
const envelopeOf = (db: Database.Database, saleId: string) =>
  db.prepare('SELECT envelope FROM sealed_card WHERE sale_id = ?').pluck().get(saleId) as Buffer
const wrappedKeysOf = (db: Database.Database, saleId: string) =>
  db.prepare('SELECT wrapped FROM sale_key WHERE sale_id = ?').pluck().all(saleId) as Buffer[]
const bodyOf = (db: Database.Database, seq: number) => db.prepare('SELECT body FROM outbox WHERE seq = ?').pluck().get(seq) as Buffer | null

function reasonOf(fn: () => unknown): string {
  const error = catchError(fn)
  expect(error).toBeInstanceOf(SealedFieldError)
  return (error as SealedFieldError).reason
}

describe('purge by crypto-shredding', () => {
  const temp = useTempJournals()

  it('after an online sale is purged, no file holds the card data, its envelope or its wrapped key, and the kept envelope does not open', async () => {
    const secrets = new MemorySecretStore()
    const file = temp.path()
    const { db, store, checkpointer } = await openJournal(temp, file, secrets)
    const sale = saleWithCard(store)
    const envelope = envelopeOf(db, sale.id)
    const [wrapped] = wrappedKeysOf(db, sale.id)
    expect(wrapped).toBeDefined()

    // Control: before the purge the scan finds the envelope and the wrapped key, in the WAL and,
    // once checkpointed, in the database file; and those bytes with the data key open the card data.
    expect(filesHolding(file, envelope)).toContain('journal.sqlite-wal')
    checkpointer.checkpoint()
    expect(filesHolding(file, envelope)).toEqual(['journal.sqlite'])
    expect(filesHolding(file, wrapped!)).toEqual(['journal.sqlite'])
    const dataKey = await FieldSealer.open(secrets, TERMINAL, { create: false })
    const saleKey = dataKey.open(saleKeyAad(sale.id), wrapped!)
    expect(dataKey.openUnder(createSecretKey(saleKey), cardAad(sale.id), envelope).toString()).toContain(TRACK2)
    // Sealed under the sale's key, the envelope does not open with the data key alone.
    expect(reasonOf(() => dataKey.open(cardAad(sale.id), envelope))).toBe('wrongKey')

    store.apply({ event: { type: 'paymentAnswered' }, next: { ...sale, state: 'approved' }, expectedState: 'sending', purgeCard: true })
    expect(store.openCard(sale.id, 'purchase')).toBeUndefined()
    expect(wrappedKeysOf(db, sale.id)).toEqual([])
    checkpointer.checkpoint() // the purge asked for a truncating checkpoint
    expect(statSync(`${file}-wal`).size).toBe(0)

    for (const needle of [PAN, TRACK2, '=2912', envelope, wrapped!]) expect(filesHolding(file, needle)).toEqual([])
    // With the data key from the keychain, the envelope kept from before the purge stays closed.
    const afterwards = new SaleKeys(db, await FieldSealer.open(secrets, TERMINAL, { create: false }), Date.now)
    expect(reasonOf(() => afterwards.open(sale.id, cardAad(sale.id), envelope))).toBe('keyDestroyed')
  })

  it('a stored payment: its body and card data shredded at forwarding; a tip queued behind it is sealed again and still sent', async () => {
    const file = temp.path()
    const { db, store, checkpointer } = await openJournal(temp, file)
    const sale = saleWithCard(store)
    const stored = store.apply({
      event: { type: 'paymentAnswered' },
      next: { ...sale, state: 'storedOffline', offline: true },
      expectedState: 'sending',
      enqueue: [{ operation: 'payment', messageId: sale.id, body: { track2: TRACK2 }, amountMinor: 4500, currency: 'USD' }],
    })
    const tipped = store.apply({
      event: { type: 'tipRequested' },
      next: { ...stored, tipMinor: 500, tipState: 'pending' },
      expectedState: 'storedOffline',
      enqueue: [{ operation: 'tips', messageId: `${sale.id}-T1`, body: { tip: '5.00' }, amountMinor: 500, currency: 'USD' }],
    })
    const [payment] = store.outbox.claimDue(10) // the tip waits behind its payment
    expect(payment).toMatchObject({ operation: 'payment', body: { track2: TRACK2 } })
    const paymentBody = bodyOf(db, payment!.seq)!
    const [tipItem] = store.outbox.ofSale(sale.id).filter((item) => item.operation === 'tips')
    const tipBodyBefore = bodyOf(db, tipItem!.seq)!
    const [oldKey] = wrappedKeysOf(db, sale.id)
    checkpointer.checkpoint()

    store.apply({
      event: { type: 'forwardAnswered' },
      next: { ...tipped, state: 'forwarded' },
      expectedState: 'storedOffline',
      settleOutbox: { seq: payment!.seq, result: 'done' },
      purgeCard: true,
    })
    const [newKey] = wrappedKeysOf(db, sale.id)
    expect(newKey).toBeDefined()
    expect(newKey!.equals(oldKey!)).toBe(false)
    const [tip] = store.outbox.claimDue(10)
    expect(tip).toMatchObject({ operation: 'tips', body: { tip: '5.00' } })
    checkpointer.checkpoint()
    for (const needle of [PAN, TRACK2, paymentBody, tipBodyBefore, oldKey!]) expect(filesHolding(file, needle)).toEqual([])

    // The tip's acknowledgement leaves nothing sealed: the last key goes too.
    store.outbox.complete(tip!.seq)
    expect(wrappedKeysOf(db, sale.id)).toEqual([])
    checkpointer.checkpoint()
    expect(filesHolding(file, newKey!)).toEqual([])
  })

  it('a reversal enqueued in the purging commit is sealed under a fresh key and opens; its acknowledgement destroys that key', async () => {
    const { db, store } = await openJournal(temp, temp.path())
    const sale = saleWithCard(store)
    const [before] = wrappedKeysOf(db, sale.id)
    store.apply({
      event: { type: 'paymentAnswered' },
      next: { ...sale, state: 'reversalPending' },
      expectedState: 'sending',
      enqueue: [
        { operation: 'reversal', messageId: sale.id, body: { icCardData: '9F2608C2F3A1B4D5' }, amountMinor: 4500, currency: 'USD' },
      ],
      purgeCard: true,
    })
    const [after] = wrappedKeysOf(db, sale.id)
    expect(after!.equals(before!)).toBe(false)
    const [reversal] = store.outbox.claimDue(10)
    expect(reversal).toMatchObject({ operation: 'reversal', body: { icCardData: '9F2608C2F3A1B4D5' } })
    store.outbox.complete(reversal!.seq)
    expect(wrappedKeysOf(db, sale.id)).toEqual([])
  })

  it('a withdrawn stored payment (void before forwarding) leaves no key behind', async () => {
    const { db, store } = await openJournal(temp, temp.path())
    const sale = saleWithCard(store)
    const stored = store.apply({
      event: { type: 'paymentAnswered' },
      next: { ...sale, state: 'storedOffline' },
      expectedState: 'sending',
      enqueue: [{ operation: 'payment', messageId: sale.id, body: { track2: TRACK2 } }],
    })
    store.apply({
      event: { type: 'voidRequested' },
      next: { ...stored, state: 'cancelled' },
      expectedState: 'storedOffline',
      withdrawPending: true,
      purgeCard: true,
    })
    expect(wrappedKeysOf(db, sale.id)).toEqual([])
    expect(store.sealedRowCount()).toBe(0)
  })

  it('a wrapped key copied to another sale does not open there (its AAD names the sale)', async () => {
    const { db, store, sealer } = await openJournal(temp, temp.path())
    const first = saleWithCard(store)
    const second = saleWithCard(store)
    const [wrapped] = wrappedKeysOf(db, first.id)
    db.prepare('UPDATE sale_key SET wrapped = ? WHERE sale_id = ?').run(wrapped, second.id)
    expect(reasonOf(() => store.openCard(second.id, 'purchase'))).toBe('tampered')
    expect(reasonOf(() => sealer.open(saleKeyAad(second.id), wrapped!))).toBe('tampered')
  })

  it('the checkpointer truncates the WAL after a purge even when the counter is never idle, and waits for a reader', async () => {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS }))
    const checkpointer = trackCheckpointer(new JournalCheckpointer(db, file, { pollMs: 10, idleMs: 60_000, maxEraseDelayMs: 50 }))
    const store = new JournalStore(db, await FieldSealer.open(new MemorySecretStore(), TERMINAL, { create: true }), {
      idEpoch: 'TEST0001',
      onErase: () => checkpointer.noteErase(),
    })
    const busy = setInterval(() => checkpointer.noteActivity(), 5)
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)) // the truncation asked for at start
      const reader = temp.track(new Database(file, { readonly: true }))
      reader.exec('BEGIN')
      reader.prepare('SELECT count(*) FROM sale').get()
      const sale = saleWithCard(store)
      store.apply({ event: { type: 'paymentAnswered' }, next: { ...sale, state: 'declined' }, expectedState: 'sending', purgeCard: true })
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0)
      await new Promise((resolve) => setTimeout(resolve, 150))
      // The reader holds the WAL: the truncation is refused at once (never blocks the agent) and retried.
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0)
      reader.exec('COMMIT')
      await expect.poll(() => statSync(`${file}-wal`).size, { timeout: 2_000 }).toBe(0)
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
    } finally {
      clearInterval(busy)
    }
  })
})

describe('journals sealed before sales had keys of their own', () => {
  const temp = useTempJournals()
  const SALE_KEYS_STEP = JOURNAL_MIGRATIONS.find((m) => m.description.startsWith("each sale's own key"))!.version

  it('migrate; their rows still open, and purge and forward as before, leaving nothing behind', async () => {
    const file = temp.path()
    const secrets = new MemorySecretStore()
    const dataKey = await FieldSealer.open(secrets, TERMINAL, { create: true })
    const id = 'T1-00000001'
    const card = { track2: TRACK2, pan: PAN }
    // Written the way the agent wrote them at the previous schema version: sealed under the data key.
    const legacyCard = dataKey.seal(cardAad(id), JSON.stringify(card))
    const legacyPayment = dataKey.seal(outboxBodyAad(id, 'payment', id), JSON.stringify({ track2: TRACK2 }))
    const legacyTip = dataKey.seal(outboxBodyAad(id, 'tips', `${id}-T1`), JSON.stringify({ tip: '5.00' }))
    const old = new Database(file)
    expect(migrateTo(old, JOURNAL_MIGRATIONS, SALE_KEYS_STEP - 1)).toBe(SALE_KEYS_STEP - 1)
    old.exec(`INSERT INTO counter (name, value) VALUES ('merchantTransID', 1);
      INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture, offline, chip, tip_minor, tip_state)
        VALUES ('${id}', 'storedOffline', 1, 1, '${NEW_SALE.businessDay}', '${NEW_SALE.transTime}', 4500, 'USD', 1, 1, 1, 500, 'pending')`)
    old
      .prepare('INSERT INTO sealed_card (sale_id, purpose, envelope, key_id, created_at) VALUES (?, ?, ?, ?, 1)')
      .run(id, 'purchase', legacyCard, dataKey.keyId)
    const enqueue = old.prepare(
      "INSERT INTO outbox (sale_id, operation, message_id, priority, state, body, key_id, amount_minor, currency, next_attempt_at, created_at) VALUES (?, ?, ?, 1, 'pending', ?, ?, 0, 'USD', 0, 1)",
    )
    enqueue.run(id, 'payment', id, legacyPayment, dataKey.keyId)
    enqueue.run(id, 'tips', `${id}-T1`, legacyTip, dataKey.keyId)
    old.close()

    const { db, store, checkpointer } = await openJournal(temp, file, secrets)
    expect(store.openCard(id, 'purchase')).toEqual(card)
    const [payment] = store.outbox.claimDue(10)
    expect(payment).toMatchObject({ operation: 'payment', body: { track2: TRACK2 } })
    store.apply({
      event: { type: 'forwardAnswered' },
      next: { ...store.get(id)!, state: 'forwarded' },
      expectedState: 'storedOffline',
      settleOutbox: { seq: payment!.seq, result: 'done' },
      purgeCard: true,
    })
    expect(store.openCard(id, 'purchase')).toBeUndefined()
    const [tip] = store.outbox.claimDue(10) // sealed again under a key of its own, and still sent
    expect(tip).toMatchObject({ operation: 'tips', body: { tip: '5.00' } })
    store.outbox.complete(tip!.seq)
    expect(wrappedKeysOf(db, id)).toEqual([])
    expect(store.sealedRowCount()).toBe(0)
    checkpointer.checkpoint()
    for (const needle of [PAN, TRACK2, legacyCard, legacyPayment, legacyTip]) expect(filesHolding(file, needle)).toEqual([])
    // New sales in the migrated journal are sealed under keys of their own.
    const next = saleWithCard(store)
    expect(next.id).toMatch(/^T1-[0-9A-Z]{8}-00000002$/)
    expect(wrappedKeysOf(db, next.id)).toHaveLength(1)
  })
})
