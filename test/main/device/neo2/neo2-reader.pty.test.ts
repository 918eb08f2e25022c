/**
 * Integration: the NEO 2 driver with the real serialport bindings on a socat pty pair, the simulated
 * PIN pad on the other end (docs/card-reader.md §6 "Integration tests with socat"). Skips with a message
 * without socat on a developer machine; fails under CI=true.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Neo2CardReader, SerialReaderTransport } from '../../../../src-main/device/neo2'
import type { CardData, ReadCardResult } from '../../../../src-main/device'
import { decodeTlv } from '../../../../src-main/device/card-data'
import { startPtyPinpadSim } from '../../../../src-main/training/pinpad'
import type { PtyPinpadSim } from '../../../../src-main/training/pinpad'
import { commandAvailable, INSTALL, requireComponent } from '../../../support/system'
import { decryptPin } from './pin-check'
import { EventLog, FAST_EMULATOR, FAST_READER, sale } from './reader-harness'

const hasSocat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)
const dir = mkdtempSync(join(tmpdir(), 'pos-neo2-pty-'))
let serial = 0

interface PtyRig {
  sim: PtyPinpadSim
  reader: Neo2CardReader
  log: EventLog
}
const started: PtyRig[] = []
const socatPids: number[] = []

async function ptyRig(): Promise<PtyRig> {
  const link = join(dir, `ttyNEO2-${++serial}`)
  const sim = await startPtyPinpadSim({ ...FAST_EMULATOR, link })
  socatPids.push(sim.socatPid)
  const log = new EventLog()
  const reader = new Neo2CardReader({ ...FAST_READER, transport: new SerialReaderTransport({ path: link }) })
  reader.onEvent(log.listener)
  const rig = { sim, reader, log }
  started.push(rig)
  await reader.start()
  await reader.whenConnected(5_000)
  return rig
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Tag → upper-case hex value of an icCardData. */
function tagsOf(icCardData: string | undefined): Record<string, string> {
  return Object.fromEntries(decodeTlv(Buffer.from(icCardData ?? '', 'hex')).map((t) => [t.tag, t.value.toString('hex').toUpperCase()]))
}

function card(result: ReadCardResult): CardData {
  if (result.kind !== 'card') throw new Error(`expected a card, got ${JSON.stringify(result)}`)
  return result.card
}

afterEach(async () => {
  for (const rig of started.splice(0)) {
    await rig.reader.close()
    await rig.sim.close()
  }
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  // Every socat this file started is gone: no pty pair outlives its test.
  expect(socatPids.filter(alive)).toEqual([])
})

describe.skipIf(!hasSocat)('NEO 2 driver over a socat pty pair', () => {
  it('runs a full chip sale: readCard, completeCard approved, TC', async () => {
    const { sim, reader } = await ptyRig()
    sim.present('chip-visa')
    const data = card(await reader.readCard(sale()))
    expect(data).toMatchObject({ method: 'chip', posEntryMode: '051', pan: '4761739001010010', cardSequenceNum: '001' })
    expect(data.icCardData).toMatch(/9F2701/)
    expect((await reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('approved')
  })

  it('unable to go online, the card approves: its TC with the read’s ATC and 8A Y3 (EMV 4.4 Book 4 Annex A6)', async () => {
    const { sim, reader } = await ptyRig()
    sim.present('chip-visa')
    const read = tagsOf(card(await reader.readCard(sale())).icCardData)
    expect(read['9F27']).toBe('80')
    const completion = await reader.completeCard({ result: 'unableToGoOnline', authorizationResponseCode: 'Z3' })
    expect(completion.decision).toBe('approved')
    const final = tagsOf(completion.icCardData)
    expect(final).toMatchObject({ '9F27': '40', '9F36': read['9F36'], '8A': '5933', '9B': expect.any(String), '95': expect.any(String) })
    expect(final['9F26']).toMatch(/^[0-9A-F]{16}$/)
    expect(final['9F26']).not.toBe(read['9F26'])
    for (const sad of ['56', '57', '5A', '5F20', '5F24', '99', '9F1F', '9F20']) expect(final).not.toHaveProperty(sad)
  })

  it('unable to go online, the card declines: its AAC and 8A Z3', async () => {
    const { sim, reader } = await ptyRig()
    sim.present('offline-decline')
    const read = tagsOf(card(await reader.readCard(sale())).icCardData)
    const completion = await reader.completeCard({ result: 'unableToGoOnline', authorizationResponseCode: 'Z3' })
    expect(completion.decision).toBe('declined')
    expect(tagsOf(completion.icCardData)).toMatchObject({ '9F27': '00', '9F36': read['9F36'], '8A': '5A33' })
  })

  it('reads a swipe and a tap', async () => {
    const { sim, reader } = await ptyRig()
    sim.present('swipe-magstripe')
    expect(card(await reader.readCard(sale()))).toMatchObject({ method: 'swipe', track2: '4111111111111111=49121011000000' })
    sim.present('contactless-mastercard')
    expect(card(await reader.readCard(sale()))).toMatchObject({ method: 'contactlessChip', posEntryMode: '071' })
    expect((await reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('none')
  })

  it.each(['pin-tdes', 'pin-aes'])('takes an online PIN (%s) whose block decrypts with the test BDK', async (name) => {
    const { sim, reader, log } = await ptyRig()
    sim.present(name)
    const data = card(await reader.readCard(sale()))
    expect(decryptPin(data.pin!, data.pan)).toBe('1234')
    expect(log.types()).toEqual(expect.arrayContaining(['enterPin', 'pinEntered']))
  })

  it('cancels at the cashier’s request while waiting for a card', async () => {
    const { sim, reader, log } = await ptyRig()
    const reading = reader.readCard(sale())
    await log.waitFor((e) => e.type === 'waitingForCard')
    await new Promise((resolve) => setTimeout(resolve, 20))
    await reader.cancel()
    expect(await reading).toEqual({ kind: 'cancelled' })
    expect(sim.emulator.received.map((c) => c.command)).toEqual([0x05, 0x02, 0x05])
  })

  it('asks to insert a swiped chip card, then takes the fallback swipe after the chip fails', async () => {
    const { sim, reader, log } = await ptyRig()
    sim.present('chip-swiped')
    expect(card(await reader.readCard(sale()))).toMatchObject({ method: 'fallbackSwipe', posEntryMode: '801' })
    expect(log.types()).toContain('insertChip')
  })

  it('returns the card’s AAC after host approval as declined', async () => {
    const { sim, reader } = await ptyRig()
    sim.present('aac-after-approval')
    card(await reader.readCard(sale()))
    expect((await reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('declined')
  })

  it('survives the cable pulled mid-transaction: prompt failure, reconnect at the same path, cancel, interrupted', async () => {
    const { sim, reader, log } = await ptyRig()
    const reading = reader.readCard(sale())
    await log.waitFor((e) => e.type === 'waitingForCard')
    const pulled = Date.now()
    await sim.disconnect() // SIGKILL socat
    expect(await reading).toMatchObject({ kind: 'failed', code: 'deviceDisconnected' })
    expect(Date.now() - pulled).toBeLessThan(2_000)
    await log.waitFor((e) => e.type === 'connection' && e.state === 'reconnecting')
    expect(log.types().slice(-2)).toEqual(['connection:disconnected', 'connection:reconnecting'])
    const before = sim.emulator.received.length
    await sim.reconnect() // a new pty pair behind the same link path
    expect(await log.waitFor((e) => e.type === 'interrupted', 5_000)).toEqual({ type: 'interrupted', purpose: 'purchase' })
    expect(sim.emulator.received.slice(before).map((c) => c.command)).toEqual([0x05])
    expect(reader.status()).toMatchObject({ connected: true, busy: false, port: sim.hostPath })
    sim.present('chip-visa')
    expect(card(await reader.readCard(sale())).method).toBe('chip')
    expect((await reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('approved')
  })
})
