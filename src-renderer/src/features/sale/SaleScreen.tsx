/** The sale: key the amount, charge (confirming a large one), follow the reader's prompts, answer a duplicate, see the result. */
import { useId } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { Keypad } from '../../components/Keypad'
import { amountText, moneyText } from '../../components/money-text'
import { PromptArea } from '../../components/PromptArea'
import {
  amountFieldText,
  canCancelSale,
  canEditEntry,
  canStartSale,
  currentSale,
  entryAmountMinor,
  isTraining,
  saleCurrency,
  salePhase,
  salePrompt,
  usePos,
} from '../../store'
import { AmountDialog } from './AmountDialog'
import { DuplicateDialog } from './DuplicateDialog'
import { SaleResult } from './SaleResult'
import { TestCardPicker } from './TestCardPicker'
import { useSaleKeys } from './use-sale-keys'

export function SaleScreen() {
  useSaleKeys()
  const fieldId = useId()
  const phase = usePos(salePhase)
  const sale = usePos(currentSale)
  const currency = usePos(saleCurrency)
  const fieldText = usePos(amountFieldText)
  const amountMinor = usePos(entryAmountMinor)
  const canStart = usePos(canStartSale)
  const canEdit = usePos(canEditEntry)
  const canCancel = usePos(canCancelSale)
  const training = usePos(isTraining)
  const prompt = usePos(useShallow(salePrompt))
  const amountToConfirm = usePos((s) => s.amountToConfirm)
  const { typeDigits, eraseDigit, clearEntry, setEntryText, startSale, cancelSale } = usePos(
    useShallow((s) => ({
      typeDigits: s.typeDigits,
      eraseDigit: s.eraseDigit,
      clearEntry: s.clearEntry,
      setEntryText: s.setEntryText,
      startSale: s.startSale,
      cancelSale: s.cancelSale,
    })),
  )
  const running = phase === 'starting' || phase === 'reading' || phase === 'confirming' || phase === 'processing'

  return (
    <section className="screen sale-screen" aria-labelledby={`${fieldId}-title`}>
      <h2 id={`${fieldId}-title`} className="visually-hidden">
        Sale
      </h2>
      <div className="sale-grid">
        <div className="amount-panel">
          <label htmlFor={fieldId} className="amount-label">
            Amount{currency ? ` (${currency})` : ''}
          </label>
          <input
            id={fieldId}
            className="amount-input"
            data-amount-field=""
            data-testid="amount-input"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            autoFocus
            placeholder={amountText(0, currency)}
            value={fieldText}
            readOnly={!canEdit}
            aria-describedby={`${fieldId}-hint`}
            onChange={(event) => setEntryText(event.target.value)}
          />
          <p id={`${fieldId}-hint`} className="hint">
            1 2 3 4 makes {amountText(1234, currency)} · Enter charges · Escape clears
          </p>
          <Keypad disabled={!canEdit} onDigits={typeDigits} onErase={eraseDigit} onClear={clearEntry} />
          <button
            type="button"
            className="button button-charge"
            data-testid="charge-button"
            disabled={!canStart}
            onClick={() => void startSale()}
          >
            {amountMinor > 0 ? `Charge ${moneyText(amountMinor, currency)}` : 'Charge'}
          </button>
        </div>
        <div className="status-panel">
          <PromptArea text={prompt.text} detail={prompt.detail} tone={prompt.tone} />
          <div className="sale-actions">
            {running && (
              <button
                type="button"
                className="button button-large button-danger"
                data-testid="cancel-sale-button"
                disabled={!canCancel}
                onClick={() => void cancelSale()}
              >
                Cancel sale
              </button>
            )}
          </div>
          {phase === 'result' && sale && <SaleResult sale={sale} />}
          {training && <TestCardPicker />}
        </div>
      </div>
      {phase === 'confirming' && sale && <DuplicateDialog sale={sale} />}
      {amountToConfirm !== null && currency && <AmountDialog amountMinor={amountToConfirm} currency={currency} />}
    </section>
  )
}
