/**
 * The store's promises under generated sequences (test/support/rescue-model.ts): offline and online
 * sales, voids, the bank down and up, a lane frozen, cut off from the store, killed and started again
 * on its own disk, the store server killed and started again, and rescues from another lane; then
 * everything settled and checked against the training host's ledger, the lane's journal and the
 * store: each payment charged at most once and never when the cashier saw it voided or declined,
 * each stored payment charged, nothing left at the store for a rescued lane, nothing published by a
 * lane after its fence. A failure prints its seed, path and commands; RESCUE_MODEL_SEED (and
 * RESCUE_MODEL_PATH) replay it, RESCUE_MODEL_COMMANDS runs a printed list, RESCUE_MODEL_RUNS and
 * RESCUE_MODEL_COMMANDS_PER_RUN run more and longer ones (10 of up to 12 by default), RESCUE_MODEL_TRACE=1
 * prints what every command did.
 */
import { describe, expect, it } from 'vitest'
import { natsServerAvailable } from '../../support/nats-server'
import { describeFailure, runRescueModel, type ModelCommand } from '../../support/rescue-model'

const RUNS = Number(process.env.RESCUE_MODEL_RUNS ?? 10)
const MAX_COMMANDS = Number(process.env.RESCUE_MODEL_COMMANDS_PER_RUN ?? 12)
const SEED = process.env.RESCUE_MODEL_SEED
const PATH = process.env.RESCUE_MODEL_PATH
const COMMANDS = process.env.RESCUE_MODEL_COMMANDS

describe.runIf(natsServerAvailable())(`the store's promises: ${RUNS} generated runs`, () => {
  it(
    'no payment charged twice or against what the cashier saw, every stored payment charged, nothing left after a rescue, nothing published after a fence',
    async () => {
      const summary = await runRescueModel({
        runs: RUNS,
        maxCommands: MAX_COMMANDS,
        ...(SEED ? { seed: Number(SEED) } : {}),
        ...(PATH ? { path: PATH } : {}),
        ...(COMMANDS ? { commands: JSON.parse(COMMANDS) as ModelCommand[] } : {}),
        log: (line) => console.log(line),
        trace: process.env.RESCUE_MODEL_TRACE === '1',
      })
      const { failure, ...totals } = summary
      console.log(`rescue model: ${JSON.stringify(totals)}`)
      expect(failure, describeFailure(summary)).toBeUndefined()
      expect(summary.runs).toBe(COMMANDS ? 1 : RUNS)
    },
    120_000 + RUNS * 60_000,
  )
})
