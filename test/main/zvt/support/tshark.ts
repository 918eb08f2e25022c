/**
 * Wireshark's ZVT dissector (Debian's `tshark`) as an independent reader of what the agent sends: a
 * pcap of the conversation is dissected with `-d tcp.port==PORT,zvt`, and every APDU it found is
 * returned with any malformed-packet or expert-info finding, which the tests fail on.
 */
import { spawnSync } from 'node:child_process'
import { commandAvailable, requireComponent } from '../../../support/system'

export interface DissectedApdu {
  frame: number
  /** Sent from the port dissected (the terminal), not by the register. */
  fromTerminal: boolean
  /** `0x040f` for a command or status; `0x8000` / `0x849c` for an acknowledgement. */
  control: string
  length: number
  /** The BMPs the dissector named, e.g. `0x27`. */
  bmps: string[]
  /** Every field the dissector decoded, by name (the last value of each). */
  fields: Record<string, string>
}

export interface Dissection {
  apdus: DissectedApdu[]
  /** Malformed packets and expert infos in what the terminal (the port dissected) sent, in words. */
  problems: string[]
  /** The same in what the register sent (a test's deliberate garbage). */
  registerProblems: string[]
}

export const TSHARK_INSTALL = 'run `scripts/install-system-deps.sh test` (apt-get install tshark)'

export function tsharkPresent(): boolean {
  return requireComponent('tshark', commandAvailable('tshark'), TSHARK_INSTALL)
}

export function dissect(pcapPath: string, port: number): Dissection {
  const run = spawnSync('tshark', ['-r', pcapPath, '-d', `tcp.port==${port},zvt`, '-T', 'json', '--no-duplicate-keys'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  })
  if (run.status !== 0) throw new Error(`tshark failed (${run.status}): ${run.stderr}`)
  const packets = JSON.parse(run.stdout) as { _source: { layers: Record<string, unknown> } }[]
  const apdus: DissectedApdu[] = []
  const problems: string[] = []
  const registerProblems: string[] = []
  packets.forEach((packet, index) => {
    const frame = index + 1
    const layers = packet._source.layers
    const tcp = layers.tcp as Record<string, unknown> | undefined
    const fromTerminal = Number(tcp?.['tcp.srcport']) === port
    const found = fromTerminal ? problems : registerProblems
    // A malformed packet anywhere, and every expert finding of the ZVT dissector (TCP's notes on a
    // connection opening and closing are the pcap's, not the agent's).
    if (layers['_ws.malformed'] !== undefined) found.push(`frame ${frame}: malformed packet`)
    walk(layers.zvt, (key, value) => {
      if (key !== '_ws.expert' || value === null || typeof value !== 'object') return
      found.push(`frame ${frame}: ${(value as Record<string, string>)['_ws.expert.message']}`)
    })
    const zvt = layers.zvt
    for (const layer of Array.isArray(zvt) ? zvt : zvt === undefined ? [] : [zvt]) {
      for (const [key, tree] of Object.entries(layer as Record<string, unknown>)) {
        if (!key.startsWith('ZVT APDU')) continue
        for (const one of Array.isArray(tree) ? tree : [tree]) apdus.push(apduOf(frame, fromTerminal, one as Record<string, unknown>))
      }
    }
  })
  return { apdus, problems, registerProblems }
}

function apduOf(frame: number, fromTerminal: boolean, tree: Record<string, unknown>): DissectedApdu {
  const fields: Record<string, string> = {}
  const bmps: string[] = []
  walk(tree, (key, value) => {
    if (typeof value !== 'string') return
    fields[key] = value
    if (key === 'zvt.bmp') bmps.push(value)
  })
  const control =
    typeof tree['zvt.control_field'] === 'string'
      ? tree['zvt.control_field']
      : `0x${String(tree['zvt.ccrc']).slice(2)}${String(tree['zvt.aprc']).slice(2)}`
  return { frame, fromTerminal, control, length: Number(tree['zvt.length_field']), bmps, fields }
}

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (node === null || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (Array.isArray(value)) for (const item of value) visit(key, item)
    else visit(key, value)
    if (Array.isArray(value)) value.forEach((item) => walk(item, visit))
    else walk(value, visit)
  }
}
