/**
 * The simulated PIN pad itself: strict command framing, its answers to commands out of place, the
 * training-mode default card, the socat pty pair helper and the `pinpad-sim` command.
 */
import { spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { encodeNeo2Frame, Neo2CardReader, Neo2Framer, SerialReaderTransport } from '../../../../src-main/device/neo2'
import type { Neo2ReceivedFrame, Neo2ResponseFrame } from '../../../../src-main/device/neo2'
import { createPtyPair, Neo2Emulator, PtyPairError } from '../../../../src-main/training/pinpad'
import { parseTransactionData } from '../../../../src-main/device/neo2/neo2-responses'
import { findTlv } from '../../../../src-main/device/card-data'
import { commandAvailable, INSTALL, requireComponent } from '../../../support/system'
import { FAST_READER, sale } from './reader-harness'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const EXPIRED_PAN = '4012888888881881'

/** An emulator on a bare wire: commands in, decoded answers out. */
function bench(options: ConstructorParameters<typeof Neo2Emulator>[0] = {}) {
  const emulator = new Neo2Emulator({ cardReadMs: 1, pinEntryMs: 20, ...options })
  const answers: Neo2ResponseFrame[] = []
  const framer = new Neo2Framer({ reads: 'response', acceptSwappedCrc: false })
  framer.on('data', (frame: Neo2ReceivedFrame) => {
    if (frame.kind === 'response') answers.push(frame)
  })
  emulator.attach((bytes) => framer.write(bytes))
  const send = (command: number, subCommand: number, data = Buffer.alloc(0)) =>
    emulator.receive(encodeNeo2Frame({ kind: 'command', command, subCommand, data }))
  const seen = () => answers.map((a) => `${a.command.toString(16)}:${a.status.toString(16)}`)
  return { emulator, answers, send, seen }
}

describe('Neo2Emulator', () => {
  it('answers ping, and ignores a command whose CRC is in the response byte order (strict, D1.2)', async () => {
    const b = bench()
    const ping = encodeNeo2Frame({ kind: 'command', command: 0x18, subCommand: 0x01, data: Buffer.alloc(0) })
    const swapped = Buffer.from(ping)
    swapped[14] = ping[15] ?? 0
    swapped[15] = ping[14] ?? 0
    b.emulator.receive(swapped)
    b.emulator.receive(ping)
    await sleep(5)
    expect(b.seen()).toEqual(['18:0'])
  })

  it('answers unknown commands 02, unknown sub-commands 03, out-of-place 60-11 0C, and only 62-00 during PIN entry', async () => {
    const b = bench()
    b.send(0x99, 0x01)
    b.send(0x18, 0x07)
    b.send(0x60, 0x11)
    b.send(0x62, 0x01, Buffer.from('01000C0409454E5445522050494E', 'hex'))
    b.send(0x18, 0x01)
    b.send(0x62, 0x00)
    await sleep(40)
    expect(b.seen()).toEqual(['99:2', '18:3', '60:c', '62:0', '18:a', '62:0', '62:a'])
    expect(b.answers.at(-1)?.data).toEqual(Buffer.from([0x02]))
  })

  it('treats any other command during 02-40 as a cancel (IDG p.208) and times out an unanswered wait with 08', async () => {
    const b = bench()
    b.send(0x02, 0x40, Buffer.from('01', 'hex'))
    b.send(0x18, 0x01)
    await sleep(5)
    expect(b.seen()).toEqual(['2:8', '18:0'])
    b.send(0x02, 0x40, Buffer.from('01', 'hex'))
    await sleep(1_100)
    expect(b.seen()).toEqual(['2:8', '18:0', '2:8'])
  })

  it('reads only the card picked last: an unread pick is replaced, never carried into a later request', async () => {
    const b = bench()
    b.emulator.present('expired')
    b.emulator.present('swipe-magstripe')
    b.send(0x02, 0x40, Buffer.from('01', 'hex'))
    await sleep(20)
    expect(b.seen()).toEqual(['2:e', '2:0'])
    const read = b.answers.at(-1)!.data.toString('latin1')
    expect(read).toContain('4111111111111111')
    expect(read).not.toContain(EXPIRED_PAN)
    // The next request finds no earlier pick waiting: it times out (08) instead of reading the expired card.
    b.send(0x02, 0x40, Buffer.from('01', 'hex'))
    await sleep(1_100)
    expect(b.seen()).toEqual(['2:e', '2:0', '2:8'])
  })

  // ID TECH's QA scripts (docs/neo2-protocol.md §3.4, S10) expect the track source as FFEE01 = DFEE30 01 xx.
  it('puts the track data source in the ViVOpay group as DFEE30, 0C for a swipe', async () => {
    const b = bench()
    b.emulator.present('swipe-magstripe')
    b.send(0x02, 0x40, Buffer.from('01', 'hex'))
    await sleep(20)
    const { tlvs } = parseTransactionData(b.answers.at(-1)?.data ?? Buffer.alloc(0))
    expect(findTlv(tlvs, 'FFEE01')?.value.toString('hex').toUpperCase()).toBe('DFEE30010C')
    expect(findTlv(tlvs, 'DF30')).toBeUndefined()
  })

  it('ends the next 02-40 with a scripted status or failure record, in each record layout (D7.25)', async () => {
    const b = bench({ failureRecord: 'DFEE02inFFEE1F' })
    b.emulator.scriptActivation({ kind: 'status', status: 0x81 })
    b.emulator.scriptActivation({ kind: 'failure', errorCode: 0x20, sw: 0x9000, rfState: 0x03, layout: 'DFEE02' })
    b.emulator.scriptActivation({ kind: 'failure', errorCode: 0x57 })
    for (let i = 0; i < 3; i++) b.send(0x02, 0x40, Buffer.from('01', 'hex'))
    await sleep(10)
    expect(b.seen()).toEqual(['2:81', '2:a', '2:a'])
    const data = b.answers.map((a) => a.data.toString('hex').toUpperCase())
    expect(data).toEqual(['', '00DFEE020420900003', '00FFEE1F08DFEE020457000000'])
  })

  it('presents its default card in training mode, and refuses unknown card names', async () => {
    const b = bench({ defaultCard: 'swipe-magstripe', autoPresentMs: 5 })
    b.send(0x02, 0x40, Buffer.from('1E', 'hex'))
    await sleep(40)
    expect(b.seen()).toEqual(['2:e', '2:0'])
    expect(() => b.emulator.present('no-such-card')).toThrow(/no test card/)
    expect(() => new Neo2Emulator({ defaultCard: 'nope' })).toThrow(RangeError)
  })

  it('waits for the card someone picks while its default card is off, however long that takes', async () => {
    const b = bench({ defaultCard: 'swipe-magstripe', autoPresentMs: 5 })
    b.emulator.autoPresent(false)
    b.send(0x02, 0x40, Buffer.from('1E', 'hex'))
    await sleep(60)
    // Twelve times the default card's delay, and nothing read: the request still waits.
    expect(b.seen()).toEqual([])
    b.emulator.present('expired')
    await sleep(40)
    expect(b.seen()).toEqual(['2:e', '2:0'])
    // Switched back on, the next request gets the default card by itself again.
    b.emulator.autoPresent(true)
    b.send(0x02, 0x40, Buffer.from('1E', 'hex'))
    await sleep(40)
    expect(b.seen()).toEqual(['2:e', '2:0', '2:e', '2:0'])
  })
})

const hasSocat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)
const dir = mkdtempSync(join(tmpdir(), 'pos-pinpad-sim-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('createPtyPair', () => {
  it('says socat is missing when it cannot be started', async () => {
    await expect(createPtyPair({ socat: join(dir, 'no-socat-here') })).rejects.toMatchObject({ code: 'socatMissing' })
    await expect(createPtyPair({ socat: join(dir, 'no-socat-here') })).rejects.toBeInstanceOf(PtyPairError)
  })

  it.skipIf(!hasSocat)('parses both pty paths, links the host end, and removes the link on close', async () => {
    const hostLink = join(dir, 'ttyHOST')
    const pair = await createPtyPair({ hostLink })
    expect(pair.hostPath).toBe(hostLink)
    expect(readlinkSync(hostLink)).toMatch(/^\/dev\/pts\/\d+$/)
    expect(pair.devicePath).toMatch(/^\/dev\/pts\/\d+$/)
    expect(existsSync(pair.devicePath)).toBe(true)
    await pair.close()
    expect(pair.exited).toBe(true)
    expect(existsSync(hostLink)).toBe(false)
  })

  it.skipIf(!hasSocat)('leaves a dangling link when killed (cable pulled), which the next pair replaces', async () => {
    const hostLink = join(dir, 'ttyPULL')
    const first = await createPtyPair({ hostLink })
    await first.kill('SIGKILL')
    expect(lstatSync(hostLink).isSymbolicLink()).toBe(true)
    const second = await createPtyPair({ hostLink })
    expect(existsSync(hostLink)).toBe(true)
    await second.close()
  })
})

describe.skipIf(!hasSocat)('pos-agent pinpad-sim', () => {
  it('prints the link path, serves a training sale with the default card, and stops on SIGTERM', async () => {
    const link = join(dir, 'ttyCLI')
    const script =
      "import { pinpadSimCommand } from './src-main/cli/commands/pinpad-sim-command.ts'; process.exit(await pinpadSimCommand({ link: process.argv[1], card: 'swipe-magstripe' }))"
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, link], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))
      expect(first).toContain(link)
      const reader = new Neo2CardReader({ ...FAST_READER, transport: new SerialReaderTransport({ path: link }) })
      await reader.start()
      await reader.whenConnected(5_000)
      const result = await reader.readCard(sale({ timeoutSeconds: 15 }))
      expect(result).toMatchObject({ kind: 'card', card: { method: 'swipe', pan: '4111111111111111' } })
      await reader.close()
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(existsSync(link)).toBe(false)
  })
})
