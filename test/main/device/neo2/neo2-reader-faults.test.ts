import { afterEach, describe, expect, it } from 'vitest'
import type { ReaderLog } from '../../../../src-main/device/neo2'
import { TEST_CARDS } from '../../../../src-main/training/pinpad'
import type { MockRig } from './reader-harness'
import { mockRig, sale } from './reader-harness'

let rig: MockRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const count = (r: MockRig, command: number, subCommand: number) =>
  r.sim.emulator.received.filter((c) => c.command === command && c.subCommand === subCommand).length

/** A logger that keeps every line, to prove no card data reaches the log. */
function recordingLog(): ReaderLog & { lines: string[] } {
  const lines: string[] = []
  const keep = (fields: object, message: string) => void lines.push(`${message} ${JSON.stringify(fields)}`)
  return { lines, debug: keep, info: keep, warn: keep }
}

describe('device faults the driver survives', () => {
  it('resends a command the reader saw with a CRC error (status 04)', async () => {
    rig = await mockRig()
    rig.sim.fault({ kind: 'crcStatus' }, 1)
    rig.sim.present('swipe-magstripe')
    expect((await rig.reader.readCard(sale())).kind).toBe('card')
    expect(count(rig, 0x02, 0x40)).toBe(2)
  })

  it.each([
    ['garbage before every answer', { kind: 'garbage' as const, bytes: 11 }],
    ['answers split in 2-byte pieces', { kind: 'split' as const, chunkBytes: 2, gapMs: 1 }],
    ['slow answers', { kind: 'slow' as const, ms: 40 }],
  ])('completes a chip sale with %s', async (_name, fault) => {
    rig = await mockRig()
    rig.sim.fault(fault)
    rig.sim.present('chip-visa')
    const result = await rig.reader.readCard(sale())
    expect(result.kind).toBe('card')
    expect((await rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('approved')
  })

  it('ignores a corrupted UI event, but fails a read whose answer was corrupted, then cleans up', async () => {
    rig = await mockRig()
    rig.sim.fault({ kind: 'crcError' }, 2) // the 0E "card detected" event, then the 02-40 answer
    rig.sim.present('swipe-magstripe')
    expect(await rig.reader.readCard(sale())).toEqual({
      kind: 'failed',
      code: 'corruptResponse',
      message: 'Card reader communication error. Try again.',
    })
    await sleep(30)
    expect(rig.sim.emulator.received.map((c) => c.command)).toEqual([0x05, 0x02, 0x05])
    rig.sim.present('swipe-magstripe')
    expect((await rig.reader.readCard(sale())).kind).toBe('card')
  })

  it('fails a read the reader stops answering, promptly and with a typed error', async () => {
    rig = await mockRig()
    rig.sim.present('chip-visa')
    rig.sim.fault({ kind: 'silence' }, 1)
    // The 02-40 itself goes unanswered: its timeout is the card timeout (1 s) + the test margin.
    const started = Date.now()
    const result = await rig.reader.readCard(sale({ timeoutSeconds: 1 }))
    expect(result).toMatchObject({ kind: 'failed', code: 'deviceNotResponding' })
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(rig.log.events.at(-1)).toMatchObject({ type: 'error', code: 'deviceNotResponding' })
  })

  it('maps a device status to its typed error and cashier message', async () => {
    rig = await mockRig()
    rig.sim.fault({ kind: 'crcStatus' }, 2) // the resend gets 04 again: the status is the answer
    expect(await rig.reader.readCard(sale())).toEqual({
      kind: 'failed',
      code: 'crcError',
      message: 'Card reader communication error. Try again.',
    })
  })

  it('logs commands and statuses, never card data', async () => {
    const log = recordingLog()
    rig = await mockRig({}, { log })
    rig.sim.fault({ kind: 'crcError' }, 1)
    rig.sim.present('pin-tdes')
    const result = await rig.reader.readCard(sale())
    expect(result.kind).toBe('card')
    const text = log.lines.join('\n')
    expect(text).toContain('02-40')
    expect(text).not.toContain(TEST_CARDS['pin-tdes'].pan)
    expect(text).not.toMatch(/1B9C1845EB993A7A/i)
  })
})

describe('the link: unplug, replug, heartbeat, reboot', () => {
  it('fails a read at once when the cable is pulled, then reconnects, cancels and reports the interrupted sale', async () => {
    rig = await mockRig()
    const reading = rig.reader.readCard(sale())
    await rig.log.waitFor((e) => e.type === 'waitingForCard')
    const started = Date.now()
    await rig.sim.disconnect()
    expect(await reading).toMatchObject({ kind: 'failed', code: 'deviceDisconnected' })
    expect(Date.now() - started).toBeLessThan(500)
    expect(rig.reader.status()).toMatchObject({ connected: false, busy: false })
    expect(await rig.reader.readCard(sale())).toMatchObject({ kind: 'failed', code: 'deviceDisconnected' })
    const before = rig.sim.emulator.received.length
    await rig.sim.reconnect()
    await rig.log.waitFor((e) => e.type === 'interrupted')
    expect(rig.log.types()).toEqual([
      'connection:connected',
      'waitingForCard',
      'connection:disconnected',
      'connection:reconnecting',
      'connection:connected',
      'interrupted',
    ])
    expect(rig.log.events.at(-1)).toEqual({ type: 'interrupted', purpose: 'purchase' })
    expect(rig.sim.emulator.received.slice(before).map((c) => c.command)).toEqual([0x05])
    rig.sim.present('swipe-magstripe')
    expect((await rig.reader.readCard(sale())).kind).toBe('card')
  })

  it('rejects completeCard promptly when the link dropped after a chip read', async () => {
    rig = await mockRig()
    rig.sim.present('chip-visa')
    expect((await rig.reader.readCard(sale())).kind).toBe('card')
    await rig.sim.disconnect()
    await rig.log.waitFor((e) => e.type === 'connection' && e.state === 'reconnecting')
    await expect(rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).rejects.toMatchObject({
      code: 'deviceDisconnected',
    })
    await rig.sim.reconnect()
    expect(await rig.log.waitFor((e) => e.type === 'interrupted')).toEqual({ type: 'interrupted', purpose: 'purchase' })
  })

  it('declares a silent reader dead from the idle heartbeat and reconnects', async () => {
    rig = await mockRig({}, { heartbeatMs: 30 })
    await sleep(80)
    expect(count(rig, 0x18, 0x01)).toBeGreaterThan(0)
    rig.sim.fault({ kind: 'silence' }, 2) // the ping and its one resend
    await rig.log.waitFor((e) => e.type === 'connection' && e.state === 'disconnected', 3_000)
    await rig.log.waitFor((e) => e.type === 'connection' && e.state === 'connected' && rig!.log.events.indexOf(e) > 1, 3_000)
    expect(rig.log.types().filter((t) => t === 'interrupted')).toEqual([])
  })

  it('treats a boot notification during a sale as an interrupted sale', async () => {
    rig = await mockRig()
    const reading = rig.reader.readCard(sale())
    await rig.log.waitFor((e) => e.type === 'waitingForCard')
    rig.sim.emulator.reboot()
    expect(await reading).toMatchObject({
      kind: 'failed',
      code: 'deviceRestarted',
      message: 'The card reader restarted. Start the payment again.',
    })
    expect(rig.log.events).toContainEqual({ type: 'interrupted', purpose: 'purchase' })
    rig.sim.emulator.reboot() // idle: nothing to report
    await sleep(20)
    expect(rig.log.types().filter((t) => t === 'interrupted')).toHaveLength(1)
  })
})
