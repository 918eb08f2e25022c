/**
 * The NEO 2 driver against the simulated PIN pad on a socat pty pair, for the ways real firmware ends a
 * 02-40 that the happy path never shows:
 * - a chip failure whose record is `DFEE02` (ID TECH's QA scripts: `DF EE 02 04 20 90 00 03`) at the top
 *   level or inside `FFEE1F`, or the IDG's raw `FFEE1F` (docs/neo2-protocol.md §3.2, IDG p.232): each
 *   leads to the chip-to-stripe fallback (D7.19);
 * - status 80 "Cannot start Contact EMV transaction" and 81 "CTLS/MSR cancelled due to card insertion"
 *   (docs/neo2-protocol.md §9.1, SDK S2 IDTCommon.h), and A3 "card insertion" (C SDK S11 IDTDef.h):
 *   outcomes that end the wait within a second with the next step (D2.1, D7.27);
 * - every status and error code the IDG and SDK tables name (§9.1, §9.2): the sale fails with that
 *   code and its own cashier line, never as "unknown".
 * Skips with a message without socat on a developer machine; fails under CI=true.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Neo2CardReader, SerialReaderTransport } from '../../../../src-main/device/neo2'
import type { Neo2ReaderOptions } from '../../../../src-main/device/neo2'
import { describeNeo2Status } from '../../../../src-main/device/neo2/neo2-status'
import { describeNeo2TransactionError } from '../../../../src-main/device/neo2/neo2-transaction-error'
import type { ReadCardResult } from '../../../../src-main/device'
import { FAILURE_RECORD_LAYOUTS, startPtyPinpadSim, TEST_CARDS } from '../../../../src-main/training/pinpad'
import type { EmulatorOptions, PtyPinpadSim, SimCard, SimStep } from '../../../../src-main/training/pinpad'
import { commandAvailable, INSTALL, requireComponent } from '../../../support/system'
import { EventLog, FAST_EMULATOR, FAST_READER, sale } from './reader-harness'

const hasSocat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)
const dir = mkdtempSync(join(tmpdir(), 'pos-neo2-outcomes-'))
let serial = 0

/** A chip card whose customer does `steps` (test-cards.ts), in turn, one per 02-40. */
const scripted = (name: string, steps: SimStep[]): SimCard => ({ ...TEST_CARDS['chip-swiped'], name, steps })
const CARDS: Record<string, SimCard> = {
  'chip-error-then-swipe': scripted('chip-error-then-swipe', ['chipError', 'swipe']),
  'chip-cannot-start-then-swipe': scripted('chip-cannot-start-then-swipe', ['chipCannotStart', 'swipe']),
  'inserted-while-tapping': { ...TEST_CARDS['chip-visa'], name: 'inserted-while-tapping', steps: ['insertWhileTapping', 'chip'] },
}

interface Rig {
  sim: PtyPinpadSim
  reader: Neo2CardReader
  log: EventLog
}
const started: Rig[] = []

async function rig(emulator: EmulatorOptions = {}, options: Partial<Neo2ReaderOptions> = {}): Promise<Rig> {
  const link = join(dir, `ttyNEO2-${++serial}`)
  const sim = await startPtyPinpadSim({ ...FAST_EMULATOR, cards: CARDS, ...emulator, link })
  const log = new EventLog()
  const reader = new Neo2CardReader({ ...FAST_READER, ...options, transport: new SerialReaderTransport({ path: link }) })
  reader.onEvent(log.listener)
  const r = { sim, reader, log }
  started.push(r)
  await reader.start()
  await reader.whenConnected(5_000)
  return r
}

/** readCard and how long it took. */
async function timedRead(reader: Neo2CardReader, timeoutSeconds = 30): Promise<{ result: ReadCardResult; ms: number }> {
  const start = performance.now()
  const result = await reader.readCard(sale({ timeoutSeconds }))
  return { result, ms: performance.now() - start }
}

afterEach(async () => {
  for (const r of started.splice(0)) {
    await r.reader.close()
    await r.sim.close()
  }
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.skipIf(!hasSocat)('a chip failure, whichever way the record comes, leads to the stripe fallback', () => {
  it.each(FAILURE_RECORD_LAYOUTS)('record in %s: swipe prompt, then a fallback swipe read', async (layout) => {
    const { sim, reader, log } = await rig({ failureRecord: layout })
    sim.present('chip-error-then-swipe')
    const { result } = await timedRead(reader)
    expect(result).toMatchObject({ kind: 'card', card: { method: 'fallbackSwipe', posEntryMode: '801' } })
    expect(log.events).toContainEqual(expect.objectContaining({ type: 'waitingForCard', prompt: 'Chip read failed: swipe the card' }))
    // 02-40 on every interface, then 02-40 on the stripe only (DFEF37 01); the clean-up 05-01 may follow.
    expect(sim.emulator.received.map((c) => c.command).slice(0, 3)).toEqual([0x05, 0x02, 0x02])
  })

  it('without fallback the sale fails with the record’s own code and line', async () => {
    const { sim, reader } = await rig({ failureRecord: 'DFEE02' }, { fallbackAllowed: false })
    sim.present('chip-error-then-swipe')
    const { result } = await timedRead(reader)
    expect(result).toEqual({ kind: 'failed', code: 'cardReturnedErrorStatus', message: describeNeo2TransactionError(0x20).message })
  })
})

describe.skipIf(!hasSocat)('statuses 80, 81 and A3 end the wait with the next step', () => {
  // S11 IDTDef.h, IDG_P2_STATUS_CODE_CARD_INSERTED = 0xA3, "Error code for card insertion": read as 81.
  const ASKS_FOR_CHIP = [
    { title: '81 (tap given up for an inserted card)', status: 0x81, code: 'cancelledByCardInsertion', card: 'inserted-while-tapping' },
    { title: 'A3 (card inserted)', status: 0xa3, code: 'cardInserted', card: 'chip-visa' },
  ] as const

  it.each(ASKS_FOR_CHIP)('$title: within a second the reader is asked for the chip, which is read', async ({ status, card }) => {
    const { sim, reader, log } = await rig()
    // The simulator's 'inserted-while-tapping' card answers 81 by itself; A3 is scripted before the chip.
    if (card === 'chip-visa') sim.emulator.scriptActivation({ kind: 'status', status })
    sim.present(card)
    const reading = timedRead(reader)
    const start = performance.now()
    await log.waitFor((e) => e.type === 'insertChip', 1_000)
    expect(performance.now() - start).toBeLessThan(1_000)
    const { result } = await reading
    expect(result).toMatchObject({ kind: 'card', card: { method: 'chip' } })
    expect(log.events).toContainEqual({ type: 'insertChip', reason: 'readerAskedForChip' })
  })

  it.each(ASKS_FOR_CHIP)(
    '$title on a reader without a chip slot fails at once with "insert" advice, not after the card timeout',
    async ({ status, code }) => {
      const { sim, reader } = await rig({}, { capabilities: { contact: false, contactless: true, magstripe: true, pinPad: true } })
      sim.emulator.scriptActivation({ kind: 'status', status })
      const { result, ms } = await timedRead(reader, 60)
      expect(result).toEqual({ kind: 'failed', code, message: describeNeo2Status(status).message })
      expect(ms).toBeLessThan(1_000)
    },
  )

  it('80 (chip cannot start): fallback swipe when allowed', async () => {
    const { sim, reader } = await rig()
    sim.present('chip-cannot-start-then-swipe')
    const { result } = await timedRead(reader)
    expect(result).toMatchObject({ kind: 'card', card: { method: 'fallbackSwipe' } })
  })

  it('80 without fallback: "use another card" within a second', async () => {
    const { sim, reader } = await rig({}, { fallbackAllowed: false })
    sim.emulator.scriptActivation({ kind: 'status', status: 0x80 })
    const { result, ms } = await timedRead(reader, 60)
    expect(result).toMatchObject({ kind: 'failed', code: 'cannotStartContactEmv' })
    expect(result.kind === 'failed' && result.message).toContain('Use another card')
    expect(ms).toBeLessThan(1_000)
  })
})

/** Statuses the driver reads as something other than a failure of 02-40 (card data, timeout, UI, resend). */
const NOT_FAILURES = new Set([0x00, 0x04, 0x08, 0x0a, 0x0e, 0x23, 0x24, 0x50, 0x63, 0x80, 0x81, 0xa3])
const NAMED_STATUSES = Array.from({ length: 256 }, (_, s) => describeNeo2Status(s)).filter(
  (info) => info.code !== 'unknownStatus' && !NOT_FAILURES.has(info.status),
)
/** Error codes that lead on to another 02-40 (go to contact) or are not failures (23). */
const NOT_FINAL_ERRORS = new Set([0x02, 0x05, 0x23])
const NAMED_ERRORS = Array.from({ length: 256 }, (_, c) => describeNeo2TransactionError(c)).filter(
  (info) => info.code !== 'unknownTransactionError' && !NOT_FINAL_ERRORS.has(info.errorCode),
)

describe.skipIf(!hasSocat)('every named code reaches the cashier as its own line', () => {
  it(`each of the ${NAMED_STATUSES.length} named failure statuses ends 02-40 at once with its code and words`, async () => {
    const { sim, reader } = await rig()
    for (const info of NAMED_STATUSES) {
      sim.emulator.scriptActivation({ kind: 'status', status: info.status })
      const { result, ms } = await timedRead(reader, 60)
      expect({ status: info.status, result }).toEqual({
        status: info.status,
        result: { kind: 'failed', code: info.code, message: info.message },
      })
      expect(ms).toBeLessThan(1_000)
    }
  })

  it(`each of the ${NAMED_ERRORS.length} named error codes, in each record layout, fails the sale with its code and words`, async () => {
    const { sim, reader } = await rig()
    for (const info of NAMED_ERRORS) {
      const layout = FAILURE_RECORD_LAYOUTS[info.errorCode % FAILURE_RECORD_LAYOUTS.length]
      // Contactless attribution (01): no chip fallback, the record itself is the outcome.
      sim.emulator.scriptActivation({ kind: 'failure', attribution: 0x01, errorCode: info.errorCode, ...(layout ? { layout } : {}) })
      const { result } = await timedRead(reader, 60)
      expect({ errorCode: info.errorCode, result }).toEqual({
        errorCode: info.errorCode,
        result: { kind: 'failed', code: info.code, message: info.message },
      })
    }
  })

  // 31 and 57: no public table names them as a status byte (docs/neo2-protocol.md §9.1).
  it.each(['31', '57'])('an unnamed status (%s) ends 02-40 at once with the safe "call support" line', async (byte) => {
    const { sim, reader } = await rig()
    const status = Number.parseInt(byte, 16)
    sim.emulator.scriptActivation({ kind: 'status', status })
    const { result, ms } = await timedRead(reader, 60)
    expect(result).toEqual({ kind: 'failed', code: 'unknownStatus', message: describeNeo2Status(status).message })
    expect(result.kind === 'failed' && result.message).toContain('Call support')
    expect(ms).toBeLessThan(1_000)
  })

  it('a record saying "go to contact" (02) asks for the chip and reads it', async () => {
    const { sim, reader, log } = await rig()
    sim.emulator.scriptActivation({ kind: 'failure', attribution: 0x01, errorCode: 0x02, layout: 'DFEE02' })
    sim.present('chip-visa')
    const { result } = await timedRead(reader)
    expect(result).toMatchObject({ kind: 'card', card: { method: 'chip' } })
    expect(log.types()).toContain('insertChip')
  })
})
