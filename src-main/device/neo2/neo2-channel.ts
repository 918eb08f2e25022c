/**
 * The command channel: one command outstanding at a time, answered by the response frame with the
 * same command byte (docs/neo2-protocol.md §13). Policy (docs/device-protocol.md §7, D7.13-D7.16):
 * - every command has its own timeout; silence or a corrupt answer is retried only for commands
 *   marked idempotent (`retriesOnSilence`); 02-40, 60-1x and 62-01 never are (docs/neo2-protocol.md §10);
 * - status 04 (the reader saw a CRC error in our frame, so nothing started) is resent
 *   `retriesOnCrcError` times (default once);
 * - status 0E (UI event) and 0x63 (OK, next command) are intermediate: the command stays outstanding;
 *   every other status ends it, 80 and 81 included (D2.1);
 * - 62-xx answer twice: an empty ACK, then the result (IDG p.346);
 * - an interrupt (05-01 during 02-40, 62-00 during 62-01) may be sent while a command is outstanding;
 *   after its reply the interrupted command gets `abortGraceMs` for its own late reply, and nothing
 *   else is sent before both are settled (IDG p.242: wait for the 05 reply; §5: both orders happen).
 */
import { BOOT_NOTIFICATION_COMMAND } from './neo2-commands'
import type { Neo2ReceivedFrame, Neo2ResponseFrame } from './neo2-frame'
import { encodeNeo2Frame } from './neo2-frame'
import type { Neo2BadFrame } from './neo2-framer'
import { describeNeo2Status } from './neo2-status'
import { ReaderError } from '../reader-error'
import type { ReaderLog } from './reader-log'
import { hexByte } from './reader-log'

export interface CommandRequest {
  /** For logs, e.g. "02-40". */
  name: string
  command: number
  subCommand: number
  data?: Buffer
  timeoutMs: number
  /** Resends after silence or a corrupt answer: idempotent commands only. Default 0. */
  retriesOnSilence?: number
  /** Resends after status 04. Default 1. */
  retriesOnCrcError?: number
  /** 62-xx: an empty ACK first, then the answer within `timeoutMs` (docs/neo2-protocol.md §6.1). */
  secondaryResponse?: { timeoutMs: number; onAck?: () => void }
  /** Checked when the command's turn comes: true = do not send, fail with `cancelled` (a cancel raced the queue). */
  abandonIf?: () => boolean
}

export interface ChannelHooks {
  write(bytes: Buffer): Promise<void>
  onUiEvent(data: Buffer, command: number): void
  onBoot(): void
  log: ReaderLog
  /** How long an interrupted command may still answer after the interrupt's reply (D7.15). */
  abortGraceMs: number
}

interface Pending {
  request: CommandRequest
  bytes: Buffer
  resolve(frame: Neo2ResponseFrame): void
  reject(error: Error): void
  silenceLeft: number
  crcLeft: number
  acked: boolean
  /** An interrupt was answered: this command now only waits out the grace period. */
  aborted: boolean
  timer?: ReturnType<typeof setTimeout> | undefined
  settled: boolean
}

const STATUS_OK_NEXT_COMMAND = 0x63

export class Neo2Channel {
  private chain: Promise<unknown> = Promise.resolve()
  private main: Pending | undefined
  private interrupting: Pending | undefined
  private deferredInterrupt: Pending | undefined
  private interruptDone: Promise<void> = Promise.resolve()
  private interruptPromise: Promise<Neo2ResponseFrame> | undefined

  constructor(private readonly hooks: ChannelHooks) {}

  /** The outstanding command's name, if any. */
  get outstanding(): string | undefined {
    return this.main?.request.name
  }

  send(request: CommandRequest): Promise<Neo2ResponseFrame> {
    const run = this.chain.then(() => this.start(request))
    // The next command waits for this one and for any interrupt still in flight.
    this.chain = run.catch(() => undefined).then(() => this.interruptDone)
    return run
  }

  /** Sends now if a command is outstanding (after the ACK for 62-xx), else queues like `send`. */
  interrupt(request: CommandRequest): Promise<Neo2ResponseFrame> {
    const main = this.main
    if (!main || main.settled) return this.send(request)
    if (this.interruptPromise) return this.interruptPromise
    const { pending, promise } = this.pending(request)
    this.interruptPromise = promise
    promise.then(
      () => (this.interruptPromise = undefined),
      () => (this.interruptPromise = undefined),
    )
    let done = (): void => undefined
    this.interruptDone = new Promise<void>((resolve) => (done = resolve))
    promise.then(done, done)
    if (main.request.secondaryResponse && !main.acked) this.deferredInterrupt = pending
    else this.transmitInterrupt(pending)
    return promise
  }

  receive(frame: Neo2ReceivedFrame): void {
    if (frame.kind !== 'response') return
    if (frame.command === BOOT_NOTIFICATION_COMMAND) return this.hooks.onBoot()
    const interrupt = this.interrupting
    if (interrupt && this.answersInterrupt(interrupt, frame)) return this.settleInterrupt(interrupt, frame)
    if (frame.status === 0x0e) return this.hooks.onUiEvent(frame.data, frame.command)
    const main = this.main
    if (main && frame.command === main.request.command) return this.answer(main, frame)
    this.hooks.log.debug(
      { command: hexByte(frame.command), status: hexByte(frame.status), length: frame.data.length },
      'card reader frame nobody waits for',
    )
  }

  badFrame(bad: Neo2BadFrame): void {
    const fields = { reason: bad.reason, length: bad.length, command: bad.command === undefined ? undefined : hexByte(bad.command) }
    if (bad.reason === 'noise') return this.hooks.log.debug(fields, 'card reader noise skipped')
    this.hooks.log.warn(fields, 'bad frame from the card reader')
    // A corrupt 0E is only a lost prompt; a corrupt answer is a lost answer.
    if (bad.code === 0x0e || bad.command === undefined) return
    const target = [this.interrupting, this.main].find((p) => p && !p.settled && p.request.command === bad.command)
    if (!target) return
    if (target.silenceLeft > 0) {
      target.silenceLeft--
      this.transmit(target)
    } else this.fail(target, new ReaderError('corruptResponse', `answer to ${target.request.name}`))
  }

  /** The link is gone: every outstanding command fails now (queued ones fail on write). */
  failAll(error: Error): void {
    for (const pending of [this.deferredInterrupt, this.interrupting, this.main]) if (pending) this.fail(pending, error)
  }

  private pending(request: CommandRequest): { pending: Pending; promise: Promise<Neo2ResponseFrame> } {
    let resolve!: (frame: Neo2ResponseFrame) => void
    let reject!: (error: Error) => void
    const promise = new Promise<Neo2ResponseFrame>((res, rej) => ((resolve = res), (reject = rej)))
    const bytes = encodeNeo2Frame({
      kind: 'command',
      command: request.command,
      subCommand: request.subCommand,
      data: request.data ?? Buffer.alloc(0),
    })
    const pending: Pending = {
      request,
      bytes,
      resolve,
      reject,
      silenceLeft: request.retriesOnSilence ?? 0,
      crcLeft: request.retriesOnCrcError ?? 1,
      acked: false,
      aborted: false,
      settled: false,
    }
    return { pending, promise }
  }

  private start(request: CommandRequest): Promise<Neo2ResponseFrame> {
    if (request.abandonIf?.()) return Promise.reject(new ReaderError('cancelled', `${request.name} not sent`))
    const { pending, promise } = this.pending(request)
    this.main = pending
    this.transmit(pending)
    return promise
  }

  private transmitInterrupt(pending: Pending): void {
    this.interrupting = pending
    this.transmit(pending)
  }

  /** Arms the timer before writing: the frame takes milliseconds at 115200 baud, timeouts are seconds. */
  private transmit(pending: Pending): void {
    this.arm(
      pending,
      pending.acked && pending.request.secondaryResponse ? pending.request.secondaryResponse.timeoutMs : pending.request.timeoutMs,
    )
    this.hooks.log.debug({ command: pending.request.name, length: pending.request.data?.length ?? 0 }, 'card reader command sent')
    this.hooks.write(pending.bytes).catch((error: unknown) => this.fail(pending, error instanceof Error ? error : new Error(String(error))))
  }

  private arm(pending: Pending, ms: number): void {
    if (pending.timer) clearTimeout(pending.timer)
    pending.timer = setTimeout(() => {
      pending.timer = undefined
      if (pending.aborted) this.fail(pending, new ReaderError('cancelled', `${pending.request.name} gave no answer after the interrupt`))
      else if (pending.silenceLeft > 0) {
        pending.silenceLeft--
        this.hooks.log.warn({ command: pending.request.name }, 'card reader silent, resending')
        this.transmit(pending)
      } else this.fail(pending, new ReaderError('deviceNotResponding', `no answer to ${pending.request.name} within ${ms} ms`))
    }, ms)
  }

  private answer(main: Pending, frame: Neo2ResponseFrame): void {
    if (frame.status === STATUS_OK_NEXT_COMMAND || describeNeo2Status(frame.status).kind === 'event') {
      this.hooks.log.debug({ command: main.request.name, status: hexByte(frame.status) }, 'intermediate card reader status')
      return
    }
    if (frame.status === 0x04 && main.crcLeft > 0) {
      main.crcLeft--
      this.hooks.log.warn({ command: main.request.name }, 'card reader saw a CRC error in our frame, resending')
      return this.transmit(main)
    }
    const second = main.request.secondaryResponse
    if (second && !main.acked && frame.status === 0x00 && frame.data.length === 0) {
      main.acked = true
      this.arm(main, second.timeoutMs)
      second.onAck?.()
      const deferred = this.deferredInterrupt
      this.deferredInterrupt = undefined
      if (deferred && !deferred.settled) this.transmitInterrupt(deferred)
      return
    }
    this.settle(main, frame)
  }

  /** 05-01 answers with command 05; 62-00 with an empty 62 frame (the 62-01 result always has data). */
  private answersInterrupt(interrupt: Pending, frame: Neo2ResponseFrame): boolean {
    if (frame.command !== interrupt.request.command || frame.status === 0x0e) return false
    return interrupt.request.command !== this.main?.request.command || frame.data.length === 0
  }

  private settleInterrupt(interrupt: Pending, frame: Neo2ResponseFrame): void {
    this.settle(interrupt, frame)
    const main = this.main
    if (!main || main.settled) return
    main.aborted = true
    this.arm(main, this.hooks.abortGraceMs)
  }

  private settle(pending: Pending, frame: Neo2ResponseFrame): void {
    if (pending.settled) return
    this.finish(pending)
    pending.resolve(frame)
  }

  private fail(pending: Pending, error: Error): void {
    if (pending.settled) return
    this.finish(pending)
    pending.reject(error)
  }

  private finish(pending: Pending): void {
    pending.settled = true
    if (pending.timer) clearTimeout(pending.timer)
    pending.timer = undefined
    if (this.interrupting === pending) this.interrupting = undefined
    if (this.deferredInterrupt === pending) this.deferredInterrupt = undefined
    if (this.main === pending) {
      this.main = undefined
      // A 62-00 waiting for an ACK that never came still goes out: its caller awaits the reply.
      const deferred = this.deferredInterrupt
      this.deferredInterrupt = undefined
      if (deferred) this.transmitInterrupt(deferred)
    }
  }
}
