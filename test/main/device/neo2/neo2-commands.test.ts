import { describe, expect, it } from 'vitest'
import { decodeTlv, findTlv } from '../../../../src-main/device/card-data'
import { encodeNeo2Frame } from '../../../../src-main/device/neo2'
import {
  activateTransactionData,
  amountN12,
  applyHostResponseData,
  Neo2CommandError,
  NEO2_COMMANDS,
} from '../../../../src-main/device/neo2/neo2-commands'
import {
  activateRequest,
  cancelPinRequest,
  cancelRequest,
  DEFAULT_NEO2_TIMEOUTS,
  getPinRequest,
  pingRequest,
} from '../../../../src-main/device/neo2/neo2-requests'
import { DEFAULT_PIN_REQUEST } from '../../../../src-main/device/neo2/neo2-pin'
import { currencyNumericCode, CurrencyCodeError } from '../../../../src-main/device/card-data/currency-numeric'
import type { CommandRequest } from '../../../../src-main/device/neo2/neo2-channel'
import { FRAME_VECTORS } from './neo2-vectors'

const wire = (request: CommandRequest): string =>
  encodeNeo2Frame({ kind: 'command', command: request.command, subCommand: request.subCommand, data: request.data ?? Buffer.alloc(0) })
    .toString('hex')
    .toUpperCase()
const vector = (name: string): string => {
  const found = FRAME_VECTORS.find((v) => v.name === name)
  if (!found) throw new Error(`no vector ${name}`)
  return found.hex
}
const t = DEFAULT_NEO2_TIMEOUTS

describe('NEO 2 command frames match the worked frames of docs/neo2-protocol.md §11', () => {
  it.each([
    ['Ping 18-01 command', pingRequest(t)],
    ['Cancel 05-01', cancelRequest(t)],
    ['62-00 cancel PIN', cancelPinRequest(t)],
    ['62-01 tentative', getPinRequest(DEFAULT_PIN_REQUEST, t, () => undefined)],
  ])('%s', (name, request) => {
    expect(wire(request)).toBe(vector(name))
  })

  it('02-40 starts with the [C] EUR 12.34 frame data and adds 5F36 and DFEF3C', () => {
    const data = activateTransactionData({
      timeoutSeconds: 30,
      amountMinor: 1234,
      currency: 'EUR',
      purpose: 'purchase',
      interfaces: ['magstripe', 'contactless'],
      fallback: true,
      nextCommandTimeoutSeconds: 96,
    })
    const golden = Buffer.from(vector('Activate 02-40, EUR 12.34 MSR+CTLS'), 'hex')
    const goldenData = golden.subarray(14, golden.length - 2)
    expect(data.subarray(0, goldenData.length).equals(goldenData)).toBe(true)
    const extra = decodeTlv(data.subarray(goldenData.length))
    expect(extra.map((x) => [x.tag, x.value.toString('hex').toUpperCase()])).toEqual([
      ['5F36', '02'],
      ['DFEF3C', '010060'],
    ])
  })

  it('02-40 selects interfaces with DFEF37 bits (bit0 MSR, bit1 CTLS, bit2 contact) and 9C 20 for a void read', () => {
    const data = activateTransactionData({
      timeoutSeconds: 1,
      amountMinor: 5,
      currency: 'JPY',
      purpose: 'void',
      interfaces: ['contact', 'magstripe', 'contactless'],
      fallback: false,
      nextCommandTimeoutSeconds: 0,
    })
    const tlvs = decodeTlv(data.subarray(1))
    expect(findTlv(tlvs, 'DFEF37')?.value).toEqual(Buffer.from([0x07]))
    expect(findTlv(tlvs, '9C')?.value).toEqual(Buffer.from([0x20]))
    expect(findTlv(tlvs, '5F2A')?.value.toString('hex')).toBe('0392')
    expect(findTlv(tlvs, '5F36')?.value).toEqual(Buffer.from([0]))
    expect(findTlv(tlvs, 'DFEF3C')?.value.toString('hex')).toBe('000000')
  })

  it('refuses a timeout outside the 1-byte field and amounts beyond n12', () => {
    const base = {
      amountMinor: 1,
      currency: 'EUR',
      purpose: 'purchase' as const,
      interfaces: ['contact' as const],
      fallback: false,
      nextCommandTimeoutSeconds: 0,
    }
    expect(() => activateTransactionData({ ...base, timeoutSeconds: 0 })).toThrow(Neo2CommandError)
    expect(() => activateTransactionData({ ...base, timeoutSeconds: 256 })).toThrow(/1 to 255/)
    expect(() => amountN12(1e12)).toThrow(/999999999999/)
    expect(() => amountN12(-1)).toThrow(Neo2CommandError)
    expect(amountN12(123_456_789_012).toString('hex')).toBe('123456789012')
  })

  it('02-40 waits for the card timeout plus the 15 s margin of docs/neo2-protocol.md §10, and is never resent on silence', () => {
    const request = activateRequest(
      {
        timeoutSeconds: 30,
        amountMinor: 1,
        currency: 'EUR',
        purpose: 'purchase',
        interfaces: ['contact'],
        fallback: true,
        nextCommandTimeoutSeconds: 60,
      },
      t,
    )
    expect(request.timeoutMs).toBe(45_000)
    expect(request.retriesOnSilence ?? 0).toBe(0)
    expect(pingRequest(t).retriesOnSilence).toBe(1)
    expect(wire(request).slice(20, 24)).toBe('0240')
  })
})

describe('60-12 Apply Host Response data', () => {
  it('is ComFlag 01 + 8A for an answered host, 00 for unable to go online', () => {
    expect(applyHostResponseData({ result: 'approved', authorizationResponseCode: '00' }).toString('hex').toUpperCase()).toBe('018A023030')
    expect(applyHostResponseData({ result: 'unableToGoOnline', authorizationResponseCode: 'Z3' }).toString('hex').toUpperCase()).toBe(
      '008A025A33',
    )
  })

  it('adds 91 and passes 71/72 templates through', () => {
    const data = applyHostResponseData({
      result: 'approved',
      authorizationResponseCode: '00',
      issuerAuthenticationData: '1122334455667788',
      issuerScripts: ['7105860300AABB'],
    })
    expect(data.toString('hex').toUpperCase()).toBe('018A02303091081122334455667788' + '7105860300AABB')
  })

  it.each([
    [{ authorizationResponseCode: '0' }, /two printable/],
    [{ authorizationResponseCode: '00', issuerAuthenticationData: '11' }, /8 to 16/],
    [{ authorizationResponseCode: '00', issuerAuthenticationData: 'XYZ' }, /hex/],
    [{ authorizationResponseCode: '00', issuerScripts: ['9F270180'] }, /71 or 72/],
    [{ authorizationResponseCode: '00', issuerScripts: ['7105AA'] }, /71 or 72/],
  ])('refuses a malformed host answer %#', (over, message) => {
    expect(() => applyHostResponseData({ result: 'approved', ...over } as never)).toThrow(message)
  })
})

describe('command identifiers and currency codes', () => {
  it('names the command bytes of docs/neo2-protocol.md', () => {
    expect(NEO2_COMMANDS.activateTransaction).toEqual({ command: 0x02, subCommand: 0x40 })
    expect(NEO2_COMMANDS.contactApplyHostResponse).toEqual({ command: 0x60, subCommand: 0x12 })
  })

  it('maps ISO 4217 alphabetic to numeric codes and refuses unknown ones', () => {
    expect(currencyNumericCode('EUR')).toBe(978)
    expect(currencyNumericCode('USD')).toBe(840)
    expect(currencyNumericCode('ALL')).toBe(8)
    expect(() => currencyNumericCode('XXX')).toThrow(CurrencyCodeError)
  })
})
