import { afterEach, describe, expect, it } from 'vitest'
import { SerialPortMock } from 'serialport'
import { discoverReaderPort, IDTECH_USB_VENDOR_ID, matchesReaderPort, readerPortResolver } from '../../../../src-main/device/neo2'
import { ReaderError } from '../../../../src-main/device/reader-error'

afterEach(() => SerialPortMock.binding.reset())

describe('discoverReaderPort', () => {
  it('returns a configured path without listing (ptys are not enumerated)', async () => {
    let listed = false
    expect(await discoverReaderPort({ path: '/tmp/ttyNEO2' }, async () => ((listed = true), []))).toBe('/tmp/ttyNEO2')
    expect(listed).toBe(false)
  })

  it("finds ID TECH's vendor id by default among serialport's list", async () => {
    SerialPortMock.binding.createPort('/dev/ttyUSB1', { vendorId: '067b', productId: '2303' })
    SerialPortMock.binding.createPort('/dev/ttyACM0', { vendorId: '0ACD', productId: '3530' })
    expect(IDTECH_USB_VENDOR_ID).toBe('0acd')
    expect(await discoverReaderPort({}, SerialPortMock.list)).toBe('/dev/ttyACM0')
  })

  it('matches configured vendor/product ids and serial number, in any case and with 0x', () => {
    const port = { path: 'COM7', vendorId: '0x0ACD', productId: '4450', serialNumber: 'NEO-1' }
    expect(matchesReaderPort(port, {})).toBe(true)
    expect(matchesReaderPort(port, { productIds: ['4450'] })).toBe(true)
    expect(matchesReaderPort(port, { productIds: ['3530'] })).toBe(false)
    expect(matchesReaderPort(port, { serialNumber: 'NEO-2' })).toBe(false)
    expect(matchesReaderPort({ path: 'COM1' }, {})).toBe(false)
    expect(matchesReaderPort({ path: '/dev/ttyUSB0', vendorId: '67b' }, { vendorIds: ['067B'] })).toBe(true)
  })

  it('takes the first match by path, and says what it looked for when nothing matches', async () => {
    const list = async () => [
      { path: '/dev/ttyACM1', vendorId: '0acd' },
      { path: '/dev/ttyACM0', vendorId: '0acd' },
    ]
    expect(await discoverReaderPort({}, list)).toBe('/dev/ttyACM0')
    await expect(discoverReaderPort({ productIds: ['9999'] }, list)).rejects.toThrow(ReaderError)
    await expect(discoverReaderPort({ vendorIds: ['1234'] }, list)).rejects.toMatchObject({
      code: 'readerNotFound',
      message: expect.stringContaining('1234'),
    })
  })

  it('resolves again at each call, so a replugged reader on another path is found', async () => {
    let path = '/dev/ttyACM0'
    const resolve = readerPortResolver({}, async () => [{ path, vendorId: '0acd' }])
    expect(await resolve()).toBe('/dev/ttyACM0')
    path = '/dev/ttyACM3'
    expect(await resolve()).toBe('/dev/ttyACM3')
  })
})
