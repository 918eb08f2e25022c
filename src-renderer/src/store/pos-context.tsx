/** React access to the store: a provider, a selector hook, and a ticking clock for countdowns. */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { PosStore } from './pos-store'
import type { PosState } from './store-types'

const PosContext = createContext<PosStore | null>(null)

export function PosProvider({ store, children }: { store: PosStore; children: ReactNode }) {
  return <PosContext.Provider value={store}>{children}</PosContext.Provider>
}

export function usePosStore(): PosStore {
  const store = useContext(PosContext)
  if (!store) throw new Error('usePos needs a <PosProvider>')
  return store
}

/** Select from the store. A selector that builds a new array or object must be wrapped in useShallow. */
export function usePos<T>(selector: (state: PosState) => T): T {
  return useStore(usePosStore(), selector)
}

/** The store's clock, re-read every `intervalMs` so countdowns move. */
export function useNow(intervalMs = 1000): number {
  const { now } = usePosStore().deps
  const [value, setValue] = useState(now)
  useEffect(() => {
    const timer = setInterval(() => setValue(now()), intervalMs)
    return () => clearInterval(timer)
  }, [now, intervalMs])
  return value
}
