/**
 * Screen buttons. On a wide screen they are one row; on a small one (a countertop display) they fold
 * into one "Menu" button that shows the current screen and opens the list (a disclosure: Escape or a
 * choice closes it). While a sale or void waits at the counter the cashier stays on its screen, and
 * the menu says why the other screens are greyed out.
 */
import { useId, useRef, useState } from 'react'
import { navigationLocked, usePos, type Screen } from '../../store'

export const NAV_ITEMS: ReadonlyArray<{ screen: Screen; label: string; testId: string }> = [
  { screen: 'sale', label: 'Sale', testId: 'nav-sale' },
  { screen: 'transactions', label: 'Transactions', testId: 'nav-transactions' },
  { screen: 'tips', label: 'Tips', testId: 'nav-tips' },
  { screen: 'closeOfDay', label: 'Close of day', testId: 'nav-close-of-day' },
  { screen: 'queue', label: 'Queue', testId: 'nav-queue' },
  { screen: 'device', label: 'Device', testId: 'nav-device' },
  { screen: 'settings', label: 'Settings', testId: 'nav-settings' },
  { screen: 'staff', label: 'Staff', testId: 'nav-staff' },
]

export const LOCKED_WORDS = 'The other screens open once the sale or void at the counter has finished.'

export function NavBar() {
  const id = useId()
  const screen = usePos((s) => s.screen)
  const locked = usePos(navigationLocked)
  const navigate = usePos((s) => s.navigate)
  const [open, setOpen] = useState(false)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const current = NAV_ITEMS.find((item) => item.screen === screen)

  return (
    <nav
      className="nav"
      aria-label="Screens"
      data-open={open ? 'true' : 'false'}
      onBlur={(event) => {
        // Focus moving elsewhere on the page closes the open menu, as a click elsewhere would.
        if (open && event.relatedTarget instanceof Node && !event.currentTarget.contains(event.relatedTarget)) setOpen(false)
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault()
          event.stopPropagation()
          setOpen(false)
          toggleRef.current?.focus()
        }
      }}
    >
      <button
        ref={toggleRef}
        type="button"
        className="nav-toggle"
        data-testid="nav-menu"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true">☰ </span>Menu<span className="nav-toggle-current">: {current?.label}</span>
      </button>
      <div id={`${id}-panel`} className="nav-panel">
        <ul className="nav-list">
          {NAV_ITEMS.map((item) => (
            <li key={item.screen}>
              <button
                type="button"
                className="nav-button"
                data-testid={item.testId}
                aria-current={item.screen === screen ? 'page' : undefined}
                aria-describedby={locked && item.screen !== screen ? `${id}-locked` : undefined}
                disabled={locked && item.screen !== screen}
                onClick={() => {
                  setOpen(false)
                  navigate(item.screen)
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
        {locked && (
          <p id={`${id}-locked`} className="why-disabled nav-locked" data-testid="nav-locked-reason">
            {LOCKED_WORDS}
          </p>
        )}
      </div>
    </nav>
  )
}
