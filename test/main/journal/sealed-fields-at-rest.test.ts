/**
 * The end-to-end promise of sealed fields: after a committed write in WAL mode, neither the database
 * file nor its -wal file holds the card data in clear (docs/card-reader.md §5). A control row written
 * unsealed proves the scan would find it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../src-main/keychain'
import { openJournalDatabase, runInTransaction } from '../../../src-main/journal/database'
import type { Migration } from '../../../src-main/journal/migrations'
import { FieldSealer, sealedFieldAad } from '../../../src-main/journal/sealed-fields'
import { useTempJournals } from './journal-harness'

const PAN = '4761739001010119'
const TRACK2 = `;${PAN}=29122011000012345678?`
const CARD_DATA: readonly Migration[] = [
  { version: 1, description: 'card data', up: (db) => db.exec('CREATE TABLE card_data (sale_id TEXT PRIMARY KEY, track2 BLOB NOT NULL)') },
]

const contains = (file: string, text: string): boolean => readFileSync(file).includes(Buffer.from(text, 'latin1'))

describe('sealed fields at rest', () => {
  const temp = useTempJournals()

  function writeCardData(file: string, value: (saleId: string) => Buffer | string) {
    const db = temp.track(openJournalDatabase(file, { migrations: CARD_DATA }))
    runInTransaction(db, () => db.prepare('INSERT INTO card_data (sale_id, track2) VALUES (?, ?)').run('sale-1', value('sale-1')))
    const wal = `${file}-wal`
    expect(existsSync(wal) && statSync(wal).size > 0).toBe(true)
    return db
  }

  it('control: an unsealed value is found in the -wal file by the scan', () => {
    const file = temp.path('control.sqlite')
    writeCardData(file, () => Buffer.from(TRACK2))
    expect(contains(`${file}-wal`, PAN)).toBe(true)
  })

  it('a sealed PAN is in neither the database file nor the -wal file, before and after checkpoint', async () => {
    const sealer = await FieldSealer.open(new MemorySecretStore(), 'T-0001', { create: true })
    const file = temp.path()
    const db = writeCardData(file, (saleId) => sealer.seal(sealedFieldAad('card_data', saleId, 'track2'), TRACK2))
    for (const path of [file, `${file}-wal`]) {
      expect([path, contains(path, PAN)]).toEqual([path, false])
      expect([path, contains(path, '=2912')]).toEqual([path, false])
    }

    const stored = db.prepare("SELECT track2 FROM card_data WHERE sale_id = 'sale-1'").pluck().get() as Buffer
    expect(sealer.open(sealedFieldAad('card_data', 'sale-1', 'track2'), stored).toString()).toBe(TRACK2)
    db.pragma('wal_checkpoint(TRUNCATE)')
    expect(contains(file, PAN)).toBe(false)
  })
})
