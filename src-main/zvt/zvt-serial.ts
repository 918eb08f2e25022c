/**
 * ZVT over a serial line (PA00P016 part 1): one register on one port, 9600 baud, 8 data bits, no
 * parity, 2 stop bits unless configured. Each APDU travels framed (zvt-serial-framing.ts) and is
 * answered on the line with `ACK` (06) or `NAK` (15): a frame that fails its CRC is answered NAK and
 * never reaches the terminal; a frame of ours the register NAKs (or does not ACK in time) is sent
 * again, three times at most. Above the line, the same session and terminal as over TCP.
 */
import { SerialPort } from 'serialport'
import { ACK, NAK, frameApdu, SerialFrameReader } from './zvt-serial-framing'
import { decodeApdu } from './zvt-apdu'
import { ZvtSession } from './zvt-session'
import type { ZvtTerminal } from './zvt-terminal'

/** How long the register may take to ACK a frame before it is sent again (PA00P016's T2). */
const LINE_ACK_MS = 1_000
const SENDS = 3

export interface ZvtSerialOptions {
  terminal: ZvtTerminal
  path: string
  baudRate?: number
  stopBits?: 1 | 2
  ackTimeoutMs?: number
}

export interface ZvtSerial {
  path: string
  close(): Promise<void>
}

export async function startZvtSerial(options: ZvtSerialOptions): Promise<ZvtSerial> {
  const port = new SerialPort({
    path: options.path,
    baudRate: options.baudRate ?? 9_600,
    dataBits: 8,
    parity: 'none',
    stopBits: options.stopBits ?? 2,
    autoOpen: false,
  })
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())))
  const frames = new SerialFrameReader()
  let lineAck: ((ok: boolean) => void) | undefined
  let outbox: Promise<void> = Promise.resolve()

  const sendFrame = (apduBytes: Uint8Array): void => {
    const frame = frameApdu(apduBytes)
    outbox = outbox.then(async () => {
      for (let attempt = 0; attempt < SENDS && port.isOpen; attempt++) {
        const answered = new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), LINE_ACK_MS)
          lineAck = (ok) => {
            clearTimeout(timer)
            resolve(ok)
          }
        })
        port.write(Buffer.from(frame))
        const ok = await answered
        lineAck = undefined
        if (ok) return
      }
    })
  }

  const session = new ZvtSession({ send: sendFrame, close: () => undefined }, `serial:${options.path}`, options.ackTimeoutMs)
  port.on('data', (chunk: Buffer) => {
    for (const event of frames.push(chunk)) {
      if (event.kind === 'ack' || event.kind === 'nak') lineAck?.(event.kind === 'ack')
      else if (event.kind === 'badFrame') port.write(Buffer.from([NAK]))
      else {
        port.write(Buffer.from([ACK]))
        const message = decodeApdu(event.apdu)
        if (message.ok) void options.terminal.receive(session, message.value)
        else options.terminal.malformed(session, message.error)
      }
    }
  })
  port.on('error', () => undefined)
  port.on('close', () => session.closed())
  return {
    path: options.path,
    close: () =>
      new Promise<void>((resolve) => {
        session.closed()
        if (!port.isOpen) return resolve()
        port.close(() => resolve())
      }),
  }
}
