/**
 * The agent as a ZVT payment terminal (PA00P015 rev. 13): each command a register sends becomes the
 * contract operation the local API would call, through the application layer as the `zvt` door with
 * the scopes the terminal's ZVT configuration grants, so a ZVT payment is a sale like any other:
 * journaled, on the cashier screen, reversed when the bank's answer does not come (docs/zvt.md).
 *
 * - Registration `06 00` (password, config byte, currency) → `80 00 00`, `06 0F`.
 * - Authorization `06 01` → startSale; `04 FF` for the reader's prompts when the register asked for
 *   them (again every few seconds while one stays, so the register's T4 does not run out), `04 0F` with the outcome, then `06 0F`, or `06 1E <result>` when it did not go through.
 * - Reversal `06 30` (password, BMP 87 receipt number) → voidSale of that sale; a second reversal of
 *   the same receipt answers as the first did, without a second void.
 * - Pre-authorisation `06 22` → startSale as `06 01`; its reversal `06 25` → as `06 30`. Book Total
 *   `06 24` (final amount) and Book Tip `06 0C` (tip) → adjustTip of that payment, then `04 0F`, `06 0F`.
 * - Refund `06 31` (password, amount) → startReturn without a sale, within the terminal's limits.
 * - End-of-Day `06 50` (password) → closeDay, the grand total and BMP 60's totals by card group in
 *   `04 0F`; Send Offline Transactions `06 51` → forwardNow; Send Turnover Totals `06 10` (password)
 *   → the open batch's totals.
 * - Status Enquiry `05 01` → `06 0F` with the software version and whether a payment runs, after a
 *   `04 0F` (result 05) for each payment approved offline that the bank declined when forwarded.
 * - Abort `06 B0` → cancelSale of the payment still at the counter; Log-Off `06 02` → `80 00 00`.
 * - A register that prints receipts (config byte bit 1) gets the receipt's lines after `04 0F`:
 *   `06 D1` each, or one `06 D3` (bit 7). Repeat Receipt `06 20` (password) → as `84 9C`, acknowledged.
 * - `84 9C` on its own → the last status information again, built from the journal (after a
 *   reconnect or a restart too): a register that lost the answer finds it without a second charge.
 * - Anything else → `84 83 00`; bytes that do not parse → `84 9A 00`.
 * Each ZVT sale has the next number of this terminal (zvt-numbers.ts).
 */
import type { Logger } from 'pino'
import type { DayReportView, OperationName, OperationRequest, OperationResults, PosEvent, SaleView } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import type { Caller, TokenGrant } from '../service'
import { apdu, controlOf, type Apdu } from './zvt-apdu'
import { decodeBcdNumber, encodeAmount, encodeBcd } from './zvt-bcd'
import { bmp, encodeBmps, findBmp, type Bmp } from './zvt-bmp'
import { decodeBody, encodeVersion } from './zvt-body'
import { describeDecodeError, resultCodeOf, ZVT_FUNCTION_NOT_POSSIBLE, type ZvtDecodeError } from './zvt-decode-error'
import { numberedSales, ZvtNumbers } from './zvt-numbers'
import { ZvtPasswordGuard } from './zvt-password'
import { printLines, printTextBlock, receiptsOf, RECEIPT_WIDTH } from './zvt-receipt'
import type { ZvtSession } from './zvt-session'
import {
  CURRENCY_NUMBERS,
  intermediateStatusOf,
  receiptOf,
  RESULT,
  resultCodeOfSale,
  statusInformation,
  type StatusContext,
} from './zvt-status'
import { encodeIndividualTotals, individualTotals } from './zvt-totals'

/** What the terminal needs of the agent: the application layer's typed call and its events. */
export interface ZvtService {
  call<K extends OperationName>(caller: Caller, operation: K, request: OperationRequest<K>): Promise<OperationResults[K]>
  on(event: 'event', listener: (event: PosEvent) => void): unknown
  off(event: 'event', listener: (event: PosEvent) => void): unknown
}

export interface ZvtTerminalOptions {
  service: ZvtService
  /** The terminal's ZVT password, six digits, from the keychain. */
  password: string
  /** What a register may do (docs/zvt.md): `sell` pays, reverses and closes the day; `refund` refunds. */
  grant: TokenGrant
  terminalId: string
  merchantId: string
  currency: string
  training: boolean
  version: string
  logger: Logger
  /** The clock (tests pass their own). */
  now?: () => number
  /** How often the current `04 FF` is sent again while a payment waits (default STATUS_REPEAT_MS). */
  statusRepeatMs?: number
  /** Characters per line of the register's receipt printer (`zvt.receiptWidth`; RECEIPT_WIDTH unless set). */
  receiptWidth?: number
}

/** What a register chose at Registration (PA00P015 §2.1, config byte). */
interface Registration {
  /** Bit 3 (08): the register wants the intermediate statuses `04 FF`. */
  intermediateStatus: boolean
  /** Bit 1 (02): the register prints the payment receipts, so the terminal sends it their lines. */
  printsReceipts: boolean
  /** Bit 7 (80): the register takes a receipt as one text block `06 D3` rather than `06 D1` lines. */
  textBlocks: boolean
}

const ack = (): Apdu => apdu(0x80, 0x00)
const nak = (code: number): Apdu => apdu(0x84, code)
const completion = (data: Uint8Array | number[] = []): Apdu => apdu(0x06, 0x0f, data)
const abort = (code: number): Apdu => apdu(0x06, 0x1e, [code])

/**
 * A register restarts its T4 timer (waiting for the terminal's result) on every intermediate status
 * (PA00P016 §5.2.6), so a terminal whose customer is slow at the reader or the PIN pad says its prompt
 * again well inside T4, not only when the prompt changes: otherwise the register gives the payment up
 * while the card is still being read.
 */
const STATUS_REPEAT_MS = 5_000

/** How long a command waits for the card reader to finish the last customer before it is refused. */
const READER_WAIT_MS = 10_000

export class ZvtTerminal {
  private readonly passwords: ZvtPasswordGuard
  private readonly registrations = new Map<string, Registration>()
  /** The sale a command is running (one at a time on a terminal, as on a card reader). */
  private running: string | undefined
  private busy = false
  private queue: Promise<void> = Promise.resolve()
  private readonly numbers: ZvtNumbers
  /** Later declines of stored payments already told to a register at a status enquiry. */
  private readonly declinesTold = new Set<string>()

  constructor(private readonly options: ZvtTerminalOptions) {
    this.passwords = new ZvtPasswordGuard(options.password, options.now)
    this.numbers = new ZvtNumbers(options.service)
  }

  /** Bytes that did not parse: a negative acknowledgement, never a crash. */
  malformed(session: ZvtSession, error: ZvtDecodeError): void {
    this.options.logger.warn({ register: session.register, problem: describeDecodeError(error) }, 'a ZVT message did not parse')
    session.reply(nak(resultCodeOf(error)))
  }

  /** One APDU from a register; never throws. */
  async receive(session: ZvtSession, message: Apdu): Promise<void> {
    if (session.settles(message)) return
    try {
      await this.command(session, message)
    } catch (error) {
      this.options.logger.error({ err: error, register: session.register, control: controlOf(message).toString(16) }, 'ZVT command failed')
      session.reply(nak(RESULT.systemError))
    }
  }

  private caller(session: ZvtSession): Caller {
    return { door: 'zvt', token: this.options.grant, register: session.register }
  }

  private async command(session: ZvtSession, message: Apdu): Promise<void> {
    const control = controlOf(message)
    const body = decodeBody(message)
    if (!body.ok) return this.malformed(session, body.error)
    const { prefix, fields } = body.value
    switch (control) {
      case 0x0600:
        return this.register(session, prefix)
      case 0x0501:
        return this.status(session)
      case 0x0602:
        this.registrations.delete(session.register)
        return session.reply(ack())
      case 0x06b0:
        return this.abort(session)
      case 0x849c:
        return this.repeat(session, false)
      case 0x0620:
        return this.passwordOk(session, prefix) ? this.repeat(session, true) : undefined
      case 0x0650:
        return this.passwordOk(session, prefix) ? this.endOfDay(session) : undefined
      case 0x0651:
        return this.forward(session)
      case 0x0610:
        return this.passwordOk(session, prefix) ? this.turnover(session) : undefined
      case 0x0601:
      case 0x0622:
      case 0x0630:
      case 0x0625:
      case 0x0631:
        break
      case 0x0624:
      case 0x060c:
        return this.exclusive(() => this.bookTip(session, control, fields))
      default:
        return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    }
    if (control !== 0x0601 && control !== 0x0622 && !this.passwordOk(session, prefix)) return
    const amount = findBmp(fields, 0x04)
    const currency = findBmp(fields, 0x49)
    if (currency !== undefined && !this.ourCurrency(currency.value)) return session.reply(nak(RESULT.wrongCurrency))
    return this.exclusive(async () => {
      if (control === 0x0630 || control === 0x0625) {
        const receipt = findBmp(fields, 0x87)
        const number = receipt && decodeBcdNumber(receipt.value, 'receipt number')
        if (!number?.ok) return session.reply(nak(resultCodeOf({ kind: 'malformed', what: 'Reversal', detail: 'no receipt number' })))
        return await this.reverse(session, number.value)
      }
      const minor = amount && decodeBcdNumber(amount.value, 'amount')
      if (!minor?.ok || minor.value === 0) return session.reply(nak(resultCodeOf({ kind: 'malformed', what: 'amount', detail: 'missing' })))
      return await this.pay(session, control === 0x0631 ? 'refund' : 'sale', minor.value)
    })
  }

  /**
   * One transaction at a time on the terminal, as on its card reader: a command that comes while
   * another runs waits for it to end (a register sends its next command the moment it acknowledged
   * the last answer, before the terminal has put the last one away).
   */
  private exclusive(run: () => Promise<void>): Promise<void> {
    const next = this.queue.then(async () => {
      this.busy = true
      try {
        await run()
      } finally {
        this.busy = false
        this.running = undefined
      }
    })
    this.queue = next.catch(() => undefined)
    return next
  }

  // ---- commands -------------------------------------------------------------------------------

  private async register(session: ZvtSession, prefix: Uint8Array): Promise<void> {
    if (!this.passwordOk(session, prefix.subarray(0, 3))) return
    if (prefix.length >= 6 && !this.ourCurrency(prefix.subarray(4, 6))) return session.reply(nak(RESULT.wrongCurrency))
    const config = prefix[3] ?? 0
    this.registrations.set(session.register, {
      intermediateStatus: (config & 0x08) !== 0,
      printsReceipts: (config & 0x02) !== 0,
      textBlocks: (config & 0x80) !== 0,
    })
    session.reply(ack())
    const fields = [bmp(0x19, [0x00])]
    if (/^\d{1,8}$/.test(this.options.terminalId)) fields.push(bmp(0x29, encodeBcd(this.options.terminalId, 4)))
    const currency = CURRENCY_NUMBERS[this.options.currency]
    if (currency !== undefined) fields.push(bmp(0x49, encodeBcd(currency, 2)))
    await session.deliver(completion(encodeBmps(fields)))
  }

  /**
   * Status Enquiry: answered at any time, a payment running or not. A payment approved offline that
   * the bank then declined when it was forwarded comes first, as its status information with result
   * `05`: the register told "approved" learns the money was not received (once for each such payment
   * while the agent runs; again once after a restart, as the journal still has it).
   */
  private async status(session: ZvtSession): Promise<void> {
    session.reply(ack())
    for (const declined of await this.laterDeclines(session)) {
      this.declinesTold.add(declined.sale.id)
      // Told as the decline it is for the register; the journal keeps it for a manager (needsAttention).
      await session.deliver(statusInformation({ ...declined.sale, state: 'declined' }, this.context(declined.sale, declined.number)))
    }
    // Terminal status byte (PA00P015 chapter 10): 00 ready, 9C "please wait" while a payment runs.
    const state = this.busy ? 0x9c : 0x00
    await session.deliver(completion([...encodeVersion(`pos-agent ${this.options.version}`), state]))
  }

  private async abort(session: ZvtSession): Promise<void> {
    const id = this.running
    if (id === undefined) return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    session.reply(ack())
    // Refused when the payment is already with the bank: its own answer then says how it ended.
    await this.options.service.call(this.caller(session), 'cancelSale', { id }).catch((error: unknown) => {
      this.options.logger.info({ sale: id, code: error instanceof PosError ? error.code : 'INTERNAL' }, 'ZVT abort came too late')
    })
  }

  private async pay(session: ZvtSession, kind: 'sale' | 'refund', amountMinor: number): Promise<void> {
    const caller = this.caller(session)
    if (!(await this.readerFree(caller))) return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    const number = await this.numbers.next(caller)
    const reference = `zvt:${number}`
    let started: SaleView
    try {
      started =
        kind === 'sale'
          ? await this.options.service.call(caller, 'startSale', {
              amountMinor,
              currency: this.options.currency,
              reference,
              amountConfirmed: true,
            })
          : await this.options.service.call(caller, 'startReturn', { amountMinor, currency: this.options.currency, reference })
    } catch (error) {
      this.options.logger.info(
        { register: session.register, code: error instanceof PosError ? error.code : 'INTERNAL', kind },
        'ZVT payment refused',
      )
      return session.reply(nak(refusalCode(error)))
    }
    session.reply(ack())
    this.running = started.id
    const sale = await this.follow(session, started.id, (s) => resultCodeOfSale(s) !== undefined)
    await this.finish(session, sale, number)
  }

  private async reverse(session: ZvtSession, receipt: number): Promise<void> {
    const caller = this.caller(session)
    const found = await this.numbers.saleOfReceipt(caller, receipt)
    const original = found?.sale
    if (original === undefined) return session.reply(nak(RESULT.reversalNotPossible))
    // The same reversal again (the register lost the answer): answered as the first, nothing voided twice.
    if (original.state === 'cancelPending' || original.state === 'cancelled') {
      session.reply(ack())
      return this.finish(session, original, found!.number)
    }
    if (!(await this.readerFree(caller))) return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    let voiding: SaleView
    try {
      voiding = await this.options.service.call(caller, 'voidSale', { id: original.id })
    } catch (error) {
      return session.reply(nak(error instanceof PosError && error.code === 'FORBIDDEN' ? refusalCode(error) : RESULT.reversalNotPossible))
    }
    session.reply(ack())
    this.running = original.id
    // Done once the void is journaled, or once the card step it started is over without it (a look
    // at the sale before that step shows begins proves nothing).
    let reading = voiding.state === 'voidReadingCard'
    const after = await this.follow(session, original.id, (s) => {
      if (s.state === 'cancelPending' || s.state === 'cancelled') return true
      if (s.state === 'voidReadingCard') reading = true
      return reading && s.state !== 'voidReadingCard'
    })
    if (after.state === 'cancelPending' || after.state === 'cancelled') return this.finish(session, after, found!.number)
    await session.deliver(abort(RESULT.reversalNotPossible))
  }

  /**
   * Book Total `06 24` (BMP 87, BMP 04 the final amount) and Book Tip `06 0C` (BMP 87, BMP 04 the
   * tip): the tip of an authorised payment set as the service's restaurant mode sets it (`adjustTip`,
   * within the tip tolerance; a later one replaces it), captured with the payment. A final amount below
   * the authorised one is refused: a partial capture is not something the bank is asked for here.
   */
  private async bookTip(session: ZvtSession, control: number, fields: Bmp[]): Promise<void> {
    const caller = this.caller(session)
    const receipt = findBmp(fields, 0x87)
    const number = receipt && decodeBcdNumber(receipt.value, 'receipt number')
    const amount = findBmp(fields, 0x04)
    const minor = amount && decodeBcdNumber(amount.value, 'amount')
    if (!number?.ok || !minor?.ok)
      return session.reply(nak(resultCodeOf({ kind: 'malformed', what: 'Book Total', detail: 'no receipt number or amount' })))
    const found = await this.numbers.saleOfReceipt(caller, number.value)
    if (found === undefined || found.sale.kind === 'return' || resultCodeOfSale(found.sale) !== RESULT.approved)
      return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    const tipMinor = control === 0x0624 ? minor.value - found.sale.amountMinor : minor.value
    if (tipMinor < 0) return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    let after: SaleView
    try {
      after = await this.options.service.call(caller, 'adjustTip', { id: found.sale.id, tipMinor })
    } catch (error) {
      this.options.logger.info({ register: session.register, code: error instanceof PosError ? error.code : 'INTERNAL' }, 'ZVT tip refused')
      return session.reply(nak(refusalCode(error)))
    }
    session.reply(ack())
    await this.finish(session, after, found.number)
  }

  /**
   * End-of-Day `06 50`: the open batch closed (the register's password stands for the manager), then
   * `04 0F` with the day's grand total in the terminal's currency, and `06 0F`; a batch that cannot be
   * closed (nothing in it, or sales that need a manager first) ends with `06 1E 77`.
   */
  private endOfDay(session: ZvtSession): Promise<void> {
    return this.exclusive(async () => {
      const caller = this.caller(session)
      const open = await this.options.service.call(caller, 'dayReport', {})
      let report
      try {
        report = await this.options.service.call(caller, 'closeDay', { batch: open.batch.number })
      } catch (error) {
        this.options.logger.info({ code: error instanceof PosError ? error.code : 'INTERNAL' }, 'ZVT end of day refused')
        session.reply(ack())
        return void (await session.deliver(abort(RESULT.endOfDayNotPossible)))
      }
      session.reply(ack())
      await session.deliver(this.totals(report))
      await session.deliver(completion())
    })
  }

  /** Send Turnover Totals `06 10`: the open batch's totals as End-of-Day sends them, nothing closed. */
  private turnover(session: ZvtSession): Promise<void> {
    return this.exclusive(async () => {
      const report = await this.options.service.call(this.caller(session), 'dayReport', {})
      session.reply(ack())
      await session.deliver(this.totals(report))
      await session.deliver(completion())
    })
  }

  /** The open batch's ZVT payments stored offline and declined by the bank since, not yet told. */
  private async laterDeclines(session: ZvtSession): Promise<{ sale: SaleView; number: number }[]> {
    const sales = await this.numbers.openBatch(this.caller(session))
    return sales
      .filter(({ sale }) => sale.offline && sale.kind !== 'return' && sale.state === 'needsAttention' && !this.declinesTold.has(sale.id))
      .sort((a, b) => a.number - b.number)
  }

  /**
   * `04 0F` of a batch's totals: result 00, the grand total in the terminal's currency (payments and
   * tips less returns), time, date, and BMP 60: the payments by card group and the receipt numbers.
   */
  private totals(report: Pick<DayReportView, 'grandTotalMinor' | 'totals' | 'sales'>): Apdu {
    // The batch's ZVT payments and refunds, from the report's own list of its sales: BMP 60's first and last receipt.
    const receipts = numberedSales(report.sales).map(({ number }) => receiptOf(number))
    const total = report.grandTotalMinor[this.options.currency] ?? 0
    const at = new Date((this.options.now ?? Date.now)())
    const two = (n: number): string => String(n).padStart(2, '0')
    const fields = [
      bmp(0x27, [RESULT.approved]),
      bmp(0x04, encodeAmount(Math.max(0, total))),
      bmp(0x0c, encodeBcd(`${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`, 3)),
      bmp(0x0d, encodeBcd(`${two(at.getMonth() + 1)}${two(at.getDate())}`, 2)),
    ]
    const currency = CURRENCY_NUMBERS[this.options.currency]
    if (currency !== undefined) fields.push(bmp(0x49, encodeBcd(currency, 2)))
    fields.push(bmp(0x60, encodeIndividualTotals(individualTotals(report.totals, this.options.currency, receipts))))
    return apdu(0x04, 0x0f, encodeBmps(fields))
  }

  /** Send Offline Transactions `06 51`: the stored payments forwarded now ("forward now"), then `06 0F`. */
  private async forward(session: ZvtSession): Promise<void> {
    try {
      await this.options.service.call(this.caller(session), 'forwardNow', {})
    } catch (error) {
      return session.reply(nak(refusalCode(error)))
    }
    session.reply(ack())
    await session.deliver(completion())
  }

  /**
   * `84 9C` as a command, or Repeat Receipt `06 20` (which is acknowledged first): the last status
   * information again, as the journal has it now, with its receipt lines for a register that prints them.
   */
  private async repeat(session: ZvtSession, acknowledged: boolean): Promise<void> {
    const caller = this.caller(session)
    const sales = await this.numbers.openBatch(caller)
    const last = sales.sort((a, b) => b.number - a.number)[0]
    if (last === undefined || resultCodeOfSale(last.sale) === undefined) return session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    if (acknowledged) session.reply(ack())
    await this.finish(session, last.sale, last.number)
  }

  // ---- the outcome ----------------------------------------------------------------------------

  /** The status information of a sale that ended for the register, then Completion or Abort. */
  private async finish(session: ZvtSession, sale: SaleView, number: number): Promise<void> {
    const code = resultCodeOfSale(sale) ?? RESULT.systemError
    const context = this.context(sale, number)
    await session.deliver(statusInformation(sale, context))
    const registration = this.registrations.get(session.register)
    if (registration?.printsReceipts === true)
      for (const { copy, lines } of receiptsOf(sale, context, this.options.receiptWidth ?? RECEIPT_WIDTH)) {
        if (registration.textBlocks) await session.deliver(printTextBlock(lines, copy))
        else for (const line of printLines(lines)) await session.deliver(line)
      }
    await session.deliver(code === RESULT.approved ? completion() : abort(code))
  }

  private context(sale: SaleView, number: number): StatusContext {
    const at = new Date(sale.updatedAt)
    return {
      number,
      terminalId: this.options.terminalId,
      merchantId: this.options.merchantId,
      at: { month: at.getMonth() + 1, day: at.getDate(), hours: at.getHours(), minutes: at.getMinutes(), seconds: at.getSeconds() },
      training: this.options.training,
    }
  }

  /** The sale once `done` holds, telling the register the reader's prompts on the way when it asked for them. */
  private follow(session: ZvtSession, id: string, done: (sale: SaleView) => boolean): Promise<SaleView> {
    const { service } = this.options
    const wants = this.registrations.get(session.register)?.intermediateStatus === true
    let shown: number | undefined
    let lastSent: number | undefined
    // A repeat waits for the last `04 FF`'s acknowledgement, so a slow register is never sent a pile.
    let unacknowledged = false
    const tell = (prompt: number): void => {
      unacknowledged = true
      void session.deliver(apdu(0x04, 0xff, [prompt])).finally(() => (unacknowledged = false))
    }
    const repeat = wants
      ? setInterval(() => {
          if (shown !== undefined && !unacknowledged && session.connected) tell(shown)
        }, this.options.statusRepeatMs ?? STATUS_REPEAT_MS)
      : undefined
    return new Promise<SaleView>((resolve) => {
      const look = (sale: SaleView): void => {
        if (done(sale)) {
          clearInterval(repeat)
          service.off('event', listener)
          return resolve(sale)
        }
        const prompt = intermediateStatusOf(sale.state)
        shown = wants ? prompt : undefined
        if (wants && prompt !== undefined && prompt !== lastSent && session.connected) {
          lastSent = prompt
          tell(prompt)
        }
      }
      const listener = (event: PosEvent): void => {
        if (event.type === 'sale' && event.sale.id === id) look(event.sale)
      }
      service.on('event', listener)
      service.call(this.caller(session), 'getSale', { id }).then(look, () => undefined)
    })
  }

  // ---- checks ---------------------------------------------------------------------------------

  /**
   * Waits while the card reader finishes the last customer (its prompt cleared, the card taken): a
   * register sends its next command the moment it has the last answer, and a sale started then would
   * only be stopped as "reader busy". False when it is still busy after READER_WAIT_MS.
   */
  private async readerFree(caller: Caller): Promise<boolean> {
    const until = (this.options.now ?? Date.now)() + READER_WAIT_MS
    for (;;) {
      const device = await this.options.service.call(caller, 'deviceStatus', {})
      if (!device.busy) return true
      if ((this.options.now ?? Date.now)() > until) return false
      // An in-process look: asking often costs nothing, and a free reader is used the moment it is.
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  private passwordOk(session: ZvtSession, sent: Uint8Array): boolean {
    const check = this.passwords.check(session.register, sent)
    if (check === 'ok') return true
    this.options.logger.warn({ register: session.register, check }, 'a ZVT register sent a wrong password')
    session.reply(nak(ZVT_FUNCTION_NOT_POSSIBLE))
    return false
  }

  private ourCurrency(code: Uint8Array): boolean {
    const number = decodeBcdNumber(code, 'currency')
    return number.ok && number.value === CURRENCY_NUMBERS[this.options.currency]
  }
}

/** A refusal of the service as the result code a register shows. */
function refusalCode(error: unknown): number {
  if (!(error instanceof PosError)) return RESULT.systemError
  const code = REFUSALS[error.code]
  return code ?? ZVT_FUNCTION_NOT_POSSIBLE
}

/** The service's refusals a register has a word for (PA00P015 chapter 10); the rest are "function not possible". */
const REFUSALS: Partial<Record<string, number>> = {
  AMOUNT_TOO_LARGE: RESULT.maximumExceeded,
  AMOUNT_ABOVE_LIMIT: RESULT.maximumExceeded,
  RETURN_ABOVE_LIMIT: RESULT.maximumExceeded,
  CURRENCY_NOT_ACCEPTED: RESULT.wrongCurrency,
}
