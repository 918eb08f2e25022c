/**
 * Faults the simulated PIN pad produces on demand (docs/device-protocol.md D7.25), each a case the
 * driver must survive (D7.13-D7.16):
 * - `crcError`: the next answers carry a wrong CRC (in either byte order): a corrupt answer;
 * - `crcStatus`: the next commands are answered with status 04, as if OUR frame was corrupted;
 * - `garbage`: random bytes (never a frame header) before the next answers;
 * - `split`: the next answers arrive in small pieces with gaps (the framer must reassemble);
 * - `silence`: the next commands get no answer at all;
 * - `slow`: the next answers come `ms` late.
 * `times` bounds how many answers (or commands, for the input faults) are affected; without it the
 * fault stays until cleared. Cable pulls are not faults here: see `disconnect()` on the simulators.
 */
import { randomBytes } from 'node:crypto'
import { crc16 } from '../../device/neo2'

export type PinpadFault =
  | { kind: 'crcError' }
  | { kind: 'crcStatus' }
  | { kind: 'garbage'; bytes?: number }
  | { kind: 'split'; chunkBytes?: number; gapMs?: number }
  | { kind: 'silence' }
  | { kind: 'slow'; ms: number }

export type PinpadFaultKind = PinpadFault['kind']
export const PINPAD_FAULT_KINDS: readonly PinpadFaultKind[] = ['crcError', 'crcStatus', 'garbage', 'split', 'silence', 'slow']

const INPUT_FAULTS: ReadonlySet<PinpadFaultKind> = new Set(['crcStatus', 'silence'])

interface Rule {
  fault: PinpadFault
  times: number | undefined
}

/** One piece of output: bytes to write after `delayMs`. */
export interface OutputPiece {
  bytes: Buffer
  delayMs: number
}

export class EmulatorFaults {
  private readonly rules: Rule[] = []

  add(fault: PinpadFault, times?: number): void {
    if (times !== undefined && (!Number.isSafeInteger(times) || times < 1))
      throw new RangeError(`times must be a whole number of at least 1, got ${times}`)
    this.rules.push({ fault, times })
  }

  clear(): void {
    this.rules.length = 0
  }

  /** The fault for an incoming command (silence wins over crcStatus), counting it. */
  takeInput(): 'silence' | 'crcStatus' | undefined {
    const rule = this.rules.find((r) => r.fault.kind === 'silence') ?? this.rules.find((r) => INPUT_FAULTS.has(r.fault.kind))
    if (!rule) return undefined
    this.count(rule)
    return rule.fault.kind as 'silence' | 'crcStatus'
  }

  /** Turns one answer frame into what goes on the wire, counting every output fault applied. */
  shape(frame: Buffer): OutputPiece[] {
    let bytes = frame
    let delayMs = 0
    let pieces: OutputPiece[] | undefined
    for (const rule of this.rules.filter((r) => !INPUT_FAULTS.has(r.fault.kind))) {
      const fault = rule.fault
      if (fault.kind === 'slow') delayMs += fault.ms
      else if (fault.kind === 'crcError') bytes = corruptCrc(bytes)
      else if (fault.kind === 'garbage') bytes = Buffer.concat([noise(fault.bytes ?? 7), bytes])
      else if (fault.kind === 'split') pieces = split(bytes, fault.chunkBytes ?? 3, fault.gapMs ?? 5)
      this.count(rule)
    }
    const out = pieces ?? [{ bytes, delayMs: 0 }]
    if (out[0]) out[0].delayMs += delayMs
    return out
  }

  private count(rule: Rule): void {
    if (rule.times === undefined) return
    rule.times -= 1
    if (rule.times <= 0) this.rules.splice(this.rules.indexOf(rule), 1)
  }
}

/** Random bytes without 'V' (0x56), so no frame header can appear in them. */
function noise(count: number): Buffer {
  return Buffer.from(randomBytes(count).map((b) => (b === 0x56 ? 0x00 : b)))
}

/** A CRC that matches in neither byte order (the agent accepts both, D1.2). */
function corruptCrc(frame: Buffer): Buffer {
  const out = Buffer.from(frame)
  const at = out.length - 2
  const good = crc16(out, 0, at)
  for (let flip = 1; flip < 0x10000; flip++) {
    const bad = good ^ flip
    const swapped = ((bad & 0xff) << 8) | (bad >> 8)
    if (swapped !== good) {
      out.writeUInt16BE(bad, at)
      return out
    }
  }
  return out
}

function split(bytes: Buffer, size: number, gapMs: number): OutputPiece[] {
  const pieces: OutputPiece[] = []
  for (let at = 0; at < bytes.length; at += Math.max(1, size))
    pieces.push({ bytes: bytes.subarray(at, at + Math.max(1, size)), delayMs: at === 0 ? 0 : gapMs })
  return pieces
}
