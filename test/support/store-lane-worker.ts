/**
 * Child process of the store scenarios: a lane with its store link, driven line by line on stdin,
 * answering one JSON line per command, until it is told to quit or is killed (SIGKILL), frozen
 * (SIGSTOP) or thawed (SIGCONT) by its parent. A process of its own, so that it can die, hang and
 * come back on its own disk as a terminal does.
 *
 * Commands: `sale <amountMinor>`, `return <saleId> <amountMinor>` (answer: the sale's id, state and
 * amount once the counter no longer waits), `void <saleId>` (the same, or `{ error }` when the void
 * is refused), `forward` (forward now; answer: the status), `status` (the queue, the fence, the
 * copies), `sync` (one copy pass, then the status), `quit` (the lane closed cleanly, then the process
 * ends).
 * argv: <dataDir> <hostUrl> <caFile> <natsUrl> <terminalId> <recoveryPublicKey> <secretsFile> [<nkeySeedFile>].
 */
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { FileSecretStore } from './file-secret-store'
import { startLane, type Lane } from './store-lane'

const [dataDir, hostUrl, caFile, natsUrl, terminalId, publicKey, secretsFile, nkeySeedFile] = process.argv.slice(2)
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
  ...(nkeySeedFile ? { nkeySeed: readFileSync(nkeySeedFile, 'utf8').trim() } : {}),
  ackTimeoutMs: 1_000,
  settings: { duplicateWindowMs: 0 },
})
console.log(JSON.stringify({ ready: true }))

/** What the parent reads of the lane between commands: its queue, whether it knows it is fenced, its copies' state. */
function status(lane: Lane): Record<string, unknown> {
  const queue = lane.engine.forwarder.status()
  const replica = lane.wiring.link.replicaState()
  return {
    count: queue.count,
    owed: lane.engine.journal.outbox.owedKeys().map(({ operation, messageId }) => ({ operation, messageId })),
    fenced: replica.fenced,
    uncopied: replica.uncopied,
    alarms: lane.engine.alarms.map((alarm) => alarm.code),
  }
}

/** The card offered for this command's read, taken back if nothing read it (a stored payment's void reads none). */
async function withCard<T>(run: () => Promise<T>): Promise<T> {
  const card = { card: TEST_CARDS.chipVisa() }
  reader.present(card)
  try {
    return await run()
  } finally {
    reader.withdraw(card)
  }
}

async function answer(command: string | undefined, first: string | undefined, second: string | undefined): Promise<unknown> {
  const { txn } = lane.engine
  switch (command) {
    case 'sale':
    case 'return': {
      const done = await withCard(() => {
        const started =
          command === 'return'
            ? txn.returns.start({ originalId: first, amountMinor: Number(second), currency: 'USD', managerApproved: true })
            : txn.sales.start({ amountMinor: Number(first), currency: 'USD' })
        return txn.waitForOutcome(started.id)
      })
      return { id: done.id, state: done.state, amountMinor: done.amountMinor }
    }
    case 'void': {
      const done = await withCard(async () => {
        await txn.afterSale.voidSale(first!)
        return txn.waitForOutcome(first!)
      })
      return { id: done.id, state: done.state, amountMinor: done.amountMinor }
    }
    case 'forward':
      // A fenced lane sends its reversals and refuses the rest, in words: the status says what is left.
      await lane.engine.forwarder.forwardNow().catch(() => undefined)
      return status(lane)
    case 'sync':
      await lane.wiring.link.replica.syncNow()
      return status(lane)
    case 'status':
      return status(lane)
    case 'quit':
      await lane.close()
      return { quit: true }
    default:
      throw new Error(`unknown command ${command ?? ''}`)
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, first, second] = line.trim().split(/\s+/)
  try {
    console.log(JSON.stringify(await answer(command, first, second)))
  } catch (error) {
    console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }))
  }
  if (command === 'quit') process.exit(0)
}
