/**
 * The sale: key the amount, charge (confirming a large one), follow the reader's prompts, answer a
 * duplicate, see the result. Two columns that fill the screen (amount and keypad; the sale's status
 * and actions), so the amount, the prompt, Charge, Cancel and the result are in view together on a
 * small terminal display; the keypad's keys give up height first. A sale the POS started shows here
 * the same way, marked as such.
 */
import { useEffect, useId, useRef } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { DisabledReason } from '../../components/DisabledReason'
import { Keypad } from '../../components/Keypad'
import { amountText, moneyText } from '../../components/money-text'
import { PromptArea } from '../../components/PromptArea'
import { CardTimeLeft } from './CardTimeLeft'
import {
  amountFieldText,
  offersChargeAgain,
  cancelDisabledReason,
  canCancelSale,
  canEditEntry,
  chargeDisabledReason,
  currentSale,
  entryAmountMinor,
  entryFractionDigits,
  isTraining,
  saleCurrency,
  salePhase,
  salePrompt,
  startedByPos,
  usePos,
} from '../../store'
import { AmountDialog } from './AmountDialog'
import { NoManagerNotice } from './NoManagerNotice'
import { DuplicateDialog } from './DuplicateDialog'
import { SaleFacts, SaleResultActions } from './SaleResult'
import { TestCardPicker } from './TestCardPicker'
import { useSaleKeys } from './use-sale-keys'

function focusAmountField(): void {
  document.querySelector<HTMLInputElement>('[data-amount-field]')?.focus()
}

export function SaleScreen() {
  useSaleKeys()
  const fieldId = useId()
  const phase = usePos(salePhase)
  const sale = usePos(currentSale)
  const currency = usePos(saleCurrency)
  const operator = usePos((s) => s.counter?.operator)
  const fieldText = usePos(amountFieldText)
  const amountMinor = usePos(entryAmountMinor)
  const decimals = usePos(entryFractionDigits) > 0
  const chargeReason = usePos(chargeDisabledReason)
  // A sale that charged nothing (a refused card, a reversed try): Charge takes the same amount again.
  const again = usePos(offersChargeAgain)
  const canEdit = usePos(canEditEntry)
  const canCancel = usePos(canCancelSale)
  const cancelReason = usePos(cancelDisabledReason)
  const fromPos = usePos(startedByPos)
  const training = usePos(isTraining)
  const prompt = usePos(useShallow(salePrompt))
  const amountToConfirm = usePos((s) => s.amountToConfirm)
  const speechForSale = usePos((s) => s.speechForSale)
  const toggleSpeechForSale = usePos((s) => s.toggleSpeechForSale)
  const { typeDigits, typePoint, eraseDigit, clearEntry, setEntryText, editEntryText, startSale, cancelSale, chargeAgain } = usePos(
    useShallow((s) => ({
      typeDigits: s.typeDigits,
      typePoint: s.typePoint,
      eraseDigit: s.eraseDigit,
      clearEntry: s.clearEntry,
      setEntryText: s.setEntryText,
      editEntryText: s.editEntryText,
      startSale: s.startSale,
      cancelSale: s.cancelSale,
      chargeAgain: s.chargeAgain,
    })),
  )
  const statusRef = useRef<HTMLDivElement>(null)
  // When the sale moves on, its status is brought into view (it may sit below the fold on a small screen).
  useEffect(() => {
    if (phase !== 'idle') statusRef.current?.scrollIntoView?.({ block: 'start' })
  }, [phase])
  const running = phase === 'starting' || phase === 'reading' || phase === 'confirming' || phase === 'processing'
  const askingForCard = phase === 'idle' || phase === 'reading'
  const example = amountText(1234, currency)

  return (
    <section className="screen sale-screen" aria-labelledby={`${fieldId}-title`}>
      <h2 id={`${fieldId}-title`} className="visually-hidden">
        Sale
      </h2>
      <div className="sale-grid" data-phase={running ? 'running' : phase}>
        <div className="amount-panel">
          <div className="amount-label-row">
            <label htmlFor={fieldId} className="amount-label">
              Amount{currency ? ` (${currency})` : ''}
            </label>
            {/* Who sells, on the line above the amount at every size: nobody sells under a manager left signed in unseen. */}
            {operator && (
              <span className="amount-operator" data-testid="sale-operator">
                {operator.name} ({operator.role === 'manager' ? 'manager' : 'cashier'})
              </span>
            )}
          </div>
          <input
            id={fieldId}
            className="amount-input"
            data-amount-field=""
            data-keyed-amount=""
            data-testid="amount-input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            autoFocus
            placeholder={amountText(0, currency)}
            value={fieldText}
            readOnly={!canEdit}
            aria-describedby={`${fieldId}-hint`}
            onPaste={(event) => {
              event.preventDefault()
              setEntryText(event.clipboardData.getData('text'))
            }}
            onChange={(event) => editEntryText(fieldText, event.target.value)}
          />
          <p id={`${fieldId}-hint`} className="hint amount-hint">
            {decimals ? `1 2 3 4 makes ${example}; a point types decimals · ` : ''}Enter charges · Escape clears
          </p>
          <Keypad
            disabled={!canEdit}
            {...(chargeReason ? { describedBy: `${fieldId}-charge-why` } : {})}
            decimals={decimals}
            onDigits={typeDigits}
            onPoint={typePoint}
            onErase={eraseDigit}
            onClear={clearEntry}
          />
          <button
            type="button"
            className="button button-charge"
            data-testid="charge-button"
            aria-keyshortcuts="Enter"
            disabled={!again && chargeReason !== null}
            aria-describedby={!again && chargeReason ? `${fieldId}-charge-why` : undefined}
            onClick={() => void (again ? chargeAgain() : startSale())}
          >
            <span className="charge-label">
              {again && sale
                ? `Charge ${moneyText(sale.amountMinor, sale.currency)} again`
                : amountMinor > 0
                  ? `Charge ${moneyText(amountMinor, currency)}`
                  : 'Charge'}
            </span>
            {/* Why it is greyed out, inside the button: no extra line to find room for on a small screen. */}
            {!again && chargeReason && (
              <span id={`${fieldId}-charge-why`} className="charge-why" data-testid="charge-disabled-reason">
                {chargeReason}
              </span>
            )}
          </button>
        </div>
        <div
          ref={statusRef}
          className="status-panel"
          data-testid={phase === 'result' ? 'sale-result' : 'sale-status'}
          data-state={sale?.state}
          aria-labelledby={phase === 'result' && sale ? `result-${sale.id}` : undefined}
          role={phase === 'result' ? 'region' : undefined}
        >
          {fromPos && (
            <p className="sale-origin" data-testid="sale-origin">
              Started by the POS
            </p>
          )}
          <PromptArea
            text={prompt.text}
            detail={prompt.detail}
            tone={prompt.tone}
            {...(phase === 'result' && sale ? { heading: { id: `result-${sale.id}`, testId: 'result-heading' } } : {})}
          />
          <div className="sale-actions">
            {running && (
              <button
                type="button"
                className="button button-large button-danger"
                data-testid="cancel-sale-button"
                disabled={!canCancel}
                aria-describedby={cancelReason ? `${fieldId}-cancel-why` : undefined}
                onClick={() => void cancelSale()}
              >
                Cancel sale
              </button>
            )}
            {phase === 'result' && sale && <SaleResultActions sale={sale} />}
          </div>
          {running && <DisabledReason id={`${fieldId}-cancel-why`} reason={cancelReason} testId="cancel-disabled-reason" />}
          {running && <CardTimeLeft />}
          <div className="status-more">
            {phase === 'idle' && (
              // A customer who asks to hear the prompts: the customer display speaks this sale's.
              <button
                type="button"
                className="button button-speech"
                data-testid="speech-for-sale"
                aria-pressed={speechForSale}
                onClick={toggleSpeechForSale}
              >
                {speechForSale ? 'Spoken help on for this customer' : 'Spoken help for this customer'}
              </button>
            )}
            {running && sale?.speech && (
              <p className="hint" data-testid="sale-speech">
                The customer display speaks this sale
              </p>
            )}
            {phase === 'result' && sale && <SaleFacts sale={sale} />}
            {training && askingForCard && (
              <TestCardPicker
                {...(phase === 'idle'
                  ? { afterPresent: focusAmountField, presentOnPick: true }
                  : { focusPresent: true, afterLeave: focusAmountField })}
              />
            )}
          </div>
        </div>
      </div>
      {/* Below the sale, in the page's flow: it covers nothing, and only between sales. */}
      {phase === 'idle' && <NoManagerNotice />}
      {phase === 'confirming' && sale && <DuplicateDialog sale={sale} />}
      {amountToConfirm !== null && currency && <AmountDialog amountMinor={amountToConfirm} currency={currency} />}
    </section>
  )
}
