/**
 * What the audit trail keeps in the keychain: its key, made once per journal file and then read back
 * as it is; and its head, written after each record without anyone waiting for it, a burst of records
 * costing one write in flight and one more for the newest head, and never moved backwards.
 */
import { describe, expect, it } from 'vitest'
import { AuditAnchor, journalTag, openAuditKey } from '../../../src-main/journal'
import { auditHeadAccount, MemorySecretStore } from '../../../src-main/keychain'

/** A keychain whose writes wait until the test lets them land, counting them. */
class SlowKeychain extends MemorySecretStore {
  writes: string[] = []
  private release: Array<() => void> = []
  override async set(account: string, secret: string): Promise<void> {
    this.writes.push(secret)
    await new Promise<void>((resolve) => this.release.push(resolve))
    await super.set(account, secret)
  }
  landAll(): void {
    const waiting = this.release
    this.release = []
    waiting.forEach((resolve) => resolve())
  }
}

const head = (seq: number) => ({ seq, mac: String(seq % 10).repeat(64) })

describe("the audit trail's keychain entries", () => {
  it('the key is made once per journal file and read back as it is after', async () => {
    const keychain = new MemorySecretStore()
    const first = await openAuditKey(keychain, '/data/a/journal.sqlite')
    const again = await openAuditKey(keychain, '/data/a/journal.sqlite')
    const other = await openAuditKey(keychain, '/data/b/journal.sqlite')
    expect([first.created, again.created, other.created]).toEqual([true, false, true])
    expect(again.key.keyId).toBe(first.key.keyId)
    expect(other.key.keyId).not.toBe(first.key.keyId)
    expect(journalTag('/data/a/journal.sqlite')).toMatch(/^[0-9a-f]{12}$/)
  })

  it('the head: a burst of records is one write in flight and one for the newest; never backwards', async () => {
    const file = '/data/a/journal.sqlite'
    const keychain = new SlowKeychain()
    const anchor = await AuditAnchor.open(keychain, file, (error) => {
      throw error
    })
    for (let seq = 1; seq <= 50; seq++) anchor.note(head(seq))
    expect(keychain.writes).toEqual([JSON.stringify(head(1))])
    keychain.landAll()
    await new Promise((resolve) => setImmediate(resolve))
    expect(keychain.writes).toEqual([JSON.stringify(head(1)), JSON.stringify(head(50))])
    keychain.landAll()
    await anchor.flush()
    expect(await keychain.get(auditHeadAccount(journalTag(file)))).toBe(JSON.stringify(head(50)))
    // A head behind the kept one (the trail cut short under the agent) is never written.
    anchor.note(head(20))
    expect(anchor.head).toEqual(head(50))
    expect(keychain.writes).toHaveLength(2)
    // The next start reads it back.
    const reopened = await AuditAnchor.open(keychain, file, () => undefined)
    expect(reopened.head).toEqual(head(50))
  })
})
