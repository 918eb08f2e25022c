/**
 * merchantTransIDs never repeat (docs/gateway.md §7): not after the journal is deleted and made again,
 * not after an older copy of it is put back, on real SQLite files and one keychain (a memory store
 * here, the OS keychain in production).
 */
import { copyFileSync, rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src-main/config/config'
import { LIMITS, merchantTransInfoSchema } from '../../../src-main/gateway/request-schemas'
import { openJournalDatabase } from '../../../src-main/journal/database'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { MAX_SALE_ID_BYTES, merchantTransId, openIdEpoch } from '../../../src-main/journal/transaction-ids'
import { installIdAccount, MemorySecretStore, SecretStoreUnavailableError } from '../../../src-main/keychain'
import { useTempJournals } from './journal-harness'
import { NEW_SALE, openJournal, TERMINAL, type OpenedJournal } from './store-harness'

const ID_SHAPE = /^T1-([0-9A-HJKMNP-TV-Z]{5})([0-9A-HJKMNP-TV-Z]{3})-(\d{8})$/

function sales(journal: OpenedJournal, count: number): string[] {
  return Array.from({ length: count }, () => journal.store.createSale(TERMINAL, NEW_SALE).id)
}

function expectAllDistinct(ids: string[]): void {
  expect(new Set(ids).size).toBe(ids.length)
}

function removeJournal(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true })
}

describe('merchantTransID', () => {
  const temp = useTempJournals()

  it('is <terminalId>-<installation id><epoch>-<8-digit sequence>, a new epoch at every start', async () => {
    const secrets = new MemorySecretStore()
    const file = temp.path()
    const first = await openJournal(temp, file, secrets)
    const [a, b] = sales(first, 2)
    first.close()
    const second = await openJournal(temp, file, secrets)
    const [c] = sales(second, 1)

    const [, install, epoch1, seq1] = ID_SHAPE.exec(a!)!
    expect([epoch1, seq1]).toEqual(['001', '00000001'])
    expect(ID_SHAPE.exec(b!)!.slice(1)).toEqual([install, '001', '00000002'])
    expect(ID_SHAPE.exec(c!)!.slice(1)).toEqual([install, '002', '00000003'])
    expect(JSON.parse((await secrets.get(installIdAccount(TERMINAL)))!)).toEqual({ installId: install, epoch: 2 })
    expect(second.db.prepare('SELECT install_id, epoch, first_sequence FROM id_epoch ORDER BY epoch').raw().all()).toEqual([
      [install, 1, 1],
      [install, 2, 3],
    ])
  })

  it('fits the gateway limit with the longest terminalId the configuration allows and a follow-up suffix', () => {
    const terminal = configSchema.shape.merchant.shape.terminalId
    const longest = 'T.'.repeat(20)
    expect(terminal.safeParse(longest).success).toBe(true)
    expect(terminal.safeParse(`${longest}X`).success).toBe(false)
    const id = merchantTransId(longest, 'ZZZZZZZZ', 99_999_999)
    expect(Buffer.byteLength(id)).toBe(MAX_SALE_ID_BYTES)
    for (const suffix of ['-T9999', '-V9999', '-C9999']) {
      expect(Buffer.byteLength(id + suffix)).toBeLessThanOrEqual(LIMITS.merchantTransID)
      expect(
        merchantTransInfoSchema.safeParse({ merchantTransID: id + suffix, merchantTransTime: '2026-11-21T10:00:00+01:00' }).success,
      ).toBe(true)
    }
  })

  it('a journal deleted and made again on the same keychain never issues an id again', async () => {
    const secrets = new MemorySecretStore()
    const file = temp.path()
    const issued: string[] = []
    for (let round = 0; round < 3; round++) {
      const journal = await openJournal(temp, file, secrets)
      issued.push(...sales(journal, 5))
      journal.close()
      removeJournal(file)
    }
    expect(issued.filter((id) => id.endsWith('-00000001'))).toHaveLength(3) // each new journal counts from 1 again
    expectAllDistinct(issued)
  })

  it('a journal restored from an older copy never issues an id again', async () => {
    const secrets = new MemorySecretStore()
    const file = temp.path()
    const copy = temp.path('backup.sqlite')
    const issued: string[] = []

    const first = await openJournal(temp, file, secrets)
    issued.push(...sales(first, 3))
    first.close()
    copyFileSync(file, copy) // closed: the WAL was truncated into the file
    const second = await openJournal(temp, file, secrets)
    issued.push(...sales(second, 4))
    second.close()

    removeJournal(file)
    copyFileSync(copy, file)
    const restored = await openJournal(temp, file, secrets)
    expect(restored.store.createSale(TERMINAL, NEW_SALE).id).toMatch(/-00000004$/) // behind the ids issued since the copy
    issued.push(...sales(restored, 4))
    expectAllDistinct(issued)
  })

  it('a backup taken while the agent runs, then restored, never issues an id again', async () => {
    const secrets = new MemorySecretStore()
    const file = temp.path()
    const copy = temp.path('online-backup.sqlite')
    const running = await openJournal(temp, file, secrets)
    const issued = sales(running, 2)
    await running.db.backup(copy) // same epoch and keychain state as the live file
    issued.push(...sales(running, 3))
    running.close()

    removeJournal(file)
    copyFileSync(copy, file)
    const restored = await openJournal(temp, file, secrets)
    issued.push(...sales(restored, 5))
    expectAllDistinct(issued)
  })

  it('a keychain entry restored from an older backup does not hand out an epoch the journal already used', async () => {
    const secrets = new MemorySecretStore()
    const file = temp.path()
    const account = installIdAccount(TERMINAL)
    const first = await openJournal(temp, file, secrets)
    const oldEntry = (await secrets.get(account))!
    const issued = sales(first, 2)
    first.close()
    const second = await openJournal(temp, file, secrets)
    issued.push(...sales(second, 2))
    second.close()

    await secrets.set(account, oldEntry)
    const third = await openJournal(temp, file, secrets)
    issued.push(...sales(third, 2))
    expect(JSON.parse((await secrets.get(account))!)).toMatchObject({ epoch: 3 })
    expectAllDistinct(issued)
  })

  it('a keychain without the entry (new, damaged or from another version) gets a new installation id', async () => {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS }))
    const install = (epoch: string) => ID_SHAPE.exec(`T1-${epoch}-00000001`)![1]
    const first = await openIdEpoch(db, new MemorySecretStore(), TERMINAL, Date.now)
    const damaged = new MemorySecretStore()
    await damaged.set(installIdAccount(TERMINAL), '{"installId":"not base32","epoch":4}')
    const second = await openIdEpoch(db, damaged, TERMINAL, Date.now)
    expect([first.slice(5), second.slice(5)]).toEqual(['001', '001'])
    expect(install(second)).not.toBe(install(first))
    expect(JSON.parse((await damaged.get(installIdAccount(TERMINAL)))!)).toEqual({ installId: install(second), epoch: 1 })
  })

  it('after the last epoch number an installation moves to a new installation id', async () => {
    const db = temp.track(openJournalDatabase(temp.path(), { migrations: JOURNAL_MIGRATIONS }))
    const secrets = new MemorySecretStore()
    await secrets.set(installIdAccount(TERMINAL), JSON.stringify({ installId: 'ABCDE', epoch: 32 ** 3 - 2 }))
    expect(await openIdEpoch(db, secrets, TERMINAL, Date.now)).toBe('ABCDEZZZ')
    const next = await openIdEpoch(db, secrets, TERMINAL, Date.now)
    expect(next).toMatch(/^[0-9A-Z]{5}001$/)
    expect(next.slice(0, 5)).not.toBe('ABCDE')
  })

  it('a keychain that does not keep the entry stops the start: it would hand the epoch out again', async () => {
    const db = temp.track(openJournalDatabase(temp.path(), { migrations: JOURNAL_MIGRATIONS }))
    const forgetful = new MemorySecretStore()
    forgetful.set = async () => undefined
    const error = await openIdEpoch(db, forgetful, TERMINAL, Date.now).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SecretStoreUnavailableError)
    expect(error).toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE', message: expect.stringContaining(installIdAccount(TERMINAL)) })
    expect(db.prepare('SELECT count(*) FROM id_epoch').pluck().get()).toBe(0)
  })
})
