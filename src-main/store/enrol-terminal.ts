/**
 * `pos-agent store enrol`, run on the terminal itself (docs/store.md "Copies only a terminal can
 * make"): with the store's recovery key (checked against `store.recoveryPublicKey`), it makes the
 * terminal's copy key in the keychain when there is none, and writes the enrolment certificate into
 * the data folder, from where the lane puts it into the store's `pos_enrol` bucket at every start
 * (and here at once, when the store server answers). Run again, it changes nothing: the key is kept,
 * and a certificate that already enrols it stays. Every try goes to the terminal's audit trail.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { PosError } from '../../src-shared/pos-error'
import { checkEnrolment, copyKeyAccount, ENROLMENT_FILE, isEnrolment, makeCopyKeyPair, makeEnrolment, readCopyKey } from './enrolment'
import { putEnrolment } from './enrolment-history'
import { openRecoveryPrivateKey, rewrapNote } from './recovery-key'
import { StoreConnection, type StoreConnectionSettings } from './store-connection'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

export interface EnrolInput {
  secrets: { get(account: string): Promise<string | undefined>; set(account: string, secret: string): Promise<void> }
  dataDir: string
  storeId: string
  terminalId: string
  recoveryPublicKey: string
  keyFile: string
  keyPem: string
  passphrase: string
  /** Who enrols it (a manager's name), recorded in the certificate. */
  by: string
  /** The store server, to put the certificate at once; undefined: at the agent's next start only. */
  connection?: Omit<StoreConnectionSettings, 'name'> | undefined
  audit: (entry: { action: string; subject: string; ok: boolean; detail: string }) => void
  print: (text: string) => void
  warn: (text: string) => void
  now?: () => Date
  timeoutMs?: number
}

const EXIT = { ok: 0, usage: 2, config: 3 } as const

export async function enrolTerminal(input: EnrolInput): Promise<number> {
  const { storeId, terminalId, audit } = input
  const subject = `${storeId}/${terminalId}`
  let recovery: ReturnType<typeof openRecoveryPrivateKey>
  try {
    recovery = openRecoveryPrivateKey(input.keyPem, input.passphrase)
  } catch (error) {
    audit({ action: 'storeEnrol', subject, ok: false, detail: 'the recovery key did not open' })
    input.warn(`${error instanceof PosError ? error.message : String(error)}: nothing was changed`)
    return EXIT.usage
  }
  if (recovery.publicKey !== input.recoveryPublicKey) {
    audit({ action: 'storeEnrol', subject, ok: false, detail: "not this store's recovery key" })
    input.warn(`this is not the recovery key of store ${storeId} (it does not match store.recoveryPublicKey): nothing was changed`)
    return EXIT.config
  }
  if (recovery.legacy) input.warn(rewrapNote(input.keyFile))

  let copyKey = await readCopyKey(input.secrets, storeId, terminalId)
  const made = copyKey === undefined
  if (!copyKey) {
    const pair = makeCopyKeyPair()
    await input.secrets.set(copyKeyAccount(storeId, terminalId), JSON.stringify(pair.privateJwk))
    copyKey = pair.privateJwk
  }
  const file = join(input.dataDir, ENROLMENT_FILE)
  const existing = existsSync(file) ? checkEnrolment(recovery.jwk, readFileSync(file, 'utf8'), { storeId, terminalId }) : undefined
  let json: string
  let kept = false
  if (existing && isEnrolment(existing) && existing.publicKey === copyKey.x) {
    json = JSON.stringify(existing)
    kept = true
  } else {
    const certificate = makeEnrolment(recovery.jwk, {
      storeId,
      terminalId,
      publicKey: copyKey.x,
      by: `${input.by} on ${hostname()}`,
      now: (input.now ?? (() => new Date(SYSTEM_CLOCK.now())))(),
    })
    json = JSON.stringify(certificate)
    // Whole or not at all: the agent reads this file at every start.
    writeFileSync(`${file}.new`, `${json}\n`, { mode: 0o600 })
    renameSync(`${file}.new`, file)
  }
  const fingerprint = `${copyKey.x.slice(0, 8)}…`
  let atStore = 'the agent puts it at the store server at its next start'
  if (input.connection) {
    const connection = new StoreConnection({ ...input.connection, name: `pos-agent store enrol on ${hostname()}` })
    try {
      await putEnrolment(connection, storeId, terminalId, json, input.timeoutMs ?? 5_000)
      atStore = 'it is at the store server'
    } catch (error) {
      input.warn(
        `the store server did not take the enrolment now (${error instanceof Error ? error.message : String(error)}): the agent puts it there at its next start`,
      )
    } finally {
      await connection.close()
    }
  }
  audit({
    action: 'storeEnrol',
    subject,
    ok: true,
    detail: `copy key ${fingerprint} ${made ? 'made' : 'kept'}; certificate ${kept ? 'kept' : 'written'}; ${atStore}`,
  })
  input.print(
    kept && !made
      ? `terminal ${terminalId} of store ${storeId} was already enrolled (copy key ${fingerprint}): nothing changed; ${atStore}`
      : `terminal ${terminalId} of store ${storeId} is enrolled (copy key ${fingerprint}); ${atStore}. Restart the agent so that its copies are sealed with this key.`,
  )
  return EXIT.ok
}
