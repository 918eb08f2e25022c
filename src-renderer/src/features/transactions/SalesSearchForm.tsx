/**
 * Above the list of transactions: where to look (since the last close, today, an earlier day, a closed
 * batch) and what to look for (the amount, typed as at the counter; the card's last four digits; the
 * POS's reference; the operator, once the terminal has operators). Enter searches; Clear goes back to
 * everything since the last close. The card number is never typed here: only its last four digits.
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { dateTimeText, localDay } from '../../components/time-text'
import {
  describeError,
  entryAfterEdit,
  entryFractionDigits,
  entryFromText,
  entryMinor,
  entryText,
  saleCurrency,
  usePos,
  usePosStore,
  type SalesScope,
  type SalesSearch,
} from '../../store'

/** The picker's value: "open", "today", "day" (an earlier day, picked below) or "batch-<n>". */
type Where = string

export function SalesSearchForm() {
  const id = useId()
  const store = usePosStore()
  const batches = usePos((s) => s.batches)
  const hasOperators = usePos((s) => s.counter?.required === true)
  const operators = usePos((s) => s.searchOperators)
  const currency = usePos(saleCurrency)
  const digits = usePos(entryFractionDigits)
  const busy = usePos((s) => s.searchBusy)
  const error = usePos((s) => s.searchError)
  const { searchSales, refreshBatches, loadSearchOperators } = usePos(
    useShallow((s) => ({ searchSales: s.searchSales, refreshBatches: s.refreshBatches, loadSearchOperators: s.loadSearchOperators })),
  )
  const [where, setWhere] = useState<Where>('open')
  const [day, setDay] = useState('')
  const [amount, setAmount] = useState('')
  const [last4, setLast4] = useState('')
  const [reference, setReference] = useState('')
  const [receipt, setReceipt] = useState('')
  const [operatorId, setOperatorId] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    void refreshBatches()
  }, [refreshBatches])
  useEffect(() => {
    if (hasOperators) void loadSearchOperators()
  }, [hasOperators, loadSearchOperators])

  const today = () => localDay(store.deps.now())

  function scopeOf(picked: Where, pickedDay: string): SalesScope | string {
    if (picked === 'open') return { kind: 'open' }
    if (picked === 'today') return { kind: 'day', day: today() }
    if (picked === 'day') return /^\d{4}-\d{2}-\d{2}$/.test(pickedDay) ? { kind: 'day', day: pickedDay } : 'Pick the day to look at.'
    return { kind: 'batch', number: Number(picked.slice('batch-'.length)) }
  }

  function run(picked = where, pickedDay = day) {
    const scope = scopeOf(picked, pickedDay)
    if (typeof scope === 'string') return setProblem(scope)
    if (last4 !== '' && !/^\d{4}$/.test(last4)) return setProblem('Type the last four digits of the card.')
    const minor = entryMinor(amount, digits)
    const search: SalesSearch = {
      scope,
      ...(minor > 0 ? { amountMinor: minor } : {}),
      ...(last4 !== '' ? { last4 } : {}),
      ...(reference.trim() !== '' ? { reference: reference.trim() } : {}),
      ...(operatorId !== '' ? { operatorId } : {}),
      ...(receipt.trim() !== '' ? { receipt: receipt.trim() } : {}),
    }
    setProblem(null)
    void searchSales(search)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    run()
  }

  const clear = () => {
    setWhere('open')
    setDay('')
    setAmount('')
    setLast4('')
    setReference('')
    setReceipt('')
    setOperatorId('')
    setProblem(null)
    void searchSales(null)
  }

  const amountText = entryText(amount, digits)
  const message = problem ?? (error ? `The search did not work: ${describeError(error)}` : null)

  return (
    <form className="sales-search" role="search" aria-label="Find sales" onSubmit={submit} noValidate data-testid="sales-search">
      <label className="search-field search-where">
        <span>Show</span>
        <select
          value={where}
          data-testid="search-where"
          onChange={(event) => {
            setWhere(event.target.value)
            if (event.target.value !== 'day') run(event.target.value)
          }}
        >
          <option value="open">Since the last close</option>
          <option value="today">Today</option>
          <option value="day">An earlier day</option>
          {batches.map((batch) => (
            <option key={batch.number} value={`batch-${batch.number}`}>
              {`Batch ${batch.number}, closed ${dateTimeText(batch.closedAt)}`}
            </option>
          ))}
        </select>
      </label>
      {where === 'day' && (
        <label className="search-field">
          <span>Day</span>
          <input
            className="input"
            type="date"
            data-testid="search-day"
            value={day}
            max={today()}
            onChange={(event) => {
              setDay(event.target.value)
              if (event.target.value !== '') run('day', event.target.value)
            }}
          />
        </label>
      )}
      <label className="search-field search-amount">
        <span>Amount{currency ? ` (${currency})` : ''}</span>
        <input
          className="input"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          data-testid="search-amount"
          value={amountText}
          onPaste={(event) => {
            event.preventDefault()
            setAmount(entryFromText(event.clipboardData.getData('text'), digits))
          }}
          onChange={(event) => setAmount(entryAfterEdit(amount, amountText, event.target.value, digits))}
        />
      </label>
      <label className="search-field search-last4">
        <span>Card ends in</span>
        <input
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder="1234"
          data-testid="search-last4"
          value={last4}
          aria-describedby={message ? `${id}-problem` : undefined}
          onChange={(event) => {
            const typed = event.target.value.replace(/\D/g, '')
            // A whole card number (pasted, or swiped into the field) is dropped, never kept or sent.
            if (typed.length > 4) {
              setLast4('')
              setProblem('Type only the last four digits of the card, never the whole card number.')
            } else setLast4(typed)
          }}
        />
      </label>
      <label className="search-field search-receipt">
        <span>Receipt number</span>
        <input
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={64}
          data-testid="search-receipt"
          value={receipt}
          onChange={(event) => setReceipt(event.target.value)}
        />
      </label>
      <label className="search-field search-reference">
        <span>Reference</span>
        <input
          className="input"
          type="text"
          autoComplete="off"
          maxLength={64}
          data-testid="search-reference"
          value={reference}
          onChange={(event) => setReference(event.target.value)}
        />
      </label>
      {hasOperators && operators.length > 0 && (
        <label className="search-field">
          <span>Operator</span>
          <select value={operatorId} data-testid="search-operator" onChange={(event) => setOperatorId(event.target.value)}>
            <option value="">Anyone</option>
            {operators.map((operator) => (
              <option key={operator.id} value={operator.id}>
                {`${operator.name} (${operator.id})`}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="search-actions">
        <button type="submit" className="button button-primary" data-testid="search-button" disabled={busy}>
          Search
        </button>
        <button type="button" className="button" data-testid="search-clear" onClick={clear}>
          Clear
        </button>
      </div>
      {message && (
        <p id={`${id}-problem`} className="notice notice-error search-problem" role="alert">
          {message}
        </p>
      )}
    </form>
  )
}
