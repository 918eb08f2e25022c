import { afterEach, describe, expect, it } from 'vitest'
import { SerialPortMock } from 'serialport'
import { backoffDelay, ReaderLink, SerialReaderTransport } from '../../../../src-main/device/neo2'
import type { LinkState, PortOpenOptions, TransportClosed } from '../../../../src-main/device/neo2'
import { Neo2Emulator } from '../../../../src-main/training/pinpad'
import { MockPinpadWire } from '../../../../src-main/training/pinpad/sim-links'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
afterEach(() => SerialPortMock.binding.reset())

describe('SerialReaderTransport over SerialPortMock', () => {
  it('opens with the NEO 2 defaults (115200 8N1), writes, reads and closes', async () => {
    SerialPortMock.binding.createPort('/dev/T1', { record: true })
    const seen: PortOpenOptions[] = []
    let mock: SerialPortMock | undefined
    const transport = new SerialReaderTransport({
      path: '/dev/T1',
      createPort: (options) => {
        seen.push(options)
        mock = new SerialPortMock(options)
        return mock
      },
    })
    const chunks: Buffer[] = []
    const closes: TransportClosed[] = []
    transport.onData((chunk) => chunks.push(chunk))
    transport.onClose((event) => closes.push(event))
    await transport.open()
    expect(seen[0]).toMatchObject({ path: '/dev/T1', baudRate: 115200, dataBits: 8, parity: 'none', stopBits: 1, autoOpen: false })
    expect(transport.isOpen).toBe(true)
    await transport.write(Buffer.from('ping'))
    expect(mock?.port?.recording.toString()).toBe('ping')
    mock?.port?.emitData(Buffer.from('pong'))
    await sleep(5)
    expect(Buffer.concat(chunks).toString()).toBe('pong')
    await transport.close()
    expect(closes).toEqual([{ disconnected: false }])
    await expect(transport.write(Buffer.from('x'))).rejects.toMatchObject({ code: 'deviceDisconnected' })
  })

  it('passes configured settings (7E1 pads exist) and looks the path up again at every open', async () => {
    SerialPortMock.binding.createPort('/dev/T2')
    const seen: PortOpenOptions[] = []
    let lookups = 0
    const transport = new SerialReaderTransport({
      path: async () => (lookups++, '/dev/T2'),
      baudRate: 9600,
      dataBits: 7,
      parity: 'even',
      createPort: (options) => (seen.push(options), new SerialPortMock(options)),
    })
    await transport.open()
    await transport.close()
    await transport.open()
    expect(lookups).toBe(2)
    expect(seen[1]).toMatchObject({ baudRate: 9600, dataBits: 7, parity: 'even', stopBits: 1 })
    expect(transport.path).toBe('/dev/T2')
    await transport.close()
  })

  it('rejects open for a port that does not exist', async () => {
    const transport = new SerialReaderTransport({ path: '/dev/NOPE', createPort: (options) => new SerialPortMock(options) })
    await expect(transport.open()).rejects.toThrow(/does not exist/)
    expect(transport.isOpen).toBe(false)
  })

  it('reports an unplug as a disconnect', async () => {
    const wire = new MockPinpadWire('/dev/T3', new Neo2Emulator())
    const transport = new SerialReaderTransport({ path: wire.path, createPort: wire.createPort })
    const closes: TransportClosed[] = []
    transport.onClose((event) => closes.push(event))
    await transport.open()
    wire.unplug()
    await sleep(20)
    expect(closes).toEqual([{ disconnected: true, reason: 'unplugged' }])
    await expect(transport.open()).rejects.toThrow()
    wire.replug()
    await transport.open()
    expect(transport.isOpen).toBe(true)
    await transport.close()
  })
})

describe('ReaderLink: reconnect with backoff', () => {
  it('doubles the delay up to the maximum', () => {
    const backoff = { initialMs: 250, factor: 2, maxMs: 5_000 }
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, backoff))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000])
  })

  it('goes disconnected → reconnecting → connected after an unplug and a replug', async () => {
    const wire = new MockPinpadWire('/dev/T4', new Neo2Emulator())
    const link = new ReaderLink(new SerialReaderTransport({ path: wire.path, createPort: wire.createPort }), {
      backoff: { initialMs: 10, maxMs: 40 },
    })
    const states: LinkState[] = []
    link.onState((state) => states.push(state))
    expect(await link.start()).toBe(true)
    wire.unplug()
    await sleep(120) // several failed attempts while unplugged
    expect(link.connected).toBe(false)
    await expect(link.write(Buffer.from('x'))).rejects.toMatchObject({ code: 'deviceDisconnected' })
    wire.replug()
    await sleep(100)
    expect(states).toEqual(['connected', 'disconnected', 'reconnecting', 'connected'])
    await link.close()
  })

  it('keeps trying when the first open fails, and reconnects after markDead', async () => {
    const wire = new MockPinpadWire('/dev/T5', new Neo2Emulator())
    wire.unplug()
    const link = new ReaderLink(new SerialReaderTransport({ path: wire.path, createPort: wire.createPort }), {
      backoff: { initialMs: 10, maxMs: 20 },
    })
    const states: LinkState[] = []
    link.onState((state) => states.push(state))
    expect(await link.start()).toBe(false)
    wire.replug()
    await sleep(60)
    expect(link.connected).toBe(true)
    await link.markDead('test')
    await sleep(60)
    expect(states).toEqual(['reconnecting', 'connected', 'disconnected', 'reconnecting', 'connected'])
    await link.close()
    expect(link.connected).toBe(false)
  })
})
