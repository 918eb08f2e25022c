/** Drives a Neo2Framer in tests: manual timers, collected frames and bad-frame events. */
import { Neo2Framer } from '../../../../src-main/device/neo2/neo2-framer'
import type { FramerTimers, Neo2BadFrame, Neo2FramerOptions } from '../../../../src-main/device/neo2/neo2-framer'
import type { Neo2ReceivedFrame } from '../../../../src-main/device/neo2/neo2-frame'

/** A timer port whose single pending timer fires only when the test says so. */
export class ManualTimers implements FramerTimers {
  private pending: { callback: () => void; ms: number; id: number } | undefined
  private nextId = 1
  set(callback: () => void, ms: number): unknown {
    const id = this.nextId++
    this.pending = { callback, ms, id }
    return id
  }
  clear(handle: unknown): void {
    if (this.pending?.id === handle) this.pending = undefined
  }
  get armedMs(): number | undefined {
    return this.pending?.ms
  }
  fire(): void {
    const pending = this.pending
    this.pending = undefined
    pending?.callback()
  }
}

export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export class FramerHarness {
  readonly timers = new ManualTimers()
  readonly framer: Neo2Framer
  readonly frames: Neo2ReceivedFrame[] = []
  readonly bad: Neo2BadFrame[] = []
  readonly errors: unknown[] = []

  constructor(options: Neo2FramerOptions = {}) {
    this.framer = new Neo2Framer({ timers: this.timers, ...options })
    this.framer.on('data', (frame: Neo2ReceivedFrame) => this.frames.push(frame))
    this.framer.onBadFrame((bad) => this.bad.push(bad))
    this.framer.on('error', (error) => this.errors.push(error))
  }

  async write(...chunks: Uint8Array[]): Promise<void> {
    for (const chunk of chunks) this.framer.write(chunk)
    await settle()
  }

  async end(): Promise<void> {
    const ended = new Promise<void>((resolve) => this.framer.once('end', resolve))
    this.framer.end()
    await ended
  }

  reasons(): string[] {
    return this.bad.map((b) => b.reason)
  }
}
