/** The cashier UI: banners, status, screen buttons and the current screen, over one store. */
import { useEffect, useRef, type ReactNode } from 'react'
import { CloseOfDayScreen } from './features/close-of-day/CloseOfDayScreen'
import { DeviceScreen } from './features/device/DeviceScreen'
import { QueueScreen } from './features/queue/QueueScreen'
import { ReceiptView } from './features/receipt/ReceiptView'
import { SaleScreen } from './features/sale/SaleScreen'
import { SettingsScreen } from './features/settings/SettingsScreen'
import { StaffScreen } from './features/operators/StaffScreen'
import { Header } from './features/shell/Header'
import { firstControl, useKeypadNavigation } from './features/shell/use-keypad-navigation'
import { TipsScreen } from './features/tips/TipsScreen'
import { TransactionsScreen } from './features/transactions/TransactionsScreen'
import { ApprovalDialog } from './features/operators/ApprovalDialog'
import { SignInScreen } from './features/operators/SignInScreen'
import { describeError, PosProvider, signInNeeded, usePos, type PosStore, type Screen } from './store'

const SCREENS: Readonly<Record<Screen, () => ReactNode>> = {
  sale: () => <SaleScreen />,
  transactions: () => <TransactionsScreen />,
  tips: () => <TipsScreen />,
  closeOfDay: () => <CloseOfDayScreen />,
  queue: () => <QueueScreen />,
  device: () => <DeviceScreen />,
  settings: () => <SettingsScreen />,
  staff: () => <StaffScreen />,
}

function Shell() {
  const loadStatus = usePos((s) => s.loadStatus)
  const loadError = usePos((s) => s.loadError)
  // On the first load, nothing of the counter is shown until it is known whether someone must sign in,
  // so a terminal with staff never flashes its keypad (a tap on it) before the sign-in screen. A later
  // load (after a reconnect) refreshes the screen in place.
  const hasInfo = usePos((s) => s.appInfo !== null && (s.counter !== null || s.loadedOnce))
  const screen = usePos((s) => s.screen)
  const load = usePos((s) => s.load)
  const mustSignIn = usePos(signInNeeded)
  const mainRef = useRef<HTMLElement>(null)
  useKeypadNavigation()
  // Each screen opens at its top, not where the last one was scrolled to, with the focus where the
  // next key goes: the screen's first control (the sale screen's amount field), else the screen.
  useEffect(() => {
    const main = mainRef.current
    if (!main) return
    main.scrollTo?.(0, 0)
    const active = document.activeElement
    if (active instanceof HTMLElement && main.contains(active) && active !== main) return
    const first = main.querySelector<HTMLElement>('[data-amount-field], [autofocus]') ?? firstControl(main)
    ;(first ?? main).focus({ preventScroll: true })
  }, [screen])

  if (!hasInfo) {
    return (
      <main className="app-loading">
        {loadStatus === 'failed' && loadError ? (
          <div className="notice notice-error" role="alert">
            <p>{describeError(loadError)}</p>
            <button type="button" className="button button-large button-primary" onClick={() => void load()}>
              Try again
            </button>
          </div>
        ) : (
          <p role="status">Connecting to the payment agent…</p>
        )}
      </main>
    )
  }
  if (mustSignIn) {
    return (
      <div className="app">
        <Header key="sign-in" screens={false} />
        <SignInScreen />
      </div>
    )
  }
  return (
    <div className="app">
      <Header />
      {/* Where focus goes when the control that opened a dialog is gone (use-dialog-focus.ts). */}
      <main ref={mainRef} className="app-main" data-focus-fallback="" tabIndex={-1} data-screen={screen}>
        {SCREENS[screen]()}
      </main>
      <ReceiptView />
      <ApprovalDialog />
    </div>
  )
}

export function App({ store }: { store: PosStore }) {
  return (
    <PosProvider store={store}>
      <Shell />
    </PosProvider>
  )
}
