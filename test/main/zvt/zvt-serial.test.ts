/**
 * ZVT on a serial line: a register on one end of a socat pseudo-terminal pair, the agent's ZVT
 * terminal on the other, speaking framed APDUs (DLE STX … DLE ETX, CRC-16 low byte first) with the
 * line's ACK and NAK. A payment goes through; a frame whose CRC is wrong is answered NAK and starts
 * nothing; a frame of the terminal's that the register NAKs comes again; a register's whole day
 * (registration, each way a card is read, a reversal, a refund, a pre-authorisation booked with a
 * tip, a lost answer asked for again, the status enquiry, the end of day). Every APDU the frames
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
  decodeBcd,
  decodeIndividualTotals,
  encodeAmount,
  encodeApdu,
  encodeBcd,
  encodeBmps,
  findBmp,
  findTlv,
  frameApdu,
  NAK,
  SerialFrameReader,
  startZvtSerial,
  ZvtTerminal,
  type Apdu,
  type ZvtSerial,
} from '../../../src-main/zvt'
import { decodeBody } from '../../../src-main/zvt/zvt-body'
import type { SaleView } from '../../../src-shared/contract'
import { OWNER_POS } from '../../support/service-harness'
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
/** The terminal's last word on a command: Completion, Abort, or a refusal `84 xx`. */
const ended = (got: Apdu[]): boolean =>
  got.some((m) => [0x060f, 0x061e].includes(controlOf(m)) || (m.cls === 0x84 && controlOf(m) !== 0x849c))

beforeAll(async () => {
  if (!socat) return
  dir = mkdtempSync(join(tmpdir(), 'pos-agent-zvt-serial-'))
  runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  agent = await startAgent(runtime, defaultReaderFactory)
  pair = await createPtyPair()
  const terminal = new ZvtTerminal({
    service: agent.service,
    password: '123456',
    grant: { id: 'zvt', name: 'ZVT registers', scopes: ['read', 'sell', 'refund'] },
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

  it("a register's whole day over the line: registration, a stripe, a tap and a chip with PIN, a reversal, a refund, a pre-authorisation booked with a tip, the status asked again, the status enquiry and the end of day", async () => {
    const PASSWORD = encodeBcd('123456', 3)
    const USD = encodeBcd(840, 2)
    /** Sends one command and waits for the terminal's last word on it. */
    const exchange = async (message: Apdu, done: (got: Apdu[]) => boolean = ended): Promise<Apdu[]> => {
      const from = received.length
      sendApdu(encodeApdu(message))
      await until(() => done(received.slice(from)))
      return received.slice(from)
    }
    const controls = (got: Apdu[]): string[] => got.map((m) => controlOf(m).toString(16).padStart(4, '0'))
    const statusOf = (got: Apdu[]) => {
      const body = decodeBody(got.find((m) => controlOf(m) === 0x040f)!)
      if (!body.ok) throw new Error('a status information that does not parse')
      const digits = (tag: number): string => {
        const value = findBmp(body.value.fields, tag)?.value
        const read = value ? decodeBcd(value, 'field') : undefined
        return read?.ok ? read.value : ''
      }
      return { fields: body.value.fields, result: digits(0x27), amount: digits(0x04), receipt: digits(0x87) }
    }
    const pay = (minor: number) =>
      apdu(
        0x06,
        0x01,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(minor) },
          { bmp: 0x49, value: USD },
        ]),
      )
    const sales = async (): Promise<SaleView[]> => {
      const result = await agent.service.dispatch(OWNER_POS, 'listSales', {})
      if (!result.ok) throw new Error(result.error.message)
      return result.value as SaleView[]
    }
    const byReceipt = async (receipt: string) => (await sales()).find((sale) => sale.reference === `zvt:${Number(receipt)}`)

    expect(controls(await exchange(apdu(0x06, 0x00, [...PASSWORD, 0x08, ...USD])))).toEqual(['8000', '060f'])

    // Each way a card is read, as the customer presents it at the simulated PIN pad.
    const receipts: string[] = []
    for (const [card, minor, technology] of [
      ['swipe-magstripe', 3_101, 0x00],
      ['contactless-mastercard', 3_102, 0x02],
      ['pin-tdes', 3_103, 0x01],
    ] as const) {
      const presented = await agent.service.dispatch(OWNER_POS, 'presentTestCard', { name: card })
      if (!presented.ok) throw new Error(presented.error.message)
      const got = await exchange(pay(minor))
      expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
      const status = statusOf(got)
      expect({ card, result: status.result, amount: Number(status.amount) }).toEqual({ card, result: '00', amount: minor })
      expect([...(findTlv(findBmp(status.fields, 0x06)?.tlv, 0x1f12)?.value ?? [])]).toEqual([technology])
      receipts.push(status.receipt)
    }
    const withPin = statusOf(received.slice(received.length - 2))
    expect([...(findBmp(withPin.fields, 0x19)?.value ?? [])]).toEqual([0x70])

    // The register lost the last answer: 84 9C on its own brings the same status information again.
    const last = received.filter((m) => controlOf(m) === 0x040f).at(-1)!
    const again = await exchange(apdu(0x84, 0x9c))
    expect(encodeApdu(again.find((m) => controlOf(m) === 0x040f)!)).toEqual(encodeApdu(last))

    // The tapped payment reversed by its receipt number: the customer taps the same card again.
    const tapped = await agent.service.dispatch(OWNER_POS, 'presentTestCard', { name: 'contactless-mastercard' })
    if (!tapped.ok) throw new Error(tapped.error.message)
    const reversal = await exchange(apdu(0x06, 0x30, [...PASSWORD, ...encodeBmps([{ bmp: 0x87, value: encodeBcd(receipts[1]!, 2) }])]))
    expect(controls(reversal).slice(-2)).toEqual(['040f', '060f'])
    expect(['cancelPending', 'cancelled']).toContain((await byReceipt(receipts[1]!))?.state)

    // A refund without a sale, to the card presented.
    const refund = await exchange(
      apdu(0x06, 0x31, [
        ...PASSWORD,
        ...encodeBmps([
          { bmp: 0x04, value: encodeAmount(450) },
          { bmp: 0x49, value: USD },
        ]),
      ]),
    )
    expect(controls(refund).slice(-2)).toEqual(['040f', '060f'])
    expect(await byReceipt(statusOf(refund).receipt)).toMatchObject({ kind: 'return', amountMinor: 450 })

    // A pre-authorisation, its total booked with a tip, then a later tip.
    const preauth = await exchange(
      apdu(
        0x06,
        0x22,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(2_000) },
          { bmp: 0x49, value: USD },
        ]),
      ),
    )
    expect(controls(preauth).slice(-2)).toEqual(['040f', '060f'])
    const tab = statusOf(preauth).receipt
    const book = (instruction: number, minor: number) =>
      apdu(
        0x06,
        instruction,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(minor) },
          { bmp: 0x87, value: encodeBcd(tab, 2) },
        ]),
      )
    expect(controls(await exchange(book(0x24, 2_300)))).toEqual(['8000', '040f', '060f'])
    expect(await byReceipt(tab)).toMatchObject({ amountMinor: 2_000, tipMinor: 300 })
    expect(controls(await exchange(book(0x0c, 250)))).toEqual(['8000', '040f', '060f'])
    expect(await byReceipt(tab)).toMatchObject({ tipMinor: 250 })

    // The status enquiry, then the day closed with its totals.
    expect(controls(await exchange(apdu(0x05, 0x01)))).toEqual(['8000', '060f'])
    const closing = await exchange(apdu(0x06, 0x50, [...PASSWORD]))
    expect(controls(closing)).toEqual(['8000', '040f', '060f'])
    const totals = decodeIndividualTotals(findBmp(statusOf(closing).fields, 0x60)!.value)
    if (!totals.ok) throw new Error('BMP 60 does not decode')
    const counted = Object.values(totals.value.groups).reduce((sum, group) => sum + group.count, 0)
    expect(counted).toBeGreaterThanOrEqual(3)
    expect(totals.value.receiptEnd).toBeGreaterThanOrEqual(Number(tab))
  }, 120_000)

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
