/**
 * How bytes reach a receipt printer: a serial or USB-serial port (the serialport stack the card reader
 * uses) or the network (raw TCP, port 9100 by convention). Either is a byte stream both ways: the
 * receipt goes out, status answers come back. A link is opened for one print job or one status check
 * and closed after it, so a printer switched off and on again is simply found again next time.
 */
import { connect, type Socket } from 'node:net'
import { SerialPort } from 'serialport'

export interface PrinterLink {
  write(bytes: Uint8Array): Promise<void>
  onData(listener: (chunk: Buffer) => void): void
  close(): Promise<void>
}

export type OpenPrinterLink = () => Promise<PrinterLink>

export type PrinterConnection = { kind: 'serial'; path: string; baudRate: number } | { kind: 'network'; host: string; port: number }

export function printerLink(connection: PrinterConnection, timeoutMs: number): OpenPrinterLink {
  return connection.kind === 'serial'
    ? () => openSerial(connection.path, connection.baudRate)
    : () => openNetwork(connection.host, connection.port, timeoutMs)
}

async function openSerial(path: string, baudRate: number): Promise<PrinterLink> {
  const port = new SerialPort({ path, baudRate, autoOpen: false })
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())))
  // A printer unplugged or switched off mid-job fails the write (its callback rejects the job); the
  // stream's 'error' event that follows must not end the agent, so it has a listener.
  port.on('error', () => undefined)
  return {
    write: (bytes) =>
      new Promise((resolve, reject) => {
        port.write(Buffer.from(bytes), (error) =>
          error ? reject(error) : port.drain((drained) => (drained ? reject(drained) : resolve())),
        )
      }),
    onData: (listener) => void port.on('data', listener),
    close: () => new Promise((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
  }
}

async function openNetwork(host: string, port: number, timeoutMs: number): Promise<PrinterLink> {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect({ host, port })
    const timer = setTimeout(() => {
      s.destroy()
      reject(new Error(`no connection to ${host}:${port} within ${timeoutMs} ms`))
    }, timeoutMs)
    s.once('connect', () => {
      clearTimeout(timer)
      resolve(s)
    })
    s.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
  socket.on('error', () => undefined) // a reset after the job shows as a failed write or a missing answer
  return {
    write: (bytes) => new Promise((resolve, reject) => socket.write(Buffer.from(bytes), (error) => (error ? reject(error) : resolve()))),
    onData: (listener) => void socket.on('data', listener),
    close: () =>
      new Promise((resolve) => {
        if (socket.destroyed) return resolve()
        socket.end(() => resolve())
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 1_000).unref()
      }),
  }
}
