/**
 * On a terminal with no staff, nobody can approve a return, a void or a tip above the limit: the
 * counter lets the cashier allow them alone. A plain notice on the Sale screen says so and offers the
 * Staff screen until a manager exists; "Not today" hides it until tomorrow (kept in this window's
 * storage, which holds nothing but the day it was hidden).
 */
import { useState } from 'react'
import { hasNoStaff, usePos } from '../../store'

const HIDDEN_ON = 'pos.no-manager-notice.hidden-on'

/** Today as the counter's local date, e.g. "2026-11-28": the notice comes back the next day. */
function today(): string {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}

function hiddenToday(): boolean {
  try {
    return window.localStorage.getItem(HIDDEN_ON) === today()
  } catch {
    return false
  }
}

export function NoManagerNotice() {
  const noStaff = usePos(hasNoStaff)
  const navigate = usePos((s) => s.navigate)
  const [hidden, setHidden] = useState(hiddenToday)
  if (!noStaff || hidden) return null
  return (
    <div className="notice notice-info no-manager-notice" role="note" data-testid="no-manager-notice">
      <p>
        No manager is set up on this terminal, so returns, voids and tips above the limit go through without anyone approving them. Add a
        manager under Staff.
      </p>
      <div className="form-actions">
        <button type="button" className="button" data-testid="no-manager-add" onClick={() => navigate('staff')}>
          Add a manager
        </button>
        <button
          type="button"
          className="button"
          data-testid="no-manager-not-today"
          onClick={() => {
            try {
              window.localStorage.setItem(HIDDEN_ON, today())
            } catch {
              // Storage refused: hidden for as long as this screen stays open.
            }
            setHidden(true)
          }}
        >
          Not today
        </button>
      </div>
    </div>
  )
}
