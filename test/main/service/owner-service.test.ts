/**
 * The machine's owner at the command line calls the application layer as the `cli` door
 * (src-main/service/owner-service.ts), the way the agent's doors call AgentService: the contract's
 * schema checks the key, the operation's access row decides, and the audit trail's one writer keeps
 * the record, done or refused, under the `cli` door.
 */
import { describe, expect, it } from 'vitest'
import { CLI, OwnerService, SETUP, AuditTrail, type Caller } from '../../../src-main/service'
import { MemorySecretStore, signingKeyAccount } from '../../../src-main/keychain'
import type { AuditEntry } from '../../../src-main/journal'

const KEY = 'owner-test-signing-key-012345678'

function owner(hasManager = false) {
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
  const service = new OwnerService({ secrets, aid: 'ACQ', hasManager: () => hasManager, audit })
  return { secrets, written, service }
}

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
    const { written, service } = owner(true)
    await expect(service.call(CLI, 'setSigningKey', { key: KEY })).resolves.toHaveProperty('kcv')
    expect(written.map((r) => [r.action, r.door, r.ok])).toEqual([['setSigningKey', 'cli', true]])
  })

  it('a malformed key is refused by the contract before anything is stored, and the try is recorded', async () => {
    const { secrets, written, service } = owner()
    await expect(service.call(CLI, 'setSigningKey', { key: 'short' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBeUndefined()
    expect(written).toEqual([expect.objectContaining({ action: 'setSigningKey', door: 'cli', ok: false, detail: 'INVALID_REQUEST' })])
  })

  it.each<[string, Caller]>([
    ['the setup page', SETUP],
    ['the customer display', { door: 'display', session: 's' }],
  ])('%s is not a door of setSigningKey in the table: refused, recorded', async (_name, caller) => {
    const { secrets, written, service } = owner()
    await expect(service.call(caller, 'setSigningKey', { key: KEY })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(await secrets.get(signingKeyAccount('ACQ'))).toBeUndefined()
    expect(written).toEqual([expect.objectContaining({ action: 'setSigningKey', door: caller.door, ok: false, detail: 'FORBIDDEN' })])
  })
})
