import { afterEach, describe, expect, it } from 'vitest'
import { decodeTlv } from '../../../../src-main/device/card-data'
import type { CardData, ReadCardResult } from '../../../../src-main/device'
import { completeContact } from '../../../../src-main/device/neo2/neo2-emv-flow'
import { newSession } from '../../../../src-main/device/neo2/neo2-session'
import type { FlowContext } from '../../../../src-main/device/neo2/neo2-session'
import { TEST_CARDS } from '../../../../src-main/training/pinpad'
import { decryptPin } from './pin-check'
import type { MockRig } from './reader-harness'
import { mockRig, sale } from './reader-harness'

let rig: MockRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const sent = (r: MockRig) =>
  r.sim.emulator.received.map((c) => `${c.command.toString(16).padStart(2, '0')}-${c.subCommand.toString(16).padStart(2, '0')}`)

function card(result: ReadCardResult): CardData {
  if (result.kind !== 'card') throw new Error(`expected a card, got ${JSON.stringify(result)}`)
  return result.card
}

/** Nothing an event carries may hold the PAN, a track or a PIN block (docs/card-reader.md §1.4). */
function expectNoCardDataInEvents(r: MockRig, data: CardData): void {
  const text = JSON.stringify(r.log.events)
  expect(text).not.toContain(data.pan)
  if (data.track2) expect(text).not.toContain(data.track2)
  if (data.pin) expect(text).not.toContain(data.pin.encryptedPin)
}

describe('chip sale (02-40, 60-11, 60-12)', () => {
  it('reads the chip to its ARQC, then completes with TC', async () => {
    rig = await mockRig()
    rig.sim.present('chip-visa')
    const data = card(await rig.reader.readCard(sale()))
    expect(data).toMatchObject({
      method: 'chip',
      posEntryMode: '051',
      termReadability: '5',
      pinFlag: false,
      pan: '4761739001010010',
      expiry: '4912',
      track2: '4761739001010010=49122011000000',
      cardSequenceNum: '001',
    })
    expect(data.summary).toEqual({
      maskedPan: '476173******0010',
      brand: 'VISA',
      method: 'chip',
      applicationId: 'A0000000031010',
      applicationLabel: 'VISA CREDIT',
      expired: false,
      onlinePin: false,
    })
    const tags = decodeTlv(Buffer.from(data.icCardData ?? '', 'hex')).map((t) => t.tag)
    expect(tags).toEqual(expect.arrayContaining(['9F26', '9F27', '9F02', '5F2A', '9F34', '5F34']))
    for (const sad of ['56', '57', '5A', '5F20', '5F24', '99', '9F1F', '9F20']) expect(tags).not.toContain(sad)
    expect(rig.reader.status()).toMatchObject({ connected: true, busy: true })
    expect((await rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('approved')
    expect(rig.reader.status().busy).toBe(false)
    expect(sent(rig)).toEqual(['05-01', '02-40', '60-11', '60-12'])
    expect(rig.log.types()).toEqual([
      'connection:connected',
      'waitingForCard',
      'processing',
      'processing',
      'cardRead',
      'processing',
      'removeCard',
    ])
    expect(rig.log.events.find((e) => e.type === 'cardRead')).toEqual({ type: 'cardRead', maskedPan: '476173******0010', method: 'chip' })
    expectNoCardDataInEvents(rig, data)
  })

  it.each([
    ['chip-visa', { result: 'declined' as const, authorizationResponseCode: '05' }, 'declined'],
    ['chip-visa', { result: 'unableToGoOnline' as const, authorizationResponseCode: 'Z3' }, 'approved'],
    ['offline-decline', { result: 'unableToGoOnline' as const, authorizationResponseCode: 'Z3' }, 'declined'],
    ['aac-after-approval', { result: 'approved' as const, authorizationResponseCode: '00' }, 'declined'],
  ])('%s completed with %j gives the card decision %s', async (name, answer, decision) => {
    rig = await mockRig()
    rig.sim.present(name)
    card(await rig.reader.readCard(sale()))
    expect((await rig.reader.completeCard(answer)).decision).toBe(decision)
  })
})

/** Tag → upper-case hex value of an icCardData. */
function tagsOf(icCardData: string | undefined): Record<string, string> {
  return Object.fromEntries(decodeTlv(Buffer.from(icCardData ?? '', 'hex')).map((t) => [t.tag, t.value.toString('hex').toUpperCase()]))
}

describe('the completion data: final cryptogram and 8A (docs/card-reader.md §2.5)', () => {
  it.each([
    ['chip-visa', { result: 'approved' as const, authorizationResponseCode: '00' }, { '9F27': '40', '8A': '3030' }],
    ['aac-after-approval', { result: 'approved' as const, authorizationResponseCode: '00' }, { '9F27': '00', '8A': '3030' }],
    ['chip-visa', { result: 'declined' as const, authorizationResponseCode: '05' }, { '9F27': '00', '8A': '3035' }],
    ['chip-visa', { result: 'unableToGoOnline' as const, authorizationResponseCode: 'Z3' }, { '9F27': '40', '8A': '5933' }],
    ['offline-decline', { result: 'unableToGoOnline' as const, authorizationResponseCode: 'Z3' }, { '9F27': '00', '8A': '5A33' }],
  ])('%s completed with %j carries %j and the read’s ATC', async (name, answer, expected) => {
    rig = await mockRig()
    rig.sim.present(name)
    const read = tagsOf(card(await rig.reader.readCard(sale())).icCardData)
    const final = tagsOf((await rig.reader.completeCard(answer)).icCardData)
    expect(final).toMatchObject({ ...expected, '9F36': read['9F36'] })
    expect(Object.keys(final).sort()).toEqual(['8A', '95', '9B', '9F10', '9F26', '9F27', '9F36'])
  })

  it('a card that approved offline at 60-11 gets no 60-12: the TC came with the read, 8A is Y1', async () => {
    const ctx = {
      emit: () => undefined,
      channel: { send: () => Promise.reject(new Error('no 60-12 after an offline approval')) },
    } as unknown as FlowContext
    const session = { ...newSession('purchase'), emvOpen: true, offlineDecision: 'approved' as const }
    const completion = await completeContact(ctx, session, { result: 'unableToGoOnline', authorizationResponseCode: 'Z3' })
    expect(completion).toEqual({ decision: 'approved', icCardData: '8A025931' })
    expect(session.emvOpen).toBe(false)
  })
})

describe('contactless and swipe', () => {
  it('reads a tap in one 02-40 (status 23) and has no second dialogue', async () => {
    rig = await mockRig()
    rig.sim.present('contactless-mastercard')
    const data = card(await rig.reader.readCard(sale()))
    expect(data).toMatchObject({
      method: 'contactlessChip',
      posEntryMode: '071',
      pan: '5413330089010434',
      track2: '5413330089010434=49122011000000',
    })
    expect(data.summary).toMatchObject({ brand: 'MASTERCARD', applicationLabel: 'MASTERCARD', method: 'contactlessChip' })
    expect(data.icCardData).toMatch(/9F2701/)
    expect((await rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('none')
    expect(sent(rig)).toEqual(['05-01', '02-40'])
  })

  it('reads a magstripe-only swipe with both tracks', async () => {
    rig = await mockRig()
    rig.sim.present('swipe-magstripe')
    const data = card(await rig.reader.readCard(sale()))
    expect(data).toMatchObject({
      method: 'swipe',
      posEntryMode: '901',
      pan: '4111111111111111',
      expiry: '4912',
      track1: 'B4111111111111111^TEST/MAGSTRIPE^49121011000000',
      track2: '4111111111111111=49121011000000',
    })
    expect(data.icCardData).toBeUndefined()
    expect((await rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('none')
    expectNoCardDataInEvents(rig, data)
  })

  it('refuses a swiped chip card with insertChip, and takes the fallback swipe after the chip fails', async () => {
    rig = await mockRig()
    rig.sim.present('chip-swiped')
    const data = card(await rig.reader.readCard(sale()))
    expect(data).toMatchObject({ method: 'fallbackSwipe', posEntryMode: '801', pan: '4000056655665556' })
    const prompts = rig.log.events.flatMap((e) =>
      e.type === 'waitingForCard' || e.type === 'insertChip' ? [e.type === 'insertChip' ? `insertChip:${e.reason}` : e.prompt] : [],
    )
    expect(prompts).toEqual(['Insert, tap or swipe the card', 'insertChip:chipCard', 'Insert the chip', 'Chip read failed: swipe the card'])
    expect(sent(rig)).toEqual(['05-01', '02-40', '02-40', '02-40'])
  })

  it('fails the sale with an actionable message when the chip fails and fallback is not allowed', async () => {
    rig = await mockRig({}, { fallbackAllowed: false })
    rig.sim.present('chip-swiped')
    const result = await rig.reader.readCard(sale())
    expect(result).toEqual({ kind: 'failed', code: 'cardDidNotRespond', message: 'Card read failed. Present the card again.' })
    expect(rig.log.types()).toContain('error')
  })

  it('returns the expired card as read: the host decides', async () => {
    rig = await mockRig()
    rig.sim.present('expired')
    const data = card(await rig.reader.readCard(sale()))
    expect(data.pan).toBe('4012888888881881')
    expect(data.summary).toMatchObject({ expired: true })
  })

  it('refuses a card number that fails the Luhn check: a failed read, and no card data leaves the driver', async () => {
    rig = await mockRig()
    rig.sim.present('luhn-invalid')
    const result = await rig.reader.readCard(sale())
    expect(result).toEqual({ kind: 'failed', code: 'invalidCardNumber', message: 'The card number is not valid. Try another card.' })
    expect(rig.log.events).toContainEqual({
      type: 'error',
      code: 'invalidCardNumber',
      message: 'The card number is not valid. Try another card.',
    })
    expect(JSON.stringify(rig.log.events)).not.toContain('4111111111111112')
    expect(rig.log.types()).not.toContain('cardRead')
  })
})

describe('online PIN (62-01)', () => {
  it.each([
    ['pin-tdes', 'DUKPT-TDES-ISO0', 20, 16],
    ['pin-aes', 'DUKPT-AES-ISO4', 24, 32],
  ])('%s: a real %s PIN block that decrypts to 1234 with the test BDK', async (name, method, ksnLength, epbLength) => {
    rig = await mockRig()
    rig.sim.present(name)
    const data = card(await rig.reader.readCard(sale()))
    expect(data.pin?.pinEncryptMethod).toBe(method)
    expect(data.pin?.keySerialNumber).toHaveLength(ksnLength)
    expect(data.pin?.encryptedPin).toHaveLength(epbLength)
    expect(decryptPin(data.pin!, data.pan)).toBe('1234')
    expect(data).toMatchObject({ pinFlag: true, summary: { onlinePin: true } })
    expect(rig.log.types()).toEqual(expect.arrayContaining(['enterPin', 'pinEntered']))
    expect(sent(rig)).toEqual(['05-01', '02-40', '60-11', '62-01'])
    expectNoCardDataInEvents(rig, data)
  })

  it('gives the first TDES PIN block of the X9.24-1 A.4 vectors (PIN 1234, PAN 4012345678909)', async () => {
    rig = await mockRig()
    rig.sim.present('pin-tdes')
    expect(card(await rig.reader.readCard(sale())).pin).toEqual({
      keySerialNumber: 'FFFF9876543210E00001',
      encryptedPin: '1B9C1845EB993A7A',
      pinEncryptMethod: 'DUKPT-TDES-ISO0',
    })
  })

  it('asks a swiped card for PIN when the terminal forces online PIN', async () => {
    rig = await mockRig()
    rig.sim.present('swipe-magstripe')
    const data = card(await rig.reader.readCard(sale({ forceOnlinePin: true })))
    expect(decryptPin(data.pin!, TEST_CARDS['swipe-magstripe'].pan)).toBe('1234')
  })
})

describe('cancel, timeout, busy', () => {
  it.each(['cancelFirst', 'activateFirst', 'cancelOnly'] as const)(
    'the cashier cancels while the reader waits for a card (%s)',
    async (cancelReplies) => {
      rig = await mockRig({ cancelReplies })
      const reading = rig.reader.readCard(sale())
      await rig.log.waitFor((e) => e.type === 'waitingForCard')
      await sleep(10)
      const started = Date.now()
      await rig.reader.cancel()
      expect(await reading).toEqual({ kind: 'cancelled' })
      expect(Date.now() - started).toBeLessThan(1_000)
      rig.sim.present('swipe-magstripe')
      expect((await rig.reader.readCard(sale())).kind).toBe('card')
      expect(sent(rig)).toEqual(['05-01', '02-40', '05-01', '02-40'])
    },
  )

  it('the cashier cancels during PIN entry: 62-00, then 05-01 closes the chip transaction', async () => {
    rig = await mockRig({ pinEntryMs: 2_000 })
    rig.sim.present('pin-tdes')
    const reading = rig.reader.readCard(sale())
    await rig.log.waitFor((e) => e.type === 'enterPin')
    await rig.reader.cancel()
    expect(await reading).toEqual({ kind: 'cancelled' })
    await sleep(50)
    expect(sent(rig)).toEqual(['05-01', '02-40', '60-11', '62-01', '62-00', '05-01'])
  })

  it('cancel after a chip read closes the open transaction; cancel when idle does nothing', async () => {
    rig = await mockRig()
    await rig.reader.cancel()
    rig.sim.present('chip-visa')
    card(await rig.reader.readCard(sale()))
    await rig.reader.cancel()
    expect((await rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('none')
    expect(sent(rig)).toEqual(['05-01', '02-40', '60-11', '05-01'])
  })

  it('closes the chip transaction right after a void read: no second dialogue follows', async () => {
    rig = await mockRig()
    rig.sim.present('chip-visa')
    expect(card(await rig.reader.readCard(sale({ purpose: 'void' }))).method).toBe('chip')
    expect(rig.reader.status().busy).toBe(false)
    await sleep(30)
    expect(sent(rig)).toEqual(['05-01', '02-40', '60-11', '05-01'])
    expect((await rig.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('none')
  })

  it('gives up waiting for completeCard after the DFEF3C next-command timeout', async () => {
    rig = await mockRig({}, { nextCommandTimeoutSeconds: 0.05 })
    rig.sim.present('chip-visa')
    card(await rig.reader.readCard(sale()))
    expect(rig.reader.status().busy).toBe(true)
    await sleep(120)
    expect(rig.reader.status().busy).toBe(false)
    expect(sent(rig)).toEqual(['05-01', '02-40', '60-11', '05-01'])
  })

  it('reports no card in time as timeout (02-40 answered 08)', async () => {
    rig = await mockRig()
    expect(await rig.reader.readCard(sale({ timeoutSeconds: 1 }))).toEqual({ kind: 'timeout' })
  })

  it('refuses a second read while one runs', async () => {
    rig = await mockRig()
    const first = rig.reader.readCard(sale())
    expect(await rig.reader.readCard(sale())).toMatchObject({ kind: 'failed', code: 'deviceBusy' })
    await rig.reader.cancel()
    expect(await first).toEqual({ kind: 'cancelled' })
  })
})
