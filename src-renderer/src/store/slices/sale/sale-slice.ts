/**
 * The sale on the counter: the amount being keyed, starting the sale (one press, one sale), the
 * question before a large amount, cancel while the card is read, the duplicate question, and
 * training-mode test cards.
 */
import type { PosErrorView } from '../../../../../src-shared/contract'
import { appendDigits, appendPoint, entryAfterEdit, entryFromText, eraseLastDigit } from '../../amount-entry'
import { adoptRunningSale, runningSale } from '../../counter-sale'
import { describeError } from '../../error-words'
import { upsertSale } from '../../sale-records'
import {
  amountNeedsConfirmation,
  canCancelSale,
  canEditEntry,
  canStartSale,
  offersChargeAgain,
  currentSale,
  entryAmountMinor,
  entryFractionDigits,
  salePhase,
} from '../../selectors/sale-selectors'
import { testCardLabel } from '../../selectors/app-selectors'
import type { Notice, SliceCreator } from '../../store-types'

export interface SaleSlice {
  /**
   * The keyed amount (amount-entry.ts): digits of minor units, cash-register style, or the amount as
   * written once a decimal point was typed ("12.3"); '' = nothing keyed.
   */
  entryDigits: string
  currentSaleId: string | null
  /** startSale is on its way: the in-flight flag that makes a second press do nothing. */
  starting: boolean
  /** cancel or duplicate answer on its way. */
  saleActionBusy: boolean
  /**
   * The sale the cashier chose "Stop, do not charge" for (a possible duplicate): it charged nothing,
   * but the cashier just refused that charge, so its result offers no "Charge again".
   */
  stoppedDuplicateId: string | null
  saleError: PosErrorView | null
  /** A large amount waiting for the cashier's "yes" before the sale starts (null: no question open). */
  amountToConfirm: number | null
  testCardNotice: Notice | null
  /** Training: the test card picked in the picker, kept while the screens change under it. */
  testCardPick: string | null
  /** The next sale's prompts are spoken on the customer display (a customer who asked); off again once it starts. */
  speechForSale: boolean
  /** Switches spoken prompts for the next sale on or off. */
  toggleSpeechForSale(): void
  /**
   * Training: pick a test card. `present`: no card request is waiting, so the customer holds it out for
   * the next one now (the simulated PIN pad would otherwise present its own default card).
   */
  pickTestCard(name: string, present: boolean): Promise<void>
  typeDigits(digits: string): void
  /** The decimal point: the digits keyed so far become the whole part. */
  typePoint(): void
  eraseDigit(): void
  clearEntry(): void
  /** Text pasted into the amount field, read as a whole. */
  setEntryText(text: string): void
  /** The amount field's text changed from `before` to `after` (typing the field did not hand to the keys). */
  editEntryText(before: string, after: string): void
  /** Enter: charge when a sale can start; after a result, on to the next sale (the button the result offers first). */
  pressEnter(): void
  /** Escape: stop the card reading if a sale waits for the card, otherwise clear the amount / result. */
  pressEscape(): void
  /** Starts the sale, or first asks about a large amount (appInfo.saleLimits). */
  startSale(): Promise<void>
  /** The answer to the large-amount question: charge it, or go back to change it. */
  confirmAmount(charge: boolean): Promise<void>
  cancelSale(): Promise<void>
  confirmDuplicate(charge: boolean): Promise<void>
  /** Put the finished sale away and start keying the next amount. */
  newSale(): void
  /** A sale that charged nothing (declined, not completed, reversed): the same amount, charged again. */
  chargeAgain(): Promise<void>
  presentTestCard(name: string): Promise<void>
}

export const createSaleSlice: SliceCreator<SaleSlice> =
  ({ bridge }) =>
  (set, get) => {
    /** Keying after a result begins the next sale. */
    const editEntry = (edit: (entry: string) => string): void => {
      const s = get()
      if (!canEditEntry(s)) return
      const fresh = salePhase(s) === 'result'
      set({
        entryDigits: edit(fresh ? '' : s.entryDigits),
        saleError: null,
        ...(fresh ? { currentSaleId: null, prompt: null } : {}),
      })
    }

    /**
     * The customer display shows the large amount the cashier is asked to check with the customer (or
     * no longer, `null`). Only a display reads it: a refusal changes nothing at the counter.
     */
    const showAmountCheck = (amount: { amountMinor: number; currency: string } | null): void => {
      void bridge.call('showAmountCheck', { amount })
    }
    /** Asks the cashier to confirm a large amount, and shows it to the customer to check. */
    const askToConfirm = (amountMinor: number, currency: string): void => {
      set({ starting: false, amountToConfirm: amountMinor, saleError: null })
      showAmountCheck({ amountMinor, currency })
    }

    /** One press, one sale: `starting` is set before the first await, so a second press finds it. */
    const send = async (amountMinor: number, currency: string, amountConfirmed: boolean): Promise<void> => {
      set({ starting: true, saleError: null, currentSaleId: null, prompt: null, amountToConfirm: null })
      const speech = get().speechForSale
      const result = await bridge.call('startSale', {
        amountMinor,
        currency,
        ...(amountConfirmed ? { amountConfirmed } : {}),
        ...(speech ? { speech } : {}),
      })
      if (result.ok) {
        set((state) => ({
          starting: false,
          // For this customer only: the next one asks again if they need it.
          speechForSale: false,
          currentSaleId: result.value.id,
          entryDigits: '',
          sales: upsertSale(state.sales, result.value),
        }))
      } else if (result.error.code === 'AMOUNT_NEEDS_CONFIRMATION' && !amountConfirmed) {
        // The agent's own limit asks first (this window may know an older one): ask, then send again.
        askToConfirm(amountMinor, currency)
      } else {
        // Nothing started: a large amount the customer was checking is no longer shown to them.
        if (amountConfirmed) showAmountCheck(null)
        // Refused because a sale already runs at the counter (the POS started one): show that one.
        const running = result.error.code === 'SALE_IN_PROGRESS' ? runningSale(get().sales) : null
        const adopted = running ? adoptRunningSale({ ...get(), starting: false }, running) : null
        set(adopted ? { starting: false, ...adopted } : { starting: false, saleError: result.error })
      }
    }

    return {
      entryDigits: '',
      currentSaleId: null,
      stoppedDuplicateId: null,
      starting: false,
      saleActionBusy: false,
      saleError: null,
      amountToConfirm: null,
      testCardNotice: null,
      testCardPick: null,
      speechForSale: false,

      toggleSpeechForSale: () => set((s) => ({ speechForSale: !s.speechForSale })),

      typeDigits: (digits) => editEntry((entry) => appendDigits(entry, digits, entryFractionDigits(get()))),
      typePoint: () => editEntry((entry) => appendPoint(entry, entryFractionDigits(get()))),
      eraseDigit: () => editEntry(eraseLastDigit),
      clearEntry: () => editEntry(() => ''),
      setEntryText: (text) => editEntry(() => entryFromText(text, entryFractionDigits(get()))),
      editEntryText: (before, after) => editEntry((entry) => entryAfterEdit(entry, before, after, entryFractionDigits(get()))),

      pressEnter() {
        const s = get()
        if (canStartSale(s)) void s.startSale()
        else if (salePhase(s) === 'result') s.newSale()
      },

      pressEscape() {
        const s = get()
        if (canCancelSale(s)) void s.cancelSale()
        else if (salePhase(s) === 'result') s.newSale()
        else s.clearEntry()
      },

      async startSale() {
        const s = get()
        if (!canStartSale(s) || !s.appInfo) return
        const amountMinor = entryAmountMinor(s)
        // A large amount is asked about before the card: one Enter too many must not charge a fortune.
        if (amountNeedsConfirmation(s)) {
          askToConfirm(amountMinor, s.appInfo.currency)
          return
        }
        await send(amountMinor, s.appInfo.currency, false)
      },

      async confirmAmount(charge) {
        const s = get()
        if (s.amountToConfirm === null || s.starting || !s.appInfo) return
        if (!charge) {
          set({ amountToConfirm: null })
          showAmountCheck(null)
          return
        }
        await send(s.amountToConfirm, s.appInfo.currency, true)
      },

      async cancelSale() {
        const s = get()
        const sale = currentSale(s)
        if (!sale || !canCancelSale(s)) return
        set({ saleActionBusy: true, saleError: null })
        const result = await bridge.call('cancelSale', { id: sale.id })
        set((state) =>
          result.ok
            ? { saleActionBusy: false, sales: upsertSale(state.sales, result.value) }
            : { saleActionBusy: false, saleError: result.error },
        )
      },

      async confirmDuplicate(charge) {
        const s = get()
        const sale = currentSale(s)
        if (!sale || sale.state !== 'awaitingConfirmation' || s.saleActionBusy) return
        set({ saleActionBusy: true, saleError: null })
        const result = await bridge.call('confirmDuplicate', { id: sale.id, charge })
        set((state) =>
          result.ok
            ? { saleActionBusy: false, sales: upsertSale(state.sales, result.value), ...(charge ? {} : { stoppedDuplicateId: sale.id }) }
            : { saleActionBusy: false, saleError: result.error },
        )
      },

      newSale() {
        if (salePhase(get()) !== 'result') return
        // the test card offered for the last sale has been used: its notice goes with it
        set({ currentSaleId: null, prompt: null, entryDigits: '', saleError: null, testCardNotice: null })
      },

      async chargeAgain() {
        const s = get()
        const sale = currentSale(s)
        if (!offersChargeAgain(s) || !sale) return
        // The field shows the ended sale's amount; keyed again as digits, it is the next sale's.
        set({ currentSaleId: null, prompt: null, saleError: null, entryDigits: String(sale.amountMinor) })
        await get().startSale()
      },

      async pickTestCard(name, present) {
        set({ testCardPick: name })
        if (present) await get().presentTestCard(name)
      },

      async presentTestCard(name) {
        set({ testCardNotice: null })
        const result = await bridge.call('presentTestCard', { name })
        set({
          testCardNotice: result.ok
            ? { tone: 'ok', text: `The customer holds out: ${testCardLabel(get(), result.value.presented)}.` }
            : { tone: 'error', text: describeError(result.error) },
        })
      },
    }
  }
