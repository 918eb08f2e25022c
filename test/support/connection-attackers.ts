/**
 * Programs that try to take every connection of the local server, each run as a process of its own
 * (as an attacker's would be), reporting what they hold as JSON lines on stdout:
 * - `flood`: N connections that send half a request and never finish it, each reopened as soon as
 *   the server cuts it;
 * - `windows`: a read-only token minting as many customer displays as it is let, then holding as
 *   many event streams as it can with them and with itself, retrying every refusal.
 * Both run until stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

const FLOOD = `
const net = require('node:net')
const [port, n] = process.argv.slice(1).map(Number)
let alive = 0, opened = 0, cut = 0, refused = 0
function one() {
  const socket = net.connect(port, '127.0.0.1')
  let up = false
  socket.on('connect', () => { up = true; opened++; alive++; socket.write('GET /v1/health HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\n') })
  socket.on('data', () => {})
  socket.on('error', () => {})
  socket.on('close', () => { if (up) { alive--; cut++ } else refused++; setTimeout(one, 5) })
}
for (let i = 0; i < n; i++) one()
setInterval(() => console.log(JSON.stringify({ alive, opened, cut, refused })), 200)
`

const WINDOWS = `
const http = require('node:http')
const [port, token, tries] = [Number(process.argv[1]), process.argv[2], Number(process.argv[3])]
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity })
function call(method, path, headers, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, agent, headers: { host: '127.0.0.1:' + port, ...headers } }, (res) => {
      let text = ''; res.on('data', (d) => (text += d)); res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }))
    })
    req.on('error', () => resolve({ status: 0, headers: {}, text: '' }))
    req.end(body)
  })
}
;(async () => {
  const cookies = [], refusals = {}
  for (let i = 0; i < tries; i++) {
    const link = await call('POST', '/v1/ops/openCustomerDisplay', { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, '{}')
    const answer = JSON.parse(link.text || '{}')
    if (!answer.ok) { const code = answer.error ? answer.error.code : String(link.status); refusals[code] = (refusals[code] || 0) + 1; continue }
    const url = new URL(answer.value.url)
    const opened = await call('GET', url.pathname + url.search, {})
    const cookie = /pos_display=[^;]+/.exec(String(opened.headers['set-cookie'] || ''))
    if (cookie) cookies.push(cookie[0])
    else refusals['link' + opened.status] = (refusals['link' + opened.status] || 0) + 1
  }
  let open = 0, most = 0, tried = 0
  const credentials = [...cookies.flatMap((c) => [c, c, c, c]).map((cookie) => ({ cookie })), ...[1, 2, 3, 4].map(() => ({ authorization: 'Bearer ' + token }))]
  const grab = (headers) => {
    tried++
    // A display's event stream is under /customer, where its cookie is sent; a token's is at /v1.
    const path = headers.cookie ? '/customer/v1/events' : '/v1/events'
    const req = http.get({ host: '127.0.0.1', port, path, agent, headers: { host: '127.0.0.1:' + port, ...headers } }, (res) => {
      if (res.statusCode !== 200) { res.resume(); return setTimeout(() => grab(headers), 20) }
      open++; most = Math.max(most, open)
      res.on('data', () => {})
      res.on('close', () => { open--; setTimeout(() => grab(headers), 20) })
    })
    req.on('error', () => setTimeout(() => grab(headers), 20))
  }
  credentials.forEach(grab)
  setInterval(() => console.log(JSON.stringify({ windows: cookies.length, refusals, open, most, tried })), 200)
})()
`

export interface Attacker<Report> {
  /** The last report, once one came. */
  last(): Report | undefined
  /** Until a report passes `check`. */
  until(check: (report: Report) => boolean, timeoutMs?: number): Promise<Report>
  stop(): Promise<void>
}

function run<Report>(source: string, args: string[]): Attacker<Report> {
  const child: ChildProcess = spawn(process.execPath, ['-e', source, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let last: Report | undefined
  const waiters = new Set<() => void>()
  createInterface({ input: child.stdout! }).on('line', (line) => {
    last = JSON.parse(line) as Report
    for (const wake of waiters) wake()
  })
  return {
    last: () => last,
    until: (check, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const look = (): void => {
          if (last !== undefined && check(last)) {
            waiters.delete(look)
            clearTimeout(timer)
            resolve(last)
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(look)
          reject(new Error(`the attacking program never reported what was awaited; last: ${JSON.stringify(last)}`))
        }, timeoutMs)
        waiters.add(look)
        look()
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  }
}

export interface FloodReport {
  alive: number
  opened: number
  cut: number
  refused: number
}

/** `connections` half-sent requests to 127.0.0.1:`port`, each reopened as it is cut. */
export const flood = (port: number, connections: number): Attacker<FloodReport> => run(FLOOD, [String(port), String(connections)])

export interface WindowsReport {
  /** Customer displays it got a session for. */
  windows: number
  /** Why the others were refused, by code (or `link<status>` when a link opened nothing). */
  refusals: Record<string, number>
  /** Event streams it holds now, and the most it ever held at once. */
  open: number
  most: number
  /** Streams it asked for, in all. */
  tried: number
}

/** A read-only `token` asking `tries` times for a customer display, then holding every event stream it can. */
export const displayHoarder = (port: number, token: string, tries: number): Attacker<WindowsReport> =>
  run(WINDOWS, [String(port), token, String(tries)])
