/**
 * The chaos worker's ZVT door: a ZvtTerminal on the worker's application layer, served over real TCP
 * on 127.0.0.1 as the agent serves it (src-main/app/zvt-endpoint.ts), so that a register in the parent
 * speaks to a process it can SIGKILL mid-payment. The card a payment reads is offered by the parent
 * just before it (`zvtCard`); the sales the register made are read back from the journal (`zvtSales`)
 * so the parent can judge them against what the register was told.
 */
import type { Logger } from 'pino'
import type { Engine } from '../../src-main/app/compose'
import type { AgentService } from '../../src-main/service'
import { startZvtServer, ZvtTerminal, type ZvtServer } from '../../src-main/zvt'
import type { ScriptedCardReader, Presentation } from '../fakes/scripted-card-reader'
import type { ChaosCard } from './chaos-worker'

/** The ZVT password the chaos registers use (BMP 06 00's, and the admin commands'). */
export const CHAOS_ZVT_PASSWORD = '123456'

export type ZvtCommand =
  | { op: 'zvtOpen' }
  /** Offers the next payment's card, taking back one a payment stopped before reading did not take. */
  | { op: 'zvtCard'; card: ChaosCard }
  | { op: 'zvtSales' }

/** A ZVT sale as the journal has it, for the parent's check. */
export interface ZvtSaleRow {
  id: string
  state: string
  amountMinor: number
  /** `zvt:<receipt number>`. */
  reference: string
  queued: string[]
}

export function zvtDoor(engine: Engine, service: AgentService, reader: ScriptedCardReader, logger: Logger) {
  let server: ZvtServer | undefined
  let offered: Presentation | undefined
  const terminal = new ZvtTerminal({
    service,
    password: CHAOS_ZVT_PASSWORD,
    grant: { id: 'zvt', name: 'ZVT registers', scopes: ['read', 'sell', 'refund'] },
    terminalId: '52500001',
    merchantId: 'CHAOS-M1',
    currency: 'USD',
    training: true,
    version: 'chaos',
    logger,
  })

  /** `present`: the worker's presentation of a card (a chip answers its 2nd GENERATE AC as a card does). */
  async function run(command: ZvtCommand, present: (card: ChaosCard) => Presentation): Promise<Record<string, unknown>> {
    switch (command.op) {
      case 'zvtOpen':
        server ??= await startZvtServer({ terminal, host: '127.0.0.1', port: 0 })
        return { port: server.port }
      case 'zvtCard':
        if (offered) reader.withdraw(offered)
        offered = present(command.card)
        reader.present(offered)
        return {}
      case 'zvtSales': {
        const waiting = engine.journal.outbox.waiting(Number.MAX_SAFE_INTEGER)
        const sales: ZvtSaleRow[] = engine.journal
          .salesOfOpenBatch()
          .filter((row) => row.reference?.startsWith('zvt:') === true)
          .map((row) => ({
            id: row.id,
            state: row.state,
            amountMinor: row.amountMinor,
            reference: row.reference!,
            queued: waiting.filter((item) => item.saleId === row.id).map((item) => item.operation),
          }))
        return { sales }
      }
    }
  }

  return { run, close: async () => server?.close() }
}
