/**
 * ZVT over TCP (PA00P016 part 2): raw APDUs back to back, each framed by its own length field, on port
 * 20007 unless configured (docs/zvt.md). Every connection is one register's session; what it sends is
 * cut into APDUs as it arrives, split or joined, and handed to the terminal. Each APDU the terminal
 * sends goes out in one write, so a register that reads message by message never sees half of one.
 */
import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { ApduReader } from './zvt-apdu'
import { ZvtSession } from './zvt-session'
import type { ZvtTerminal } from './zvt-terminal'

export const ZVT_DEFAULT_PORT = 20007

/** Registers connected at once: a store has a few; more is a scan or a loop. */
const MAX_CONNECTIONS = 16

export interface ZvtServerOptions {
  terminal: ZvtTerminal
  /** 127.0.0.1 unless the register runs on another machine of the store's network. */
  host?: string
  /** 20007 by default; 0 picks a free one. */
  port?: number
  /** How long a register may take to acknowledge a message (ms). */
  ackTimeoutMs?: number
}

export interface ZvtServer {
  host: string
  port: number
  close(): Promise<void>
}

export async function startZvtServer(options: ZvtServerOptions): Promise<ZvtServer> {
  const host = options.host ?? '127.0.0.1'
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.setNoDelay(true)
    const register = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`
    const session = new ZvtSession(
      {
        send: (bytes) => {
          if (!socket.destroyed) socket.write(bytes)
        },
        close: () => socket.end(),
      },
      register,
      options.ackTimeoutMs,
    )
    const reader = new ApduReader()
    socket.on('data', (chunk) => {
      for (const message of reader.push(chunk)) void options.terminal.receive(session, message)
    })
    socket.on('error', () => undefined)
    socket.on('close', () => {
      sockets.delete(socket)
      session.closed()
    })
  })
  server.maxConnections = MAX_CONNECTIONS
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? ZVT_DEFAULT_PORT, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
