/**
 * The local server's connections, kept so that no caller can take them all (docs/local-api.md
 * "Limits"). Node's own cap refuses whoever comes last, so one program holding connections open
 * would shut the cashier window and every POS out; here instead:
 * - a connection proves itself with its first request: a token in force, a live window's session,
 *   a launch link that opens a window. Until then it is unproven, and one that sends no whole
 *   request within `firstRequestMs` is cut;
 * - the last `reservedConnections` of the cap are for proven callers only: an unproven request
 *   that came in on one of them is answered SERVER_BUSY and its connection closed;
 * - when the cap is reached, the oldest unproven connection that is not being answered makes room
 *   for the newcomer (a program holding half-sent requests loses them first, the counter's next call
 *   gets in);
 * - one root opener (a token with every window opened from it, the machine's owner's windows) holds
 *   at most `connectionsPerOpener` proven connections.
 * The cap itself stays below what the process may open (openFileLimit): past that, the system
 * refuses connections before the server sees them, and no reserve helps.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'

export interface ConnectionLimits {
  /** Connections open at once, at most. */
  maxConnections: number
  /** Of those, the last ones, kept for proven callers (the cashier window, a POS with its token). */
  reservedConnections: number
  /** Proven connections one root opener holds at once, at most. */
  connectionsPerOpener: number
  /** How long a new connection may take to send its first whole request, in ms. */
  firstRequestMs: number
}

/** What a request's connection may do, once its caller is known. */
export type Admission = 'served' | 'reservedForCallers' | 'tooManyForOpener'

interface Held {
  /** The root opener it proved itself for (undefined: unproven). */
  opener: string | undefined
  /** It came in on the reserved share. */
  reserved: boolean
  /** Requests being answered on it now. */
  answering: number
  /** Cuts it when its first request does not come in time. */
  deadline: NodeJS.Timeout | undefined
}

export class ConnectionGuard {
  /** Every open connection, oldest first (a Map keeps insertion order). */
  private readonly held = new Map<Socket, Held>()
  private readonly perOpener = new Map<string, number>()

  constructor(private readonly limits: ConnectionLimits) {}

  /** Takes over `server`'s connections (its own maxConnections is left unset: this is the cap). */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.admit(socket))
  }

  get size(): number {
    return this.held.size
  }

  /** A request came in on `socket` (its headers whole): it is no longer silent. */
  requestStarted(socket: Socket, finished: { once(event: 'close', listener: () => void): unknown }): void {
    const held = this.held.get(socket)
    if (!held) return
    clearTimeout(held.deadline)
    held.deadline = undefined
    held.answering++
    finished.once('close', () => held.answering--)
  }

  /**
   * The caller of a request on `socket`: `opener` for a proven caller (its root opener), undefined
   * for none. Says whether it is served on this connection.
   */
  admission(socket: Socket, opener: string | undefined): Admission {
    const held = this.held.get(socket)
    if (!held) return 'served'
    if (opener === undefined) return held.opener === undefined && held.reserved ? 'reservedForCallers' : 'served'
    if (held.opener === opener) return 'served'
    if (held.opener !== undefined) this.release(held.opener)
    held.opener = undefined
    if ((this.perOpener.get(opener) ?? 0) >= this.limits.connectionsPerOpener) return 'tooManyForOpener'
    held.opener = opener
    this.perOpener.set(opener, (this.perOpener.get(opener) ?? 0) + 1)
    return 'served'
  }

  private admit(socket: Socket): void {
    const held: Held = { opener: undefined, reserved: false, answering: 0, deadline: undefined }
    this.held.set(socket, held)
    socket.once('close', () => this.forget(socket))
    if (this.held.size > this.limits.maxConnections) {
      const room = this.oldestUnproven(socket)
      if (!room) return this.cut(socket)
      this.cut(room)
    }
    held.reserved = this.held.size > this.limits.maxConnections - this.limits.reservedConnections
    held.deadline = setTimeout(() => this.cut(socket), this.limits.firstRequestMs)
    held.deadline.unref()
  }

  /** The oldest unproven connection not being answered (a request half sent, or none yet, or idle between two). */
  private oldestUnproven(newcomer: Socket): Socket | undefined {
    for (const [socket, held] of this.held) if (socket !== newcomer && held.opener === undefined && held.answering === 0) return socket
    return undefined
  }

  private cut(socket: Socket): void {
    this.forget(socket)
    socket.destroy()
  }

  private forget(socket: Socket): void {
    const held = this.held.get(socket)
    if (!held) return
    this.held.delete(socket)
    clearTimeout(held.deadline)
    if (held.opener !== undefined) this.release(held.opener)
  }

  private release(opener: string): void {
    const left = (this.perOpener.get(opener) ?? 1) - 1
    if (left > 0) this.perOpener.set(opener, left)
    else this.perOpener.delete(opener)
  }
}

/**
 * Files the agent keeps open besides its servers' connections: the journal and its copy, logs, the
 * card reader and printer, the bank's and the store's connections, the keychain's, and some to spare.
 */
export const FILES_KEPT = 256

/**
 * The connection cap a server of this process can keep: `wanted`, or less when the process may open
 * fewer files. The local API and nexo share the process, so each gets half of what is left after
 * FILES_KEPT. Never below 32 (an agent allowed fewer files than that has a misconfigured system,
 * which `serve` says).
 */
export function connectionCapWithin(fileLimit: number | undefined, wanted: number): number {
  if (fileLimit === undefined) return wanted
  return Math.max(32, Math.min(wanted, Math.floor((fileLimit - FILES_KEPT) / 2)))
}

/**
 * How many files this process may open (RLIMIT_NOFILE, which Node raises to the hard limit at
 * start), when the system says: Linux's /proc/self/limits, elsewhere a shell's `ulimit -n` (which a
 * child inherits); undefined on Windows, which has no such limit on sockets.
 */
export function openFileLimit(): number | undefined {
  if (process.platform === 'win32') return undefined
  try {
    return fileLimitOf(readFileSync('/proc/self/limits', 'utf8'))
  } catch {
    try {
      const text = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2_000 }).trim()
      return /^\d+$/.test(text) ? Number(text) : undefined
    } catch {
      return undefined
    }
  }
}

/** The soft "Max open files" of a /proc/<pid>/limits text (undefined for "unlimited" or none). */
export function fileLimitOf(limits: string): number | undefined {
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits)?.[1]
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft)
}
