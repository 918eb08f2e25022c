/**
 * Entry point: pick the bridge (window.pos in Electron, HTTP + SSE in a browser), build the store,
 * render the cashier's screens, or the customer-facing display when the address asks for it
 * (`/customer`, or `?view=customer` as the Electron shell opens its second window).
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { chooseBridge, displayBridge } from './bridge'
import { CustomerApp, isCustomerView } from './features/customer/CustomerApp'
import { SetupApp } from './features/setup/SetupApp'
import { isSetupView } from './features/setup/setup-api'
import { connectStore, createPosStore } from './store'
import './styles/app.css'
import './styles/shell.css'
import './styles/sale.css'
import './styles/customer.css'
import './styles/tones.css'
import './styles/print.css'
import './styles/setup.css'

const root = document.getElementById('root')
if (isSetupView(window.location)) {
  // First-run setup (`pos-agent setup`): its own page, no cashier store.
  if (root)
    createRoot(root).render(
      <StrictMode>
        <SetupApp />
      </StrictMode>,
    )
} else {
  const customer = isCustomerView(window.location)
  const bridge = customer ? displayBridge(chooseBridge(undefined, '/customer')) : chooseBridge()
  const store = createPosStore({ bridge, now: () => Date.now() })
  connectStore(store)
  void store.getState().load()
  if (root) createRoot(root).render(<StrictMode>{customer ? <CustomerApp store={store} /> : <App store={store} />}</StrictMode>)
}
