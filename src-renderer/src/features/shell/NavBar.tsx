/**
 * Screen buttons. On a wide screen they are one row; on a small one (a countertop display) they fold
 * into one "Menu" button that shows the current screen and opens the list (a disclosure: Escape or a
 * choice closes it, and a tap beside it closes it without pressing what is under the finger). While a sale or void waits at the counter the cashier stays on its screen, and
 * the menu says why the other screens are greyed out.
 */
import { useId, type ReactNode, type RefObject } from 'react'
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

export interface NavBarProps {
  open: boolean
  setOpen(open: boolean | ((open: boolean) => boolean)): void
  toggleRef: RefObject<HTMLButtonElement | null>
  /** What the header had no room for (alarms, status items), shown above the screen buttons. */
  extra?: ReactNode
  /** Whether the screen buttons are offered (not before someone has signed in). */
  screens: boolean
}

export function NavBar({ open, setOpen, toggleRef, extra, screens }: NavBarProps) {
  const id = useId()
  const screen = usePos((s) => s.screen)
  const locked = usePos(navigationLocked)
  const navigate = usePos((s) => s.navigate)
  const current = NAV_ITEMS.find((item) => item.screen === screen)

  // Before anyone has signed in there are no screens to go to: the Menu holds only what the line had no room for.
  const Box = screens ? 'nav' : 'div'
  return (
    <Box
      className={screens ? 'nav' : 'nav nav-no-screens'}
      aria-label={screens ? 'Screens' : undefined}
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
        <span aria-hidden="true">☰ </span>Menu{screens && <span className="nav-toggle-current">: {current?.label}</span>}
      </button>
      {/* A tap beside the open Menu closes it, and only that (shell.css: it covers the screen below). */}
      {open && <div className="nav-backdrop" data-testid="nav-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
      <div id={`${id}-panel`} className="nav-panel" data-testid="nav-panel">
        {extra}
        {screens && (
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
        )}
        {screens && locked && (
          <p id={`${id}-locked`} className="why-disabled nav-locked" data-testid="nav-locked-reason">
            {LOCKED_WORDS}
          </p>
        )}
      </div>
    </Box>
  )
}
