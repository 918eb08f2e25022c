/**
 * Staff: who may work at this terminal, for a manager. Add a cashier or a manager, give someone a
 * new PIN, let a locked-out person sign in again, and disable someone who left. A terminal without
 * operators starts here with its first manager. Every change is the agent's to allow: where it wants
 * a manager's approval, the approval dialog asks for their number and PIN.
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DisabledReason } from '../../components/DisabledReason'
import { NoticeLine } from '../../components/Notice'
import { dateTimeText } from '../../components/time-text'
import { usePos, usePosStore } from '../../store'
import type { OperatorView } from '../../../../src-shared/contract'

const PIN_SHAPE = /^\d{4,8}$/
const NUMBER_SHAPE = /^[A-Za-z0-9]{1,16}$/

export function StaffScreen() {
  const store = usePosStore()
  const titleId = useId()
  const staff = usePos((s) => s.staff)
  const counter = usePos((s) => s.counter)
  const notice = usePos((s) => s.staffNotice)
  const busy = usePos((s) => s.staffBusy)
  const [disabling, setDisabling] = useState<OperatorView | null>(null)

  useEffect(() => {
    void store.getState().refreshStaff()
  }, [store])

  const hasStaff = counter?.required === true
  const manager = !hasStaff || counter?.operator?.role === 'manager'
  const now = store.deps.now()

  return (
    <section className="screen staff" aria-labelledby={titleId}>
      <h2 id={titleId}>Staff</h2>
      {!manager ? (
        <p className="field-message" data-testid="staff-managers-only">
          Only a manager manages staff. Ask a manager to sign in at this terminal.
        </p>
      ) : (
        <>
          {!hasStaff && (
            <p className="field-message" data-testid="staff-first-manager">
              Nobody signs in at this terminal yet. Add its first manager: from then on, everyone signs in with their number and PIN.
            </p>
          )}
          {/* Add comes first: the screen opens with the focus in its number, never in someone's new PIN. */}
          <AddStaff first={!hasStaff} busy={busy} />
          <ul className="staff-list" data-testid="staff-list">
            {staff.map((person) => (
              <StaffRow key={person.id} person={person} now={now} busy={busy} onDisable={() => setDisabling(person)} />
            ))}
          </ul>
        </>
      )}
      <NoticeLine notice={notice} testId="staff-notice" />
      {disabling && (
        <ConfirmDialog
          title={`Disable ${disabling.name}?`}
          confirmLabel="Disable"
          cancelLabel="Keep them"
          busy={busy}
          testId="disable-staff-dialog"
          onConfirm={() => {
            const id = disabling.id
            setDisabling(null)
            void store.getState().disableStaff(id)
          }}
          onCancel={() => setDisabling(null)}
        >
          {disabling.name} will no longer be able to sign in. Their sales stay on record under number {disabling.id}.
        </ConfirmDialog>
      )}
    </section>
  )
}

function StaffRow({ person, now, busy, onDisable }: { person: OperatorView; now: number; busy: boolean; onDisable(): void }) {
  const store = usePosStore()
  const fieldId = useId()
  const [pin, setPin] = useState('')
  const [again, setAgain] = useState('')
  const locked = person.lockedUntil !== undefined && person.lockedUntil > now
  const status = person.disabled
    ? 'Disabled'
    : locked
      ? `Locked after wrong PINs until ${dateTimeText(person.lockedUntil!)}`
      : 'Can sign in'
  const pinProblem =
    pin === ''
      ? 'Type the new PIN.'
      : !PIN_SHAPE.test(pin)
        ? 'A PIN is 4 to 8 digits.'
        : again !== pin
          ? 'Type the same PIN again below it.'
          : null
  const savePin = (event: FormEvent) => {
    event.preventDefault()
    if (pinProblem !== null || busy) return
    const typed = pin
    setPin('')
    setAgain('')
    void store.getState().setStaffPin(person.id, typed)
  }
  return (
    <li className="staff-row" data-testid={`staff-${person.id}`}>
      <span className="staff-name">
        {person.name} · number {person.id} · {person.role === 'manager' ? 'Manager' : 'Cashier'}
      </span>
      <span className="staff-status" data-testid={`staff-status-${person.id}`}>
        {status}
      </span>
      {!person.disabled && (
        <div className="staff-actions">
          <form className="staff-pin" onSubmit={savePin} autoComplete="off">
            <label htmlFor={`${fieldId}-pin`}>New PIN for {person.name}</label>
            <input
              id={`${fieldId}-pin`}
              type="password"
              inputMode="numeric"
              maxLength={8}
              value={pin}
              onChange={(event) => setPin(event.target.value)}
            />
            <label htmlFor={`${fieldId}-again`}>The same PIN again</label>
            <input
              id={`${fieldId}-again`}
              type="password"
              inputMode="numeric"
              maxLength={8}
              value={again}
              onChange={(event) => setAgain(event.target.value)}
            />
            <button type="submit" className="button" disabled={busy || pinProblem !== null} aria-describedby={`${fieldId}-why`}>
              Set PIN
            </button>
            <DisabledReason id={`${fieldId}-why`} reason={pin === '' ? null : pinProblem} />
          </form>
          {locked && (
            <button type="button" className="button" disabled={busy} onClick={() => void store.getState().unlockStaff(person.id)}>
              Let {person.name} sign in again
            </button>
          )}
          <button type="button" className="button" disabled={busy} onClick={onDisable}>
            Disable {person.name}
          </button>
        </div>
      )}
    </li>
  )
}

function AddStaff({ first, busy }: { first: boolean; busy: boolean }) {
  const store = usePosStore()
  const fieldId = useId()
  const [operatorId, setOperatorId] = useState('')
  const [name, setName] = useState('')
  const [role, setRole] = useState<'cashier' | 'manager'>(first ? 'manager' : 'cashier')
  const [pin, setPin] = useState('')
  const [again, setAgain] = useState('')
  const problem = !NUMBER_SHAPE.test(operatorId.trim())
    ? 'Type their operator number (letters or digits, up to 16).'
    : name.trim() === ''
      ? 'Type their name.'
      : !PIN_SHAPE.test(pin)
        ? 'Type their PIN: 4 to 8 digits.'
        : again !== pin
          ? 'Type the same PIN again.'
          : null
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (problem !== null || busy) return
    const person = { operatorId: operatorId.trim(), name: name.trim(), role: first ? 'manager' : role, pin } as const
    setPin('')
    setAgain('')
    void store
      .getState()
      .addStaff(person)
      .then((added) => {
        if (!added) return
        setOperatorId('')
        setName('')
      })
  }
  return (
    <form className="staff-add" onSubmit={submit} autoComplete="off" data-testid="add-staff">
      <h3>{first ? 'The first manager' : 'Add someone'}</h3>
      <label htmlFor={`${fieldId}-id`}>Operator number</label>
      <input
        id={`${fieldId}-id`}
        inputMode="numeric"
        maxLength={16}
        value={operatorId}
        onChange={(event) => setOperatorId(event.target.value)}
      />
      <label htmlFor={`${fieldId}-name`}>Name</label>
      <input id={`${fieldId}-name`} maxLength={64} value={name} onChange={(event) => setName(event.target.value)} />
      {!first && (
        <fieldset className="staff-role">
          <legend>Role</legend>
          <label>
            <input type="radio" name={`${fieldId}-role`} checked={role === 'cashier'} onChange={() => setRole('cashier')} />
            Cashier
          </label>
          <label>
            <input type="radio" name={`${fieldId}-role`} checked={role === 'manager'} onChange={() => setRole('manager')} />
            Manager
          </label>
        </fieldset>
      )}
      <label htmlFor={`${fieldId}-pin`}>PIN (4 to 8 digits)</label>
      <input
        id={`${fieldId}-pin`}
        type="password"
        inputMode="numeric"
        maxLength={8}
        value={pin}
        onChange={(event) => setPin(event.target.value)}
      />
      <label htmlFor={`${fieldId}-again`}>The same PIN again</label>
      <input
        id={`${fieldId}-again`}
        type="password"
        inputMode="numeric"
        maxLength={8}
        value={again}
        onChange={(event) => setAgain(event.target.value)}
      />
      <button
        type="submit"
        className="button button-primary"
        data-testid="add-staff-button"
        disabled={busy || problem !== null}
        aria-describedby={`${fieldId}-why`}
      >
        {first ? 'Add the first manager' : 'Add'}
      </button>
      <DisabledReason id={`${fieldId}-why`} reason={busy ? 'Working…' : problem} />
    </form>
  )
}
