/**
 * The machine's owner outside the running agent calls the application layer as a door of its own
 * (src-main/service/owner-service.ts), the way the agent's doors call AgentService: the command line
 * as `cli`, the first-run setup page as `setup`. The contract's schema checks the request, the
 * operation's access row decides (a manager's number and PIN approve on the setup page, the owner
 * stands for the manager at the command line where the row says so), and the audit trail's one
 * writer keeps the record, done or refused. Operators on a real journal file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CLI, OwnerService, SETUP, AuditTrail, type Caller } from '../../../src-main/service'
import { MemorySecretStore, signingKeyAccount } from '../../../src-main/keychain'
import { OperatorStore, openJournalDatabase, type AuditEntry } from '../../../src-main/journal'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { MAX_WRONG_PINS, Operators } from '../../../src-main/operators'

const KEY = 'owner-test-signing-key-012345678'
const COST = { N: 2 ** 10, r: 8, p: 1 }
const MANAGER = { operatorId: '9', pin: '4321' }

let dir: string
let db: Database.Database
let operators: Operators
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pos-owner-'))
  db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
  operators = new Operators(new OperatorStore(db), Date.now, COST)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

function owner(withJournal = true) {
  const secrets = new MemorySecretStore()
  const written: AuditEntry[] = []
  const audit = new AuditTrail(
    {
      append: (entry: AuditEntry) => void written.push(entry),
      between: () => [],
      verify: () => ({ intact: true, records: 0, problems: [] }),
      head: () => undefined,
      headAt: () => undefined,
    } as unknown as ConstructorParameters<typeof AuditTrail>[0],
    (error) => {
      throw error
    },
  )
  const service = new OwnerService({ secrets, aid: 'ACQ', ...(withJournal ? { operators, audit } : {}) })
  return { secrets, written, service }
}

const withManager = () => operators.add({ ...MANAGER, name: 'Maria', role: 'manager' })
const rows = (written: AuditEntry[]) => written.map((r) => [r.action, r.door, r.actor, r.ok, r.detail])

describe('the owner service, as the command line', () => {
  it('stores the signing key as setSigningKey and records it once, as the cli door', async () => {
    const { secrets, written, service } = owner()
    const { kcv } = await service.call(CLI, 'setSigningKey', { key: KEY })
    expect(kcv).toMatch(/^[0-9A-F]{6}$/)
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBe(KEY)
    expect(written).toEqual([expect.objectContaining({ action: 'setSigningKey', door: 'cli', ok: true })])
    expect(JSON.stringify(written)).not.toContain(KEY)
  })

  it('a terminal with a manager: the owner at the command line stands for the approval (the access row)', async () => {
    await withManager()
    const { written, service } = owner()
    await expect(service.call(CLI, 'setSigningKey', { key: KEY })).resolves.toHaveProperty('kcv')
    expect(rows(written)).toEqual([['setSigningKey', 'cli', undefined, true, "by the machine's owner from the command line"]])
  })

  it('a malformed key is refused by the contract before anything is stored, and the try is recorded', async () => {
    const { secrets, written, service } = owner()
    await expect(service.call(CLI, 'setSigningKey', { key: 'short' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBeUndefined()
    expect(written).toEqual([expect.objectContaining({ action: 'setSigningKey', door: 'cli', ok: false, detail: 'INVALID_REQUEST' })])
  })

  it('the customer display is not a door of setSigningKey in the table: refused, recorded', async () => {
    const { secrets, written, service } = owner()
    const display: Caller = { door: 'display', session: 's' }
    await expect(service.call(display, 'setSigningKey', { key: KEY })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBeUndefined()
    expect(written).toEqual([expect.objectContaining({ action: 'setSigningKey', door: 'display', ok: false, detail: 'FORBIDDEN' })])
  })

  it('unlocks a locked manager as unlockOperator, with what the command line prints, recorded as the owner', async () => {
    await withManager()
    for (let i = 0; i < MAX_WRONG_PINS; i++) await operators.verify({ operatorId: '9', pin: '0000' }).catch(() => undefined)
    const { written, service } = owner()
    expect(await service.call(CLI, 'unlockOperator', { operatorId: '9' })).toMatchObject({
      name: 'Maria',
      role: 'manager',
      wasLocked: true,
    })
    expect(await service.call(CLI, 'unlockOperator', { operatorId: '9' })).toMatchObject({ wasLocked: false })
    expect(await operators.verify(MANAGER)).toMatchObject({ id: '9' })
    await expect(service.call(CLI, 'unlockOperator', { operatorId: '77' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(rows(written)).toEqual([
      ['unlockOperator', 'cli', undefined, true, "by the machine's owner from the command line"],
      ['unlockOperator', 'cli', undefined, true, "by the machine's owner from the command line"],
      ['unlockOperator', 'cli', undefined, false, 'NOT_FOUND'],
    ])
  })

  it('before the terminal has a journal there is no operator to unlock, and nothing to record', async () => {
    const { service } = owner(false)
    await expect(service.call(CLI, 'unlockOperator', { operatorId: '9' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('the owner service, as the setup page', () => {
  it('a terminal without operators: the key is stored and the first manager added, as the setup door', async () => {
    const { secrets, written, service } = owner()
    expect(await service.call(SETUP, 'listOperators', {})).toEqual([])
    await service.call(SETUP, 'setSigningKey', { key: KEY })
    await service.call(SETUP, 'addOperator', { ...MANAGER, name: 'Maria', role: 'manager' })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBe(KEY)
    expect(operators.hasManager()).toBe(true)
    expect(rows(written)).toEqual([
      ['setSigningKey', 'setup', undefined, true, undefined],
      ['addOperator', 'setup', undefined, true, undefined],
    ])
  })

  it('a terminal with a manager: the key needs their number and PIN on the page; a wrong one changes nothing', async () => {
    await withManager()
    const { secrets, written, service } = owner()
    await expect(service.call(SETUP, 'setSigningKey', { key: KEY })).rejects.toMatchObject({ code: 'MANAGER_REQUIRED' })
    await expect(service.call(SETUP, 'setSigningKey', { key: KEY, approval: { operatorId: '9', pin: '9999' } })).rejects.toMatchObject({
      code: 'PIN_WRONG',
    })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBeUndefined()
    await service.call(SETUP, 'setSigningKey', { key: KEY, approval: MANAGER })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBe(KEY)
    expect(rows(written)).toEqual([
      ['setSigningKey', 'setup', undefined, false, 'MANAGER_REQUIRED'],
      ['approval', 'setup', '9', false, 'PIN_WRONG'],
      ['setSigningKey', 'setup', undefined, false, 'PIN_WRONG'],
      ['approval', 'setup', '9', true, 'number and PIN'],
      ['setSigningKey', 'setup', '9', true, undefined],
    ])
    expect(JSON.stringify(written)).not.toContain(KEY)
    expect(JSON.stringify(written)).not.toContain(MANAGER.pin)
  })

  it('a second operator from the setup page needs a manager, as at the counter; unlocking is not a setup door', async () => {
    await withManager()
    const { service } = owner()
    await expect(service.call(SETUP, 'addOperator', { operatorId: '10', name: 'Eve', role: 'manager', pin: '1111' })).rejects.toMatchObject(
      {
        code: 'MANAGER_REQUIRED',
      },
    )
    await expect(service.call(SETUP, 'unlockOperator', { operatorId: '9' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(operators.list().map((o) => o.id)).toEqual(['9'])
  })

  it('the command line cannot approve with a PIN: what needs a manager and is not the owner’s is refused', async () => {
    await withManager()
    const { service } = owner()
    await expect(
      service.call(CLI, 'addOperator', { operatorId: '10', name: 'Eve', role: 'cashier', pin: '1111', approval: MANAGER }),
    ).rejects.toMatchObject({ code: 'MANAGER_REQUIRED' })
    expect(operators.list().map((o) => o.id)).toEqual(['9'])
  })
})
