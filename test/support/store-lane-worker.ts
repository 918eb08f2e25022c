/**
 * Child process of the store scenario: a lane with its store link, driven line by line on stdin
 * (`sale <amountMinor>`, `return <saleId> <amountMinor>`), answering one JSON line per command, until
 * it is killed. argv: <dataDir> <hostUrl> <caFile> <natsUrl> <terminalId> <recoveryPublicKey> <secretsFile>.
 */
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { FileSecretStore } from './file-secret-store'
import { startLane } from './store-lane'

const [dataDir, hostUrl, caFile, natsUrl, terminalId, publicKey, secretsFile] = process.argv.slice(2)
if (!dataDir || !hostUrl || !caFile || !natsUrl || !terminalId || !publicKey || !secretsFile) throw new Error('usage: see the header')

const reader = new ScriptedCardReader()
const lane = await startLane({
  dir: dataDir,
  hostUrl,
  caPem: readFileSync(caFile, 'utf8'),
  natsUrl,
  terminalId,
  reader,
  secrets: new FileSecretStore(secretsFile),
  recoveryPublicKey: publicKey,
  ackTimeoutMs: 1_000,
  settings: { duplicateWindowMs: 0 },
})
console.log(JSON.stringify({ ready: true }))

for await (const line of createInterface({ input: process.stdin })) {
  const [command, first, second] = line.trim().split(/\s+/)
  reader.present({ card: TEST_CARDS.chipVisa() })
  const started =
    command === 'return'
      ? lane.engine.txn.startReturn({ originalId: first, amountMinor: Number(second), currency: 'USD', managerApproved: true })
      : lane.engine.txn.startSale({ amountMinor: Number(first), currency: 'USD' })
  const done = await lane.engine.txn.waitForOutcome(started.id)
  console.log(JSON.stringify({ id: done.id, state: done.state, amountMinor: done.amountMinor }))
}
