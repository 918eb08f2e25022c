/** Screen buttons. While a sale or void waits at the counter the cashier stays on its screen. */
import { navigationLocked, usePos, type Screen } from '../../store'

export const NAV_ITEMS: ReadonlyArray<{ screen: Screen; label: string; testId: string }> = [
  { screen: 'sale', label: 'Sale', testId: 'nav-sale' },
  { screen: 'transactions', label: 'Transactions', testId: 'nav-transactions' },
  { screen: 'tips', label: 'Tips', testId: 'nav-tips' },
  { screen: 'closeOfDay', label: 'Close of day', testId: 'nav-close-of-day' },
  { screen: 'queue', label: 'Queue', testId: 'nav-queue' },
  { screen: 'device', label: 'Device', testId: 'nav-device' },
  { screen: 'settings', label: 'Settings', testId: 'nav-settings' },
]

export function NavBar() {
  const screen = usePos((s) => s.screen)
  const locked = usePos(navigationLocked)
  const navigate = usePos((s) => s.navigate)
  return (
    <nav className="nav" aria-label="Screens">
      {NAV_ITEMS.map((item) => (
        <button
          key={item.screen}
          type="button"
          className="nav-button"
          data-testid={item.testId}
          aria-current={item.screen === screen ? 'page' : undefined}
          disabled={locked && item.screen !== screen}
          onClick={() => navigate(item.screen)}
        >
          {item.label}
        </button>
      ))}
    </nav>
  )
}
