/**
 * A register speaking ZVT to a whole training agent over a real TCP socket on 127.0.0.1: registration,
 * payments approved and declined, the status information repeated on `84 9C` from a new connection,
 * a reversal by receipt number (and the same reversal again), a refund, the status enquiry, and what
 * is refused. Every byte of the conversation is then written to a pcap and read by Wireshark's ZVT
 * dissector (`tshark -d tcp.port==PORT,zvt`): a malformed packet or an expert finding fails the run.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  defaultReaderFactory,
  openRuntime,
  startAgent,
  startZvtEndpoint,
  ZVT_PASSWORD_ACCOUNT,
  type RunningAgent,
  type Runtime,
  type ZvtEndpoint,
} from '../../../src-main/app'
import {
  apdu,
  controlOf,
  decodeBcd,
  decodeIndividualTotals,
  encodeAmount,
  encodeBcd,
  encodeBmps,
  findBmp,
  findTlv,
  startZvtServer,
  TOTAL_GROUPS,
  totalGroupOf,
  ZvtTerminal,
  type Apdu,
  type ZvtServer,
} from '../../../src-main/zvt'
import { decodeBody } from '../../../src-main/zvt/zvt-body'
import type { DayReportView, SaleView } from '../../../src-shared/contract'
import { OWNER_POS } from '../../support/service-harness'
import { writeTcpPcap, type Chunk } from './support/pcap-writer'
import { dissect, tsharkPresent } from './support/tshark'
import { show, ZvtRegister } from './support/zvt-register'

let dir: string
let runtime: Runtime
let agent: RunningAgent
let zvt: ZvtEndpoint
let password: string
/** Every conversation of the run, one pcap each, read by tshark at the end. */
const conversations: { chunks: Chunk[]; register: number; terminal: number }[] = []

const USD = encodeBcd(840, 2)

async function register(port = zvt.port): Promise<ZvtRegister> {
  const chunks: Chunk[] = []
  const connected = await ZvtRegister.open(port, chunks)
  conversations.push({ chunks, register: connected.localPort, terminal: port })
  return connected
}

const pw = (): Uint8Array => encodeBcd(password, 3)
const authorization = (minor: number): Apdu =>
  apdu(
    0x06,
    0x01,
    encodeBmps([
      { bmp: 0x04, value: encodeAmount(minor) },
      { bmp: 0x49, value: USD },
    ]),
  )
const controls = (got: Apdu[]): string[] => got.map((message) => controlOf(message).toString(16).padStart(4, '0'))

function fieldsOf(message: Apdu | undefined): ReturnType<typeof decodeBody> & { ok: true } {
  if (message === undefined) throw new Error('no message')
  const body = decodeBody(message)
  if (!body.ok) throw new Error('the terminal sent a body that does not parse')
  return body
}

const bcd = (value: Uint8Array | undefined): string => {
  const digits = value ? decodeBcd(value, 'field') : undefined
  return digits?.ok ? digits.value : ''
}

async function sales(): Promise<SaleView[]> {
  const result = await agent.service.dispatch(OWNER_POS, 'listSales', {})
  if (!result.ok) throw new Error(result.error.message)
  return result.value as SaleView[]
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pos-agent-zvt-'))
  runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  agent = await startAgent(runtime, defaultReaderFactory)
  zvt = await startZvtEndpoint(runtime, agent, { port: 0 })
  // The password this start made, or the one it found in the keychain (another test file may have made it).
  password = zvt.newPassword ?? (await runtime.secrets.get(ZVT_PASSWORD_ACCOUNT))!
}, 60_000)

afterAll(async () => {
  await zvt?.close()
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a register over ZVT (TCP)', () => {
  let receipt = ''
  let firstStatus = ''

  it('keeps a six-digit password in the keychain; Registration with it is completed, a wrong one refused', async () => {
    expect(password).toMatch(/^\d{6}$/)
    const ecr = await register()
    // Password, config byte 08 (the register wants intermediate statuses), currency USD.
    const got = await ecr.exchange(apdu(0x06, 0x00, [...pw(), 0x08, ...USD]))
    expect(controls(got)).toEqual(['8000', '060f'])
    expect(bcd(findBmp(fieldsOf(got[1]).value.fields, 0x49)?.value)).toBe('0840')
    const wrong = (Number(password) + 1) % 1_000_000
    const refused = await ecr.exchange(apdu(0x06, 0x00, [...encodeBcd(wrong, 3), 0x08, ...USD]))
    expect(refused.map(show)).toEqual(['848300'])
    await ecr.close()
  })

  it('pays: 80 00 00, the reader prompts as 04 FF, 04 0F with the result, amount, card and receipt number, then 06 0F', async () => {
    const ecr = await register()
    await ecr.exchange(apdu(0x06, 0x00, [...pw(), 0x08, ...USD]))
    const got = await ecr.exchange(authorization(1234))
    expect(controls(got)[0]).toBe('8000')
    expect(controls(got)).toContain('04ff')
    expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
    const status = got.find((message) => controlOf(message) === 0x040f)!
    const { fields } = fieldsOf(status).value
    expect(bcd(findBmp(fields, 0x27)?.value)).toBe('00')
    expect(bcd(findBmp(fields, 0x04)?.value)).toBe('000000001234')
    expect(Buffer.from(findBmp(fields, 0x22)!.value).toString('hex')).toMatch(/^[0-9]{6}e+[0-9]{4}f?$/)
    expect(findBmp(fields, 0x3b)).toBeDefined()
    expect([...(findTlv(findBmp(fields, 0x06)?.tlv, 0x1f11)?.value ?? [])]).toEqual([0x01])
    receipt = bcd(findBmp(fields, 0x87)?.value)
    firstStatus = show(status)
    const sale = (await sales()).find((s) => s.reference?.startsWith('zvt:') && s.reference.endsWith(`:${Number(receipt)}`))
    expect(sale).toMatchObject({ state: 'approved', amountMinor: 1234, startedBy: 'pos' })
    // The chip's sequence number (5F34) as the journal keeps it, and never the expiry date (BMP 0E).
    expect(sale?.cardSequence).toMatch(/^\d{3}$/)
    expect(bcd(findBmp(fields, 0x17)?.value)).toBe(sale!.cardSequence!.padStart(4, '0'))
    expect(findBmp(fields, 0x0e)).toBeUndefined()
    await ecr.close()
  }, 60_000)

  it.each([
    // [training card, how it is read (1F12: 00 stripe, 01 chip, 02 contactless), payment type (19), verification (1F10)]
    ['swipe-magstripe', 0x00, 0x60, undefined],
    ['contactless-mastercard', 0x02, 0x60, undefined],
    ['pin-tdes', 0x01, 0x70, 0x03],
  ] as const)(
    'pays with the %s card: 04 0F says how it was read and how the cardholder was verified',
    async (card, technology, paymentType, cvm) => {
      const presented = await agent.service.dispatch(OWNER_POS, 'presentTestCard', { name: card })
      if (!presented.ok) throw new Error(presented.error.message)
      const ecr = await register()
      const minor = { 'swipe-magstripe': 2_101, 'contactless-mastercard': 2_102, 'pin-tdes': 2_103 }[card]
      const got = await ecr.exchange(authorization(minor))
      expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
      const { fields } = fieldsOf(got.find((message) => controlOf(message) === 0x040f)).value
      expect(bcd(findBmp(fields, 0x27)?.value)).toBe('00')
      expect(bcd(findBmp(fields, 0x04)?.value)).toBe(String(minor).padStart(12, '0'))
      const tlvs = findBmp(fields, 0x06)?.tlv
      expect([...(findTlv(tlvs, 0x1f12)?.value ?? [])]).toEqual([technology])
      expect([...(findBmp(fields, 0x19)?.value ?? [])]).toEqual([paymentType])
      if (cvm !== undefined) expect([...(findTlv(tlvs, 0x1f10)?.value ?? [])]).toEqual([cvm])
      // A stripe has no card sequence number; a chip read has one.
      expect(findBmp(fields, 0x17) !== undefined).toBe(technology !== 0x00)
      const sale = (await sales()).find((s) => s.reference?.startsWith('zvt:') && s.amountMinor === minor)
      expect(sale).toMatchObject({ state: 'approved', amountMinor: minor })
      await ecr.close()
    },
    60_000,
  )

  it('a declined payment: 04 0F with result 05, then 06 1E 05, and nothing charged', async () => {
    const ecr = await register()
    const got = await ecr.exchange(authorization(1051))
    expect(controls(got).slice(-2)).toEqual(['040f', '061e'])
    expect(bcd(findBmp(fieldsOf(got.at(-2)).value.fields, 0x27)?.value)).toBe('05')
    expect(show(got.at(-1)!)).toBe('061e0105')
    const receiptNo = bcd(findBmp(fieldsOf(got.at(-2)).value.fields, 0x87)?.value)
    expect((await sales()).find((s) => s.reference?.endsWith(`:${Number(receiptNo)}`))).toMatchObject({ state: 'declined' })
    await ecr.close()
  }, 60_000)

  it('84 9C from a new connection repeats the last status information, as the journal has it', async () => {
    const before = (await sales()).length
    const ecr = await register()
    const got = await ecr.exchange(apdu(0x84, 0x9c))
    // The last ZVT sale is the declined one; its status information and Abort again, nothing charged anew.
    expect(controls(got)).toEqual(['040f', '061e'])
    expect(bcd(findBmp(fieldsOf(got[0]).value.fields, 0x04)?.value)).toBe('000000001051')
    expect((await sales()).length).toBe(before)
    await ecr.close()
  })

  it('a register that asks 84 9C for the status information gets it again on the same connection', async () => {
    const ecr = await register()
    ecr.answerNextStatus = apdu(0x84, 0x9c)
    const got = await ecr.exchange(authorization(200))
    const statuses = got.filter((message) => controlOf(message) === 0x040f).map(show)
    expect(statuses).toHaveLength(2)
    expect(statuses[0]).toBe(statuses[1])
    const { fields } = fieldsOf(got.find((message) => controlOf(message) === 0x040f)).value
    expect(bcd(findBmp(fields, 0x04)?.value)).toBe('000000000200')
    expect(bcd(findBmp(fields, 0x27)?.value)).toBe('00')
    expect(controls(got).at(-1)).toBe('060f')
    await ecr.close()
  }, 60_000)

  it('approved offline while the bank is unreachable: result 00, payment type 40, 1F11 00 (to be forwarded)', async () => {
    const host = agent.connection.trainingHost!
    // The host's own signed 503: provably nothing recorded, so the payment may be stored (docs/gateway.md).
    host.setFault('payment', 'http-503', 1)
    try {
      const ecr = await register()
      const got = await ecr.exchange(authorization(925))
      expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
      const { fields } = fieldsOf(got.at(-2)).value
      expect(bcd(findBmp(fields, 0x27)?.value)).toBe('00')
      expect([...(findBmp(fields, 0x19)?.value ?? [])]).toEqual([0x40])
      expect([...(findTlv(findBmp(fields, 0x06)?.tlv, 0x1f11)?.value ?? [])]).toEqual([0x00])
      const receiptNo = bcd(findBmp(fields, 0x87)?.value)
      expect((await sales()).find((s) => s.reference === `zvt:${Number(receiptNo)}`)).toMatchObject({ offline: true })
      await ecr.close()
    } finally {
      host.clearFaults()
    }
  }, 60_000)

  it('reverses by receipt number (06 30), and the same reversal again answers the same without a second void', async () => {
    expect(firstStatus).not.toBe('')
    const ecr = await register()
    const reversal = apdu(0x06, 0x30, [...pw(), ...encodeBmps([{ bmp: 0x87, value: encodeBcd(receipt, 2) }])])
    const got = await ecr.exchange(reversal)
    expect(controls(got)[0]).toBe('8000')
    expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
    const sale = (await sales()).find((s) => s.reference?.endsWith(`:${Number(receipt)}`))!
    expect(['cancelPending', 'cancelled']).toContain(sale.state)
    const again = await ecr.exchange(reversal)
    expect(controls(again)).toEqual(['8000', '040f', '060f'])
    expect(show(again[1]!)).toBe(show(got.at(-2)!))
    const unknown = await ecr.exchange(apdu(0x06, 0x30, [...pw(), ...encodeBmps([{ bmp: 0x87, value: encodeBcd(9876, 2) }])]))
    expect(unknown.map(show)).toEqual(['84b500'])
    await ecr.close()
  }, 60_000)

  it('a refund (06 31) needs the refund scope: refused here, credited where the terminal allows refunds', async () => {
    const ecr = await register()
    const refund = apdu(0x06, 0x31, [
      ...pw(),
      ...encodeBmps([
        { bmp: 0x04, value: encodeAmount(500) },
        { bmp: 0x49, value: USD },
      ]),
    ])
    expect((await ecr.exchange(refund)).map(show)).toEqual(['848300'])
    await ecr.close()

    const refunding = new ZvtTerminal({
      service: agent.service,
      password,
      grant: { id: 'zvt', name: 'ZVT registers', scopes: ['read', 'sell', 'refund'] },
      terminalId: agent.config.merchant.terminalId,
      merchantId: agent.config.merchant.merchantId,
      currency: 'USD',
      training: true,
      version: 'test',
      logger: runtime.logger,
    })
    const server: ZvtServer = await startZvtServer({ terminal: refunding, port: 0 })
    try {
      const other = await register(server.port)
      const got = await other.exchange(refund)
      expect(controls(got)[0]).toBe('8000')
      expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
      const credit = (await sales()).find((s) => s.kind === 'return' && s.reference?.startsWith('zvt:'))
      expect(credit).toMatchObject({ amountMinor: 500 })
      await other.close()
    } finally {
      await server.close()
    }
  }, 60_000)

  it('a register that prints receipts gets the merchant’s then the customer’s lines (06 D1) before 06 0F, again on Repeat Receipt (06 20), or as text blocks (06 D3)', async () => {
    const ecr = await register()
    // Config byte 0A: intermediate statuses (08) and the register prints the payment receipts (02).
    await ecr.exchange(apdu(0x06, 0x00, [...pw(), 0x0a, ...USD]))
    const got = await ecr.exchange(authorization(1999))
    const after = controls(got).slice(controls(got).indexOf('040f'))
    expect(after[0]).toBe('040f')
    expect(after.at(-1)).toBe('060f')
    const printed = got.filter((message) => controlOf(message) === 0x06d1)
    expect(after.slice(1, -1)).toEqual(printed.map(() => '06d1'))
    const text = printed.map((line) => Buffer.from(line.data.subarray(1)).toString('latin1'))
    // Two receipts, each ending on its own last line (attribute 80): the merchant's copy, then the customer's.
    const ends = printed.flatMap((line, index) => (line.data[0] === 0x80 ? [index] : []))
    expect(ends).toEqual([ends[0], printed.length - 1])
    expect(printed.filter((line) => line.data[0] !== 0x80).every((line) => line.data[0] === 0x00)).toBe(true)
    const merchantCopy = text.slice(0, ends[0]! + 1)
    const customerCopy = text.slice(ends[0]! + 1)
    expect(merchantCopy).toContain('MERCHANT COPY')
    expect(customerCopy).toContain('CUSTOMER COPY')
    for (const copy of [merchantCopy, customerCopy]) {
      expect(copy).toContain(`Amount${' '.repeat(40 - 'Amount'.length - '19.99 USD'.length)}19.99 USD`)
      expect(copy).toContain('APPROVED')
    }
    expect(text.every((line) => line.length <= 40 && !/\d{13,}/.test(line))).toBe(true)
    const status = show(got.find((message) => controlOf(message) === 0x040f)!)

    const before = (await sales()).length
    const repeated = await ecr.exchange(apdu(0x06, 0x20, [...pw()]))
    expect(controls(repeated)).toEqual(['8000', '040f', ...printed.map(() => '06d1'), '060f'])
    expect(show(repeated[1]!)).toBe(status)
    expect(repeated.filter((message) => controlOf(message) === 0x06d1).map(show)).toEqual(printed.map(show))
    expect((await sales()).length).toBe(before)
    const wrong = (Number(password) + 1) % 1_000_000
    expect((await ecr.exchange(apdu(0x06, 0x20, [...encodeBcd(wrong, 3)]))).map(show)).toEqual(['848300'])
    await ecr.close()

    // A register that takes text blocks (config byte 82): the same lines in two 06 D3, each TLV 25 of 1F07 and 07s.
    const blocks = await register()
    await blocks.exchange(apdu(0x06, 0x00, [...pw(), 0x82, ...USD]))
    const block = await blocks.exchange(apdu(0x06, 0x20, [...pw()]))
    expect(controls(block)).toEqual(['8000', '040f', '06d3', '06d3', '060f'])
    const texts = [block[2], block[3]].map((message) => findTlv(findBmp(fieldsOf(message).value.fields, 0x06)?.tlv, 0x25))
    const linesOf = (node: (typeof texts)[number]) =>
      node?.children?.filter((child) => child.tag === 0x07).map((child) => Buffer.from(child.value).toString('latin1'))
    expect(texts.map(linesOf)).toEqual([merchantCopy, customerCopy])
    // Receipt type 1F07: 01 the merchant's, 02 the customer's.
    expect(texts.map((node) => [...(node?.children?.find((child) => child.tag === 0x1f07)?.value ?? [])])).toEqual([[0x01], [0x02]])
    // A register that prints nothing itself (config byte 08) gets no lines.
    const plain = await register()
    await plain.exchange(apdu(0x06, 0x00, [...pw(), 0x08, ...USD]))
    expect(controls(await plain.exchange(apdu(0x06, 0x20, [...pw()])))).toEqual(['8000', '040f', '060f'])
    await blocks.close()
    await plain.close()
  }, 60_000)

  it('pre-authorises (06 22), books the total with the tip (06 24) and a later tip (06 0C), and reverses the pre-authorisation (06 25)', async () => {
    const ecr = await register()
    const preauth = await ecr.exchange(
      apdu(
        0x06,
        0x22,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(1000) },
          { bmp: 0x49, value: USD },
        ]),
      ),
    )
    expect(controls(preauth).slice(-2)).toEqual(['040f', '060f'])
    const receiptNo = bcd(findBmp(fieldsOf(preauth.at(-2)).value.fields, 0x87)?.value)
    const bookTotal = (minor: number, number = receiptNo): Apdu =>
      apdu(
        0x06,
        0x24,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(minor) },
          { bmp: 0x87, value: encodeBcd(number, 2) },
        ]),
      )
    const booked = await ecr.exchange(bookTotal(1150))
    expect(controls(booked)).toEqual(['8000', '040f', '060f'])
    expect(bcd(findBmp(fieldsOf(booked[1]).value.fields, 0x04)?.value)).toBe('000000001150')
    expect(bcd(findBmp(fieldsOf(booked[1]).value.fields, 0x87)?.value)).toBe(receiptNo)
    const sale = (): Promise<SaleView | undefined> => sales().then((all) => all.find((s) => s.reference === `zvt:${Number(receiptNo)}`))
    expect(await sale()).toMatchObject({ amountMinor: 1000, tipMinor: 150 })
    // Book Tip: the tip alone, replacing the one before.
    const tip = await ecr.exchange(
      apdu(
        0x06,
        0x0c,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(120) },
          { bmp: 0x87, value: encodeBcd(receiptNo, 2) },
        ]),
      ),
    )
    expect(controls(tip)).toEqual(['8000', '040f', '060f'])
    expect(await sale()).toMatchObject({ tipMinor: 120 })
    // Below the authorised amount (a partial capture), or an unknown receipt: refused, nothing changed.
    expect((await ecr.exchange(bookTotal(900))).map(show)).toEqual(['848300'])
    expect((await ecr.exchange(bookTotal(1100, '9876'))).map(show)).toEqual(['848300'])
    expect(await sale()).toMatchObject({ tipMinor: 120 })
    // The pre-authorisation reversed (password and receipt number, as 06 30).
    const reversed = await ecr.exchange(apdu(0x06, 0x25, [...pw(), ...encodeBmps([{ bmp: 0x87, value: encodeBcd(receiptNo, 2) }])]))
    expect(controls(reversed).slice(-2)).toEqual(['040f', '060f'])
    expect(['cancelPending', 'cancelled']).toContain((await sale())?.state)
    expect((await ecr.exchange(bookTotal(1200))).map(show)).toEqual(['848300'])
    await ecr.close()
  }, 60_000)

  it('a payment approved offline and declined by the bank when forwarded reaches the next status enquiry (05 01) as result 05, once', async () => {
    const host = agent.connection.trainingHost!
    const ecr = await register()
    host.setFault('payment', 'http-503', 1)
    let receiptNo = ''
    try {
      // 10.51: the amount the training bank declines; the card approves it offline while the bank is away.
      const got = await ecr.exchange(authorization(1051))
      expect(controls(got).slice(-2)).toEqual(['040f', '060f'])
      receiptNo = bcd(findBmp(fieldsOf(got.at(-2)).value.fields, 0x87)?.value)
    } finally {
      host.clearFaults()
    }
    const stored = (): Promise<SaleView | undefined> => sales().then((all) => all.find((s) => s.reference === `zvt:${Number(receiptNo)}`))
    expect(await stored()).toMatchObject({ offline: true })
    expect(controls(await ecr.exchange(apdu(0x06, 0x51)))).toEqual(['8000', '060f'])
    for (let tries = 0; tries < 100 && (await stored())?.state !== 'needsAttention'; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await stored()).toMatchObject({ state: 'needsAttention' })
    const enquiry = await ecr.exchange(apdu(0x05, 0x01, [...pw()]))
    expect(controls(enquiry)).toEqual(['8000', '040f', '060f'])
    const { fields } = fieldsOf(enquiry[1]).value
    expect(bcd(findBmp(fields, 0x27)?.value)).toBe('05')
    expect(bcd(findBmp(fields, 0x87)?.value)).toBe(receiptNo)
    expect(bcd(findBmp(fields, 0x04)?.value)).toBe('000000001051')
    // Told once: the next enquiry is the plain answer.
    expect(controls(await ecr.exchange(apdu(0x05, 0x01, [...pw()])))).toEqual(['8000', '060f'])
    await ecr.close()
    // The manager takes note (the day cannot close before): the loss stays in the journal.
    const noted = await agent.service.dispatch(OWNER_POS, 'acknowledgeAttention', { id: (await stored())!.id })
    expect(noted.ok).toBe(true)
  }, 60_000)

  it('answers the status enquiry (05 01), and refuses what it does not do or cannot read', async () => {
    const ecr = await register()
    const status = await ecr.exchange(apdu(0x05, 0x01, [...pw()]))
    expect(controls(status)).toEqual(['8000', '060f'])
    expect(Buffer.from(fieldsOf(status[1]).value.version!).toString()).toMatch(/^pos-agent /)
    expect((await ecr.exchange(apdu(0x06, 0x93, [...pw()]))).map(show)).toEqual(['848300'])
    // An Authorization whose amount is cut short: a parsing error, answered 84 9A.
    expect((await ecr.exchange(Uint8Array.from([0x06, 0x01, 0x03, 0x04, 0x00, 0x00]))).map(show)).toEqual(['849a00'])
    expect((await ecr.exchange(apdu(0x06, 0xb0, []))).map(show)).toEqual(['848300'])
    expect((await ecr.exchange(apdu(0x06, 0x02, []), (got) => got.length > 0)).map(show)).toEqual(['800000'])
    await ecr.close()
  })

  it('a register that leaves mid-payment finds the outcome with 84 9C on a new connection, charged once', async () => {
    const before = (await sales()).length
    const leaving = await register()
    leaving.send(authorization(777))
    await leaving.waitFor(() => leaving.received.length > 0)
    await leaving.close()
    // The payment goes on at the terminal without the register; it asks once it is back.
    const back = await register()
    await back.waitFor(() => false, 0).catch(() => undefined)
    let got: Apdu[] = []
    for (let tries = 0; tries < 100; tries++) {
      got = await back.exchange(apdu(0x84, 0x9c))
      if (got[0] && controlOf(got[0]) === 0x040f && bcd(findBmp(fieldsOf(got[0]).value.fields, 0x04)?.value) === '000000000777') break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(controls(got)).toEqual(['040f', '060f'])
    expect(bcd(findBmp(fieldsOf(got[0]).value.fields, 0x27)?.value)).toBe('00')
    const after = await sales()
    expect(after.length).toBe(before + 1)
    expect(after.filter((s) => s.amountMinor === 777)).toHaveLength(1)
    await back.close()
  }, 60_000)

  it('after the agent restarts, 84 9C sends the same status information of the last payment, byte for byte', async () => {
    const ecr = await register()
    const paid = await ecr.exchange(authorization(4321))
    const status = show(paid.find((message) => controlOf(message) === 0x040f)!)
    await ecr.close()
    await zvt.close()
    await agent.close()
    agent = await startAgent(runtime, defaultReaderFactory)
    zvt = await startZvtEndpoint(runtime, agent, { port: 0 })
    const again = await register()
    const got = await again.exchange(apdu(0x84, 0x9c))
    expect(controls(got)).toEqual(['040f', '060f'])
    expect(show(got[0]!)).toBe(status)
    await again.close()
  }, 60_000)

  it('forwards stored payments (06 51), sends the turnover totals (06 10) and closes the day (06 50) with the grand total; a wrong password closes nothing', async () => {
    const ecr = await register()
    expect(controls(await ecr.exchange(apdu(0x06, 0x51)))).toEqual(['8000', '060f'])
    const wrong = (Number(password) + 1) % 1_000_000
    expect((await ecr.exchange(apdu(0x06, 0x50, [...encodeBcd(wrong, 3)]))).map(show)).toEqual(['848300'])
    const open = await agent.service.dispatch(OWNER_POS, 'dayReport', {})
    if (!open.ok) throw new Error(open.error.message)
    const batch = (open.value as { batch: { number: number } }).batch.number
    // The turnover totals first: the same grand total, nothing closed.
    const totals = await ecr.exchange(apdu(0x06, 0x10, [...pw()]))
    expect(controls(totals)).toEqual(['8000', '040f', '060f'])
    const totalsAmount = bcd(findBmp(fieldsOf(totals[1]).value.fields, 0x04)?.value)
    const got = await ecr.exchange(apdu(0x06, 0x50, [...pw()]))
    expect(controls(got)).toEqual(['8000', '040f', '060f'])
    const { fields } = fieldsOf(got[1]).value
    expect(bcd(findBmp(fields, 0x27)?.value)).toBe('00')
    const closed = await agent.service.dispatch(OWNER_POS, 'dayReport', { batch })
    if (!closed.ok) throw new Error(closed.error.message)
    const report = closed.value as DayReportView
    expect(report.batch.closedAt).toBeDefined()
    expect(bcd(findBmp(fields, 0x04)?.value)).toBe(String(report.grandTotalMinor.USD).padStart(12, '0'))
    expect(totalsAmount).toBe(String(report.grandTotalMinor.USD).padStart(12, '0'))
    // BMP 60: the payments by card group, and the first and last receipt numbers of the register's payments.
    const individual = decodeIndividualTotals(findBmp(fields, 0x60)!.value)
    if (!individual.ok) throw new Error('BMP 60 does not decode')
    const usd = report.totals.filter((row) => row.currency === 'USD')
    const byGroup = (group: string) => usd.filter((row) => totalGroupOf(row.brand) === group)
    for (const group of TOTAL_GROUPS)
      expect({ group, ...individual.value.groups[group] }).toEqual({
        group,
        count: byGroup(group).reduce((sum, row) => sum + row.count, 0),
        turnoverMinor: byGroup(group).reduce((sum, row) => sum + row.amountMinor + row.tipMinor, 0),
      })
    expect(usd.reduce((sum, row) => sum + row.count, 0)).toBeGreaterThan(0)
    const receipts = report.sales.flatMap((sale) => (sale.reference?.startsWith('zvt:') ? [Number(sale.reference.slice(4))] : []))
    expect(individual.value.receiptStart).toBe(Math.min(...receipts))
    expect(individual.value.receiptEnd).toBe(Math.max(...receipts))
    expect(findBmp(fieldsOf(totals[1]).value.fields, 0x60)?.value).toEqual(findBmp(fields, 0x60)?.value)
    await ecr.close()
  }, 60_000)

  it("Wireshark's ZVT dissector reads every message of every conversation without a fault", (context) => {
    if (!tsharkPresent()) return context.skip()
    let checked = 0
    const registerProblems: string[] = []
    const statuses: Record<string, string>[] = []
    const controlsRead = new Set<string>()
    conversations.forEach((conversation, index) => {
      const file = join(process.env.ZVT_PCAP_DIR ?? dir, `zvt-${index}.pcap`)
      writeTcpPcap(file, conversation.chunks, conversation)
      const dissection = dissect(file, conversation.terminal)
      const { apdus, problems } = dissection
      expect({ conversation: index, problems }).toEqual({ conversation: index, problems: [] })
      registerProblems.push(...dissection.registerProblems)
      // Each APDU the agent sent is one the dissector found and read (the dissector knows no 05 01 or
      // 06 B0, so a register's status enquiry and abort are not counted on its side).
      const sent = conversation.chunks
        .filter((chunk) => chunk.from === 'terminal')
        .reduce((count, chunk) => count + apduCount(chunk.bytes), 0)
      const read = apdus.filter((one) => one.fromTerminal)
      expect(`${index}: ${read.length}`).toBe(`${index}: ${sent}`)
      checked += read.length
      statuses.push(...read.filter((one) => one.control === '0x040f').map((one) => one.fields))
      for (const one of read) controlsRead.add(one.control)
    })
    // The receipt's print lines and text block are among what the dissector read.
    expect([...controlsRead]).toEqual(expect.arrayContaining(['0x06d1', '0x06d3']))
    expect(checked).toBeGreaterThan(30)
    // The dissector's own reading of the approval: result, amount, currency.
    expect(statuses).toContainEqual(expect.objectContaining({ 'zvt.result_code': '0x00', 'zvt.amount': '1234', 'zvt.cc': '0x0840' }))
    // The check can fail: the register's deliberately short Authorization is one the dissector faults too.
    expect(registerProblems).toContain('frame 9: The APDU length is too short. The minimum length is 7')
  })
})

/** APDUs in bytes that hold whole ones. */
function apduCount(bytes: Uint8Array): number {
  let count = 0
  for (let at = 0; at + 3 <= bytes.length; count++)
    at += bytes[at + 2] === 0xff ? 5 + (bytes[at + 3]! | (bytes[at + 4]! << 8)) : 3 + bytes[at + 2]!
  return count
}
