/**
 * Lifting a rescued terminal's fence (docs/store.md "Lifting a fence"). Only whoever holds the
 * store's recovery key and its passphrase may: the same person who may rescue. It says what the fence
 * is (who rescued, when) and what is still at the store, asks before it acts, lifts only the fence it
 * read (a rescue started meanwhile keeps its own), and every try goes to the audit trail of the lane
 * it runs on. The command line only reads the passphrase, asks and prints.
 */
import { hostname } from 'node:os'
import { agreeing, counted } from '../../src-shared/counted'
import { PosError } from '../../src-shared/pos-error'
import { liftFence, readFenceEntry } from './fence'
import { openRecoveryPrivateKey, rewrapNote } from './recovery-key'
import { StoreConnection, type StoreConnectionSettings } from './store-connection'

export interface LiftFenceRunInput {
  connection: Omit<StoreConnectionSettings, 'name'>
  terminalId: string
  /** The store's recovery public key as this lane's configuration names it. */
  recoveryPublicKey: string
  /** The key file's name (for the words), its content and its passphrase. */
  keyFile?: string
  keyPem: string
  passphrase: string
  /** Asks the question; true only for a plain yes (always true with `--yes`). */
  confirm: (question: string) => Promise<boolean>
  /** Appends to the audit trail of the lane the command runs on. */
  audit: (entry: { action: string; subject: string; ok: boolean; detail: string }) => void
  print: (text: string) => void
  warn: (text: string) => void
  timeoutMs?: number
}

/** Exit codes (README "Exit codes"). */
const EXIT = { ok: 0, failure: 1, usage: 2 } as const

export async function liftFenceRun(input: LiftFenceRunInput): Promise<number> {
  const { terminalId, audit } = input
  const timeoutMs = input.timeoutMs ?? 5_000
  const storeId = input.connection.storeId
  const subject = `${storeId}/${terminalId}`
  let opened: ReturnType<typeof openRecoveryPrivateKey>
  try {
    opened = openRecoveryPrivateKey(input.keyPem, input.passphrase)
  } catch (error) {
    audit({ action: 'liftFence', subject, ok: false, detail: 'the recovery key did not open' })
    input.warn(`${error instanceof PosError ? error.message : String(error)}: nothing was changed`)
    return EXIT.usage
  }
  if (opened.publicKey !== input.recoveryPublicKey) {
    audit({ action: 'liftFence', subject, ok: false, detail: "not this store's recovery key" })
    input.warn(`this is not the recovery key of store ${storeId} (it does not match store.recoveryPublicKey): nothing was changed`)
    return EXIT.usage
  }
  if (opened.legacy) input.warn(rewrapNote(input.keyFile ?? 'the recovery key file'))
  const connection = new StoreConnection({ ...input.connection, name: `pos-agent lift-fence on ${hostname()}` })
  try {
    const found = await readFenceEntry(connection, storeId, terminalId, timeoutMs)
    if (!found) {
      input.print(`terminal ${terminalId} of store ${storeId} is not fenced: nothing to lift (\`pos-agent fleet\` lists the lanes)`)
      return EXIT.ok
    }
    const { fence, revision } = found
    const left = (await connection.copySubjects(terminalId, timeoutMs)).length
    const question = [
      `terminal ${terminalId} of store ${storeId} was rescued on ${fence.rescuedAt.slice(0, 16).replace('T', ' ')} (from ${fence.by}).`,
      left === 0
        ? 'The rescue left nothing waiting at the store.'
        : `${counted(left, 'message')} of it ${agreeing(left, 'is', 'are')} still waiting at the store: the rescue did not finish, or refused ${agreeing(left, 'it', 'some')}. Once the fence is lifted the terminal sends its own queue itself (the bank answers a repeat with its first answer).`,
      'Once lifted and restarted, the terminal sends its own waiting payments again and may store new ones.',
      `Lift the fence of terminal ${terminalId}?`,
    ].join('\n')
    if (!(await input.confirm(question))) {
      input.print('nothing was changed: the fence stays')
      return EXIT.failure
    }
    try {
      await liftFence(connection, storeId, terminalId, timeoutMs, revision)
    } catch (error) {
      if (!/wrong last sequence/i.test(error instanceof Error ? error.message : '')) throw error
      audit({ action: 'liftFence', subject, ok: false, detail: 'the fence changed while the question was asked' })
      input.warn('the fence changed while the question was asked (a rescue ran again): nothing was changed, run lift-fence again')
      return EXIT.failure
    }
    audit({
      action: 'liftFence',
      subject,
      ok: true,
      detail: `fence of ${fence.rescuedAt} from ${fence.by} (rescue ${fence.rescueId}); ${counted(left, 'message')} still at the store`,
    })
    input.print(
      `the fence of terminal ${terminalId} is lifted: restart that terminal, it reads its fence at start and sends its queue again`,
    )
    return EXIT.ok
  } finally {
    await connection.close()
  }
}
