import { describe, expect, it } from 'vitest'
import { decodeNeo2Frame, silentReaderLog } from '../../../../src-main/device/neo2'
import { ReaderError } from '../../../../src-main/device/reader-error'
import type { Neo2ReceivedFrame } from '../../../../src-main/device/neo2'
import { Neo2Channel } from '../../../../src-main/device/neo2/neo2-channel'
import type { CommandRequest } from '../../../../src-main/device/neo2/neo2-channel'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A channel whose writes are recorded and whose answers the test feeds in. */
function harness(abortGraceMs = 50) {
  const sent: { command: number; subCommand: number; data: Buffer }[] = []
  const ui: number[] = []
  let boots = 0
  let failWrites: Error | undefined
  const channel = new Neo2Channel({
    write: async (bytes) => {
      if (failWrites) throw failWrites
      const frame = decodeNeo2Frame(bytes, 'command')
      if (frame.kind === 'command') sent.push({ command: frame.command, subCommand: frame.subCommand, data: frame.data })
    },
    onUiEvent: (data) => ui.push(data[0] ?? -1),
    onBoot: () => boots++,
    log: silentReaderLog,
    abortGraceMs,
  })
  const answer = (command: number, status: number, data = Buffer.alloc(0)): void =>
    channel.receive({ kind: 'response', command, status, data, crcByteOrder: 'msbFirst' } satisfies Neo2ReceivedFrame)
  return { channel, sent, ui, answer, boots: () => boots, breakWrites: (error: Error) => (failWrites = error) }
}

const req = (over: Partial<CommandRequest> = {}): CommandRequest => ({
  name: '18-01',
  command: 0x18,
  subCommand: 0x01,
  timeoutMs: 200,
  ...over,
})
const activate = (over: Partial<CommandRequest> = {}) => req({ name: '02-40', command: 0x02, subCommand: 0x40, timeoutMs: 1_000, ...over })
const cancel = () => req({ name: '05-01', command: 0x05, subCommand: 0x01, retriesOnSilence: 1 })

describe('Neo2Channel: one command outstanding', () => {
  it('sends the next command only after the first is answered, correlating by command byte', async () => {
    const h = harness()
    const first = h.channel.send(req())
    const second = h.channel.send(activate())
    await sleep(5)
    expect(h.sent.map((s) => s.command)).toEqual([0x18])
    h.answer(0x02, 0x00) // not the outstanding command: ignored
    h.answer(0x18, 0x00)
    await expect(first).resolves.toMatchObject({ command: 0x18, status: 0 })
    await sleep(5)
    expect(h.sent.map((s) => s.command)).toEqual([0x18, 0x02])
    h.answer(0x02, 0x23)
    await expect(second).resolves.toMatchObject({ status: 0x23 })
  })

  it('keeps a command outstanding through 0E and 63, passing 0E to the UI', async () => {
    const h = harness()
    const pending = h.channel.send(activate())
    await sleep(1)
    h.answer(0x02, 0x0e, Buffer.from([0x01]))
    h.answer(0x02, 0x63)
    h.answer(0x02, 0x00, Buffer.from([0x08]))
    await expect(pending).resolves.toMatchObject({ status: 0x00 })
    expect(h.ui).toEqual([0x01])
  })

  // S2 IDTCommon.h names 80 "Cannot start Contact EMV transaction" and 81 "CTLS/MSR cancelled due to
  // card insertion", S11 IDTDef.h A3 "card insertion" (docs/neo2-protocol.md §9.1): outcomes, so they
  // end the wait (D2.1).
  it.each(['80', '81', 'A3'])('ends an outstanding 02-40 at once on the final status %s', async (byte) => {
    const status = Number.parseInt(byte, 16)
    const h = harness()
    const pending = h.channel.send(activate())
    await sleep(1)
    h.answer(0x02, status)
    await expect(pending).resolves.toMatchObject({ status })
  })

  it('resends once on status 04 (our frame was corrupted), then gives the answer as it is', async () => {
    const h = harness()
    const pending = h.channel.send(activate())
    await sleep(1)
    h.answer(0x02, 0x04)
    await sleep(1)
    h.answer(0x02, 0x04)
    await expect(pending).resolves.toMatchObject({ status: 0x04 })
    expect(h.sent).toHaveLength(2)
  })

  it('resends an idempotent command after silence, but never 02-40 (docs/neo2-protocol.md §10)', async () => {
    const h = harness()
    const ping = h.channel.send(req({ timeoutMs: 30, retriesOnSilence: 1 }))
    await expect(ping).rejects.toMatchObject({ code: 'deviceNotResponding' })
    expect(h.sent).toHaveLength(2)
    const act = h.channel.send(activate({ timeoutMs: 30 }))
    await expect(act).rejects.toBeInstanceOf(ReaderError)
    expect(h.sent).toHaveLength(3)
  })

  it('fails a non-idempotent command whose answer arrived corrupted; resends an idempotent one', async () => {
    const h = harness()
    const act = h.channel.send(activate())
    await sleep(1)
    h.channel.badFrame({ reason: 'badCrc', length: 30, command: 0x02, code: 0x00 })
    await expect(act).rejects.toMatchObject({ code: 'corruptResponse' })
    const ping = h.channel.send(req({ retriesOnSilence: 1 }))
    await sleep(1)
    h.channel.badFrame({ reason: 'noise', length: 3 })
    h.channel.badFrame({ reason: 'badCrc', length: 16, command: 0x18, code: 0x0e })
    h.channel.badFrame({ reason: 'badCrc', length: 16, command: 0x18, code: 0x00 })
    await sleep(1)
    h.answer(0x18, 0x00)
    await expect(ping).resolves.toMatchObject({ status: 0 })
    expect(h.sent.filter((s) => s.command === 0x18)).toHaveLength(2)
  })
})

describe('Neo2Channel: two-stage 62-xx answers', () => {
  it('treats the first empty 62 frame as the ACK and waits for the result', async () => {
    const h = harness()
    let acks = 0
    const pin = h.channel.send(
      req({ name: '62-01', command: 0x62, subCommand: 0x01, timeoutMs: 50, secondaryResponse: { timeoutMs: 500, onAck: () => acks++ } }),
    )
    await sleep(1)
    h.answer(0x62, 0x00)
    await sleep(80) // past the ACK timeout: the second stage has its own
    expect(acks).toBe(1)
    h.answer(0x62, 0x00, Buffer.from('00', 'hex'))
    await expect(pin).resolves.toMatchObject({ data: Buffer.from('00', 'hex') })
  })

  it('sends 62-00 only after the ACK, and tells its empty reply from the 62-01 result', async () => {
    const h = harness()
    const pin = h.channel.send(
      req({ name: '62-01', command: 0x62, subCommand: 0x01, timeoutMs: 500, secondaryResponse: { timeoutMs: 500 } }),
    )
    await sleep(1)
    const stop = h.channel.interrupt(req({ name: '62-00', command: 0x62, subCommand: 0x00 }))
    await sleep(5)
    expect(h.sent.map((s) => s.subCommand)).toEqual([0x01])
    h.answer(0x62, 0x00) // ACK
    await sleep(5)
    expect(h.sent.map((s) => s.subCommand)).toEqual([0x01, 0x00])
    h.answer(0x62, 0x0a, Buffer.from([0x02])) // 62-01 result: external cancel
    h.answer(0x62, 0x00) // 62-00 reply
    await expect(pin).resolves.toMatchObject({ status: 0x0a })
    await expect(stop).resolves.toMatchObject({ status: 0x00 })
  })
})

describe('Neo2Channel: interrupts, failures, unsolicited frames', () => {
  it.each([
    ['cancel reply first', [0x05, 0x02]],
    ['activate reply first', [0x02, 0x05]],
  ])('05-01 during 02-40, %s: both settle and nothing is sent before both', async (_name, order) => {
    const h = harness()
    const act = h.channel.send(activate())
    const next = h.channel.send(req())
    await sleep(1)
    const stop = h.channel.interrupt(cancel())
    await sleep(1)
    for (const command of order) h.answer(command, command === 0x02 ? 0x0a : 0x00)
    await expect(stop).resolves.toMatchObject({ command: 0x05 })
    await expect(act).resolves.toMatchObject({ command: 0x02, status: 0x0a })
    await sleep(5)
    expect(h.sent.map((s) => s.command)).toEqual([0x02, 0x05, 0x18])
    h.answer(0x18, 0x00)
    await next
  })

  it('gives up on the interrupted command after the grace period when only the cancel answers', async () => {
    const h = harness(30)
    const act = h.channel.send(activate())
    await sleep(1)
    const stop = h.channel.interrupt(cancel())
    await sleep(1)
    h.answer(0x05, 0x00)
    await stop
    await expect(act).rejects.toMatchObject({ code: 'cancelled' })
  })

  it('abandons a queued command whose caller cancelled meanwhile', async () => {
    const h = harness()
    let cancelled = false
    const ping = h.channel.send(req())
    const act = h.channel.send(activate({ abandonIf: () => cancelled }))
    cancelled = true
    await sleep(1)
    h.answer(0x18, 0x00)
    await ping
    await expect(act).rejects.toMatchObject({ code: 'cancelled' })
    expect(h.sent.map((s) => s.command)).toEqual([0x18])
  })

  it('fails everything outstanding at once when the link drops, and write errors fail the command', async () => {
    const h = harness()
    const act = h.channel.send(activate())
    await sleep(1)
    const stop = h.channel.interrupt(cancel())
    h.channel.failAll(new ReaderError('deviceDisconnected'))
    await expect(act).rejects.toMatchObject({ code: 'deviceDisconnected' })
    await expect(stop).rejects.toMatchObject({ code: 'deviceDisconnected' })
    h.breakWrites(new ReaderError('deviceDisconnected', 'port not open'))
    await expect(h.channel.send(req())).rejects.toMatchObject({ code: 'deviceDisconnected' })
  })

  it('reports 14-01 boot frames, whatever byte 11 says, and ignores stray answers', () => {
    const h = harness()
    h.answer(0x14, 0x01, Buffer.from('NEO 2 SIM 1.00'))
    h.answer(0x02, 0x00)
    expect(h.boots()).toBe(1)
    expect(h.channel.outstanding).toBeUndefined()
  })
})
