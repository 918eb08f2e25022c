import { describe, expect, it } from 'vitest'
import { decodeNeo2Frame, encodeNeo2Frame, Neo2FrameError } from '../../../../src-main/device/neo2/neo2-frame'
import type { Neo2Frame } from '../../../../src-main/device/neo2/neo2-frame'
import { FRAME_VECTORS } from './neo2-vectors'

const bytes = (hex: string): Buffer => Buffer.from(hex, 'hex')

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    if (error instanceof Neo2FrameError) return error.code
    throw error
  }
  return undefined
}

describe('NEO 2 frame golden vectors (docs/neo2-protocol.md §11)', () => {
  it.each(FRAME_VECTORS.map((v) => [v.name, v] as const))('%s decodes and re-encodes byte for byte', (_name, vector) => {
    const wire = bytes(vector.hex)
    const frame = decodeNeo2Frame(wire, vector.kind)
    expect(frame.kind).toBe(vector.kind)
    expect(frame.crcByteOrder).toBe(vector.kind === 'command' ? 'lsbFirst' : 'msbFirst')
    const { crcByteOrder: _order, ...plain } = frame
    expect(encodeNeo2Frame(plain).toString('hex').toUpperCase()).toBe(vector.hex)
  })

  it('puts the command CRC LSB first and the response CRC MSB first (ping, IDG §3.4)', () => {
    const ping = encodeNeo2Frame({ kind: 'command', command: 0x18, subCommand: 0x01, data: Buffer.alloc(0) })
    const pong = encodeNeo2Frame({ kind: 'response', command: 0x18, status: 0x00, data: Buffer.alloc(0) })
    expect(ping.subarray(14).toString('hex')).toBe('b3cd')
    expect(pong.subarray(14).toString('hex')).toBe('fa83')
  })

  it('reads the fields of a response: command, status and data', () => {
    const frame = decodeNeo2Frame(bytes('5669564F746563683200030000030000008DD0'), 'response')
    expect(frame).toMatchObject({ kind: 'response', command: 0x03, status: 0x00 })
    expect(frame.data.toString('hex')).toBe('000000')
  })
})

describe('NEO 2 frame defects are typed errors', () => {
  const ping = bytes('5669564F74656368320018000000FA83')

  it('rejects a wrong CRC, in either byte', () => {
    expect(codeOf(() => decodeNeo2Frame(Buffer.concat([ping.subarray(0, 14), bytes('FA84')]), 'response'))).toBe('badCrc')
    expect(codeOf(() => decodeNeo2Frame(Buffer.concat([ping.subarray(0, 14), bytes('FB83')]), 'response'))).toBe('badCrc')
  })

  it('rejects the swapped CRC byte order unless asked to accept it, and then says which order matched', () => {
    const swapped = Buffer.concat([ping.subarray(0, 14), bytes('83FA')])
    expect(codeOf(() => decodeNeo2Frame(swapped, 'response'))).toBe('badCrc')
    expect(decodeNeo2Frame(swapped, 'response', { acceptSwappedCrc: true }).crcByteOrder).toBe('lsbFirst')
  })

  it('rejects a command read as a response (the CRC order differs)', () => {
    expect(codeOf(() => decodeNeo2Frame(bytes('5669564F74656368320018010000B3CD'), 'response'))).toBe('badCrc')
  })

  it('rejects a bad header, a short frame and a length that disagrees with the bytes', () => {
    const badHeader = Buffer.from(ping)
    badHeader[9] = 0x01 // "ViVOtech2\1": not protocol 2
    expect(codeOf(() => decodeNeo2Frame(badHeader, 'response'))).toBe('badHeader')
    expect(codeOf(() => decodeNeo2Frame(ping.subarray(0, 15), 'response'))).toBe('truncated')
    expect(codeOf(() => decodeNeo2Frame(Buffer.concat([ping, bytes('00')]), 'response'))).toBe('lengthMismatch')
  })

  it('refuses to encode out-of-range fields or more data than the length field holds', () => {
    const frame = (patch: Partial<Neo2Frame>): Neo2Frame =>
      ({ kind: 'command', command: 0x18, subCommand: 0x01, data: Buffer.alloc(0), ...patch }) as Neo2Frame
    expect(codeOf(() => encodeNeo2Frame(frame({ command: 256 })))).toBe('badField')
    expect(codeOf(() => encodeNeo2Frame(frame({ command: 1.5 })))).toBe('badField')
    expect(codeOf(() => encodeNeo2Frame({ kind: 'response', command: 0x18, status: -1, data: Buffer.alloc(0) }))).toBe('badField')
    expect(codeOf(() => encodeNeo2Frame(frame({ data: Buffer.alloc(0x10000) })))).toBe('tooLarge')
    expect(encodeNeo2Frame(frame({ data: Buffer.alloc(0xffff) })).length).toBe(0xffff + 16)
  })
})
