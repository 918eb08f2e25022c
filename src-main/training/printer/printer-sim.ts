/**
 * A simulated ESC/POS receipt printer on a pseudo-terminal pair (socat), for training mode and the
 * tests: the agent prints to `path` exactly as to a real serial printer; the simulator answers the
 * real-time status queries (DLE EOT 1, 2, 4) from its paper, cover and power, and keeps every byte
 * it was sent. Each cut ends a slip, so `slips()` reads back what came out of the printer.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { SerialPort } from 'serialport'
import { createPtyPair, type PtyPair } from '../pinpad/pty-pair'

export interface PrinterSimState {
  paper: 'ok' | 'low' | 'out'
  coverOpen: boolean
  /** Switched off: it answers nothing. */
  powered: boolean
}

export interface PrinterSim {
  /** The port the agent prints to. */
  readonly path: string
  readonly state: PrinterSimState
  set(state: Partial<PrinterSimState>): void
  /** Every byte received that was not a status query. */
  bytes(): Buffer
  /** The printed slips as text, one per cut (printer commands left out). */
  slips(): string[]
  /** The cable pulled (socat killed) or the network printer's connections dropped, mid-job if one runs. */
  unplug(): Promise<void>
  stop(): Promise<void>
}

const DLE = 0x10
const EOT = 0x04
const GS = 0x1d

/** A simulated printer on a pty pair: the agent's serial path is `path`. */
export async function startPrinterSim(options: { hostLink?: string } = {}): Promise<PrinterSim> {
  const pair: PtyPair = await createPtyPair(options.hostLink ? { hostLink: options.hostLink } : {})
  const device = new SerialPort({ path: pair.devicePath, baudRate: 115_200, autoOpen: false })
  await new Promise<void>((resolve, reject) => device.open((error) => (error ? reject(error) : resolve())))
  const core = printerCore((bytes) => void device.write(bytes))
  device.on('data', core.receive)
  // An answer written while the pair is being torn down fails with EIO: the agent has gone, nobody reads it.
  device.on('error', () => undefined)
  return {
    path: pair.hostPath,
    ...core.view,
    unplug: () => pair.kill('SIGKILL'),
    async stop() {
      await new Promise<void>((resolve) => (device.isOpen ? device.close(() => resolve()) : resolve()))
      await pair.close()
    },
  }
}

/** A simulated network printer (raw TCP, as on port 9100) on 127.0.0.1; `path` is `host:port`. */
export async function startNetworkPrinterSim(): Promise<PrinterSim & { host: string; port: number }> {
  const sockets = new Set<Socket>()
  const received: Buffer[] = []
  const state: PrinterSimState = { paper: 'ok', coverOpen: false, powered: true }
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    // One core per connection (a query split across two connections never happens), one shared record.
    const connection = printerCore((bytes) => void socket.write(bytes), state, received)
    socket.on('data', connection.receive)
  })
  // The printer as the test sees it: the state every connection answers from, all bytes received.
  const core = printerCore(() => undefined, state, received)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    path: `127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    ...core.view,
    async unplug() {
      for (const socket of sockets) socket.destroy()
    },
    async stop() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * What a printer does with the bytes it receives: answers each real-time status query (DLE EOT n)
 * from its state at once, as a real printer does even mid-job, and keeps every other byte.
 */
function printerCore(
  reply: (bytes: Buffer) => void,
  state: PrinterSimState = { paper: 'ok', coverOpen: false, powered: true },
  received: Buffer[] = [],
): { receive: (chunk: Buffer) => void; view: Omit<PrinterSim, 'path' | 'stop' | 'unplug'> } {
  let carry = Buffer.alloc(0)
  const answer = (n: number): number => {
    let byte = 0x12
    if (n === 1 && (state.coverOpen || state.paper === 'out')) byte |= 0x08
    if (n === 2 && state.coverOpen) byte |= 0x04
    if (n === 2 && state.paper === 'out') byte |= 0x20
    if (n === 4 && state.paper === 'low') byte |= 0x0c
    if (n === 4 && state.paper === 'out') byte |= 0x60
    return byte
  }
  const receive = (chunk: Buffer): void => {
    // Switched off: it answers nothing and prints nothing.
    if (!state.powered) return
    const data = Buffer.concat([carry, chunk])
    carry = Buffer.alloc(0)
    let start = 0
    for (let i = 0; i < data.length; i++) {
      if (data[i] !== DLE) continue
      if (i + 2 >= data.length) {
        carry = data.subarray(i)
        received.push(data.subarray(start, i))
        return
      }
      if (data[i + 1] === EOT && [1, 2, 4].includes(data[i + 2]!)) {
        received.push(data.subarray(start, i))
        reply(Buffer.of(answer(data[i + 2]!)))
        start = i + 3
        i += 2
      }
    }
    received.push(data.subarray(start))
  }
  return {
    receive,
    view: {
      state,
      set(next) {
        Object.assign(state, next)
      },
      bytes: () => Buffer.concat(received),
      slips: () => slipsOf(Buffer.concat(received)),
    },
  }
}

/** The text of each slip: split at each cut (GS V), printer commands dropped, lines kept. */
export function slipsOf(bytes: Buffer): string[] {
  const slips: string[] = []
  let current = ''
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    if (byte === GS && bytes[i + 1] === 0x56) {
      slips.push(current)
      current = ''
      i += bytes[i + 2] === 0x41 || bytes[i + 2] === 0x42 ? 3 : 2 // GS V m n (m = 65/66) or GS V m
      continue
    }
    const skip = commandLength(bytes, i)
    if (skip > 0) {
      i += skip - 1
      continue
    }
    if (byte === 0x0a) current += '\n'
    else if (byte >= 0x20 && byte < 0x7f) current += String.fromCharCode(byte)
    else if (byte >= 0x80) current += '?' // a character of the printer's code page
  }
  if (current.trim()) slips.push(current)
  return slips.map((slip) =>
    slip
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trim(),
  )
}

/** Length of the ESC/FS/GS command starting at `i` (0 when none): the few this agent's receipts use. */
function commandLength(bytes: Buffer, i: number): number {
  const byte = bytes[i]
  const next = bytes[i + 1]
  if (byte === 0x1b) return next === 0x40 ? 2 : 3 // ESC @; ESC E n, ESC ! n, ESC t n, ESC M n, ESC a n, ESC d n
  if (byte === 0x1c) return next === 0x2e ? 2 : 3 // FS . (cancel Kanji); FS x n
  if (byte === GS) return 3 // GS ! n, GS B n
  if (byte === 0x0d) return 1
  return 0
}
