/**
 * The simulated PIN pad's way out: answers are encoded, shaped by the active faults (slow, split,
 * garbage, bad CRC) and written in order, each piece after its delay. Also owns the emulator's timers,
 * so a detach (cable pulled) or reset stops everything at once.
 */
import { encodeNeo2Frame } from '../../device/neo2'
import type { EmulatorFaults } from './emulator-faults'

export type Timer = ReturnType<typeof setTimeout>

export class EmulatorOutput {
  private send: ((bytes: Buffer) => void) | undefined
  private chain: Promise<void> = Promise.resolve()
  private readonly timers = new Set<Timer>()

  constructor(private readonly faults: EmulatorFaults) {}

  get attached(): boolean {
    return this.send !== undefined
  }

  attach(send: (bytes: Buffer) => void): void {
    this.send = send
  }

  detach(): void {
    this.send = undefined
    this.stopTimers()
  }

  /** A response frame (CRC MSB first), through the faults, after everything sent before it. */
  reply(command: number, status: number, data: Buffer = Buffer.alloc(0)): void {
    const pieces = this.faults.shape(encodeNeo2Frame({ kind: 'response', command, status, data }))
    const send = this.send
    this.chain = this.chain.then(async () => {
      for (const piece of pieces) {
        if (piece.delayMs > 0) await new Promise((resolve) => this.later(piece.delayMs, () => resolve(undefined)))
        if (this.send === send) send?.(piece.bytes)
      }
    })
  }

  later(ms: number, run: () => void): Timer {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      run()
    }, ms)
    this.timers.add(timer)
    return timer
  }

  cancel(timer: Timer | undefined): void {
    if (!timer) return
    clearTimeout(timer)
    this.timers.delete(timer)
  }

  stopTimers(): void {
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    // A cleared timer may have been an output delay: start a fresh output chain.
    this.chain = Promise.resolve()
  }
}
