/** Entry point: pick the bridge (window.pos in Electron, HTTP + SSE in a browser), build the store, render. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { chooseBridge } from './bridge'
import { connectStore, createPosStore } from './store'
import './styles/app.css'
import './styles/print.css'

const store = createPosStore({ bridge: chooseBridge(), now: () => Date.now() })
connectStore(store)
void store.getState().load()

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
