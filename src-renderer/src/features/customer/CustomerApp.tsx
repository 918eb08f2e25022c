/** The customer display as a whole page, over its own store, and how the address selects it. */
import { useEffect } from 'react'
import { PosProvider, type PosStore } from '../../store'
import { CustomerDisplay } from './CustomerDisplay'

/** `/customer` (a browser), or `?view=customer` (the Electron shell's second window, whose path is its index.html). */
export function isCustomerView(location: Pick<Location, 'pathname' | 'search'>): boolean {
  return /\/customer\/?$/.test(location.pathname) || new URLSearchParams(location.search).get('view') === 'customer'
}

export function CustomerApp({ store }: { store: PosStore }) {
  useEffect(() => {
    document.title = 'Customer display'
  }, [])
  return (
    <PosProvider store={store}>
      <CustomerDisplay />
    </PosProvider>
  )
}
