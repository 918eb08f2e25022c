/**
 * A pair of linked pseudo-terminals made by socat (docs/card-reader.md §6 "Integration tests with socat",
 * serialport/node-serialport#999): the agent opens one end as its serial port, the simulated PIN pad
 * the other. `link` gives an end a fixed symlink path that survives a new pair (socat replaces a
 * dangling link and removes its links on SIGTERM), so a "replugged" reader comes back at the same path.
 * Killing socat is pulling the cable: both ends read EIO and serialport reports a disconnect.
 * Baud rate and parity are not emulated on ptys (docs/card-reader.md §6).
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'

export interface PtyPairOptions {
  /** Symlink for the agent's end. */
  hostLink?: string
  /** Symlink for the device's end. */
  deviceLink?: string
  /** socat executable; default `socat` on PATH. */
  socat?: string
  /** How long socat may take to set up; default 5 s. */
  startTimeoutMs?: number
}

export interface PtyPair {
  /** The agent's end: `hostLink` when given, else the /dev/pts path. */
  readonly hostPath: string
  readonly devicePath: string
  readonly pid: number
  /** True once socat has exited. */
  readonly exited: boolean
  /** Kills socat with `signal` (SIGKILL = cable pulled; links stay behind) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>
  /** SIGTERM: socat removes its links and exits. */
  close(): Promise<void>
}

export class PtyPairError extends Error {
  override readonly name = 'PtyPairError'
  constructor(
    readonly code: 'socatMissing' | 'socatFailed',
    message: string,
  ) {
    super(message)
  }
}

const end = (link: string | undefined): string => `pty,raw,echo=0${link ? `,link=${link}` : ''}`

export function createPtyPair(options: PtyPairOptions = {}): Promise<PtyPair> {
  const child = spawn(options.socat ?? 'socat', ['-d', '-d', end(options.hostLink), end(options.deviceLink)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true
      resolve()
    }),
  )
  return new Promise<PtyPair>((resolve, reject) => {
    const ptys: string[] = []
    let stderr = ''
    let settled = false
    const fail = (error: PtyPairError): void => {
      clearTimeout(timer)
      if (settled) return
      settled = true
      if (!exited) child.kill('SIGKILL')
      reject(error)
    }
    const timer = setTimeout(
      () =>
        fail(
          new PtyPairError('socatFailed', `socat did not set up two ptys within ${options.startTimeoutMs ?? 5000} ms: ${stderr.trim()}`),
        ),
      options.startTimeoutMs ?? 5_000,
    )
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        new PtyPairError(
          error.code === 'ENOENT' ? 'socatMissing' : 'socatFailed',
          error.code === 'ENOENT' ? 'socat is not installed (apt-get install socat)' : error.message,
        ),
      ),
    )
    child.once('exit', (code) => fail(new PtyPairError('socatFailed', `socat exited with ${code}: ${stderr.trim()}`)))
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (text: string) => {
      stderr = (stderr + text).slice(-4000)
      for (const match of text.matchAll(/PTY is (\S+)/g)) if (match[1]) ptys.push(match[1])
      // socat prints both PTY lines, then "starting data transfer loop" once both ends and links exist.
      if (ptys.length >= 2 && /starting data transfer loop/.test(stderr)) {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(pair(child, exit, () => exited, options.hostLink ?? (ptys[0] as string), options.deviceLink ?? (ptys[1] as string)))
      }
    })
  })
}

function pair(child: ChildProcess, exit: Promise<void>, isExited: () => boolean, hostPath: string, devicePath: string): PtyPair {
  const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    if (!isExited()) child.kill(signal)
    await exit
  }
  return {
    hostPath,
    devicePath,
    pid: child.pid ?? -1,
    get exited() {
      return isExited()
    },
    kill,
    close: () => kill('SIGTERM'),
  }
}
