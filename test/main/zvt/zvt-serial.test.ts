/**
 * ZVT on a serial line: a register on one end of a socat pseudo-terminal pair, the agent's ZVT
 * terminal on the other, speaking framed APDUs (DLE STX … DLE ETX, CRC-16 low byte first) with the
 * line's ACK and NAK. A payment goes through; a frame whose CRC is wrong is answered NAK and starts
 * nothing; a frame of the terminal's that the register NAKs comes again. Every APDU the frames
 * carried (each once, as delivered) is then read by Wireshark's ZVT dissector, as over TCP.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SerialPort } from 'serialport'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultReaderFactory, openRuntime, startAgent, type RunningAgent, type Runtime } from '../../../src-main/app'
import { createPtyPair, type PtyPair } from '../../../src-main/training/pinpad'
import {
  ACK,
  apdu,
  controlOf,
  decodeApdu,
  encodeAmount,
  encodeApdu,
  encodeBcd,
  encodeBmps,
  frameApdu,
  NAK,
  SerialFrameReader,
  startZvtSerial,
  ZvtTerminal,
  type Apdu,
  type ZvtSerial,
} from '../../../src-main/zvt'
import { commandAvailable, INSTALL, requireComponent } from '../../support/system'
import { writeTcpPcap, type Chunk } from './support/pcap-writer'
import { dissect, tsharkPresent } from './support/tshark'

const socat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)

let dir: string
let runtime: Runtime
let agent: RunningAgent
let pair: PtyPair
let serial: ZvtSerial
let register: SerialPort
const reader = new SerialFrameReader()
const received: Apdu[] = []
const lineAnswers: string[] = []
/** How the register answers the terminal's next frame on the line (then ACK again). */
let answerNextFrame: number | undefined
/** The APDUs the line delivered, each once and in order, for the dissector. */
const delivered: Chunk[] = []

/** The register sends an APDU in its frame. */
function sendApdu(bytes: Uint8Array): void {
  delivered.push({ from: 'register', bytes })
  register.write(Buffer.from(frameApdu(bytes)))
}

const OWED = new Set([0x04ff, 0x040f, 0x060f, 0x061e])

beforeAll(async () => {
  if (!socat) return
  dir = mkdtempSync(join(tmpdir(), 'pos-agent-zvt-serial-'))
  runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  agent = await startAgent(runtime, defaultReaderFactory)
  pair = await createPtyPair()
  const terminal = new ZvtTerminal({
    service: agent.service,
    password: '123456',
    grant: { id: 'zvt', name: 'ZVT registers', scopes: ['read', 'sell'] },
    terminalId: agent.config.merchant.terminalId,
    merchantId: agent.config.merchant.merchantId,
    currency: 'USD',
    training: true,
    version: 'test',
    logger: runtime.logger,
  })
  serial = await startZvtSerial({ terminal, path: pair.hostPath })
  register = new SerialPort({ path: pair.devicePath, baudRate: 9_600, stopBits: 2, autoOpen: false })
  await new Promise<void>((resolve, reject) => register.open((error) => (error ? reject(error) : resolve())))
  register.on('data', (chunk: Buffer) => {
    for (const event of reader.push(chunk)) {
      if (event.kind === 'ack' || event.kind === 'nak') lineAnswers.push(event.kind)
      if (event.kind !== 'apdu') continue
      if (answerNextFrame !== undefined) {
        register.write(Buffer.from([answerNextFrame]))
        answerNextFrame = undefined
        continue
      }
      register.write(Buffer.from([ACK]))
      delivered.push({ from: 'terminal', bytes: event.apdu })
      const message = decodeApdu(event.apdu)
      if (!message.ok) continue
      received.push(message.value)
      if (OWED.has(controlOf(message.value))) sendApdu(encodeApdu(apdu(0x80, 0x00)))
    }
  })
}, 60_000)

afterAll(async () => {
  if (register?.isOpen) await new Promise<void>((resolve) => register.close(() => resolve()))
  await serial?.close()
  await pair?.close()
  await agent?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end)
      throw new Error(`not in time; received ${received.map((m) => Buffer.from(encodeApdu(m)).toString('hex')).join(' ')}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.runIf(socat)('a register over ZVT on a serial line (socat pty)', () => {
  it('pays: each frame answered ACK on the line, 80 00 00, 04 0F approved, 06 0F', async () => {
    const authorization = encodeApdu(
      apdu(
        0x06,
        0x01,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(1610) },
          { bmp: 0x49, value: encodeBcd(840, 2) },
        ]),
      ),
    )
    sendApdu(authorization)
    await until(() => received.some((m) => controlOf(m) === 0x060f))
    expect(lineAnswers[0]).toBe('ack')
    const controls = received.map((m) => controlOf(m).toString(16))
    expect(controls[0]).toBe('8000')
    expect(controls.slice(-2)).toEqual(['40f', '60f'])
    const status = received.find((m) => controlOf(m) === 0x040f)!
    expect(status.data.subarray(0, 2)).toEqual(Uint8Array.from([0x27, 0x00]))
  }, 60_000)

  it('answers a frame with a wrong CRC NAK, and starts nothing', async () => {
    const before = received.length
    const answers = lineAnswers.length
    const frame = frameApdu(encodeApdu(apdu(0x05, 0x01)))
    frame[frame.length - 1]! ^= 0x55
    register.write(Buffer.from(frame))
    await until(() => lineAnswers.length > answers)
    expect(lineAnswers.at(-1)).toBe('nak')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(received.length).toBe(before)
  })

  it('sends a frame again when the register NAKs it', async () => {
    const before = received.length
    answerNextFrame = NAK
    sendApdu(encodeApdu(apdu(0x05, 0x01)))
    // The first 80 00 00 was NAKed by the register: it comes again, then the 06 0F.
    await until(() => received.slice(before).some((m) => controlOf(m) === 0x060f))
    expect(received.slice(before).map((m) => controlOf(m).toString(16))).toEqual(['8000', '60f'])
  })

  it("Wireshark's ZVT dissector reads every APDU the frames carried, without a fault", (context) => {
    if (!tsharkPresent()) return context.skip()
    const file = join(dir, 'zvt-serial.pcap')
    // The APDUs unframed, as a TCP conversation: the dissector reads APDUs, whatever carried them.
    writeTcpPcap(file, delivered, { register: 40_001, terminal: 20_007 })
    const { apdus, problems, registerProblems } = dissect(file, 20_007)
    expect(problems).toEqual([])
    expect(registerProblems).toEqual([])
    const fromTerminal = apdus.filter((one) => one.fromTerminal).map((one) => one.control)
    // The dissector knows no 05 01 of the register's; each of the terminal's messages it reads.
    expect(fromTerminal).toHaveLength(delivered.filter((chunk) => chunk.from === 'terminal').length)
    expect(fromTerminal).toEqual(expect.arrayContaining(['0x040f', '0x060f', '0x8000']))
    const status = apdus.find((one) => one.control === '0x040f')
    expect(status?.fields).toMatchObject({ 'zvt.result_code': '0x00', 'zvt.amount': '1610' })
  })
})
