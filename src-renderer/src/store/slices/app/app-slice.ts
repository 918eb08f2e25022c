/** What the agent is (appInfo), its settings, alarms, which screen is shown, and the first load. */
import type { AlarmView, AppInfo, PosErrorView, SettingsView } from '../../../../../src-shared/contract'
import { adoptRunningSale, runningSale } from '../../counter-sale'
import { describeError } from '../../error-words'
import { navigationLocked } from '../../selectors/sale-selectors'
import type { Notice, Screen, SliceCreator } from '../../store-types'

export interface AppSlice {
  appInfo: AppInfo | null
  settings: SettingsView | null
  alarms: AlarmView[]
  loadStatus: 'idle' | 'loading' | 'ready' | 'failed'
  loadError: PosErrorView | null
  /** A load has finished once: what the screens show is known (a later load refreshes it in place). */
  loadedOnce: boolean
  screen: Screen
  /** The sale whose receipt is open, if any. */
  receiptSaleId: string | null
  keySaving: boolean
  keyNotice: Notice | null
  /** False while the agent does not answer (its event stream broke, or a call reached nobody). */
  agentAnswering: boolean
  /** Loads everything the screens show; again after the live feed came back from a break. */
  load(): Promise<void>
  navigate(screen: Screen): void
  showReceipt(saleId: string | null): void
  refreshSettings(): Promise<void>
  /** Stores the signing key in the agent's keychain. The key is never kept in the store. */
  setSigningKey(key: string): Promise<boolean>
}

export function upsertAlarm(alarms: readonly AlarmView[], alarm: AlarmView): AlarmView[] {
  return [...alarms.filter((a) => a.code !== alarm.code), alarm]
}

export const createAppSlice: SliceCreator<AppSlice> =
  ({ bridge }) =>
  (set, get) => ({
    appInfo: null,
    settings: null,
    alarms: [],
    loadStatus: 'idle',
    loadError: null,
    loadedOnce: false,
    screen: 'sale',
    receiptSaleId: null,
    keySaving: false,
    keyNotice: null,
    agentAnswering: true,

    async load() {
      if (get().loadStatus === 'loading') return
      set({ loadStatus: 'loading', loadError: null })
      const info = await bridge.call('appInfo', {})
      if (!info.ok) {
        set({ loadStatus: 'failed', loadError: info.error })
        return
      }
      set({ appInfo: info.value, alarms: info.value.alarms })
      const s = get()
      await Promise.all([s.refreshSettings(), s.refreshDevice(), s.refreshQueue(), s.refreshSales(), s.refreshOperator()])
      const running = runningSale(get().sales)
      set({ loadStatus: 'ready', loadedOnce: true, ...(running ? adoptRunningSale(get(), running) : {}) })
    },

    navigate(screen) {
      if (screen === get().screen || navigationLocked(get())) return
      // A new integrator token is shown once: leaving Settings forgets it.
      set({ screen, receiptSaleId: null, newToken: null })
    },

    showReceipt(saleId) {
      set({ receiptSaleId: saleId })
    },

    async refreshSettings() {
      const result = await bridge.call('settings', {})
      if (result.ok) set({ settings: result.value })
    },

    async setSigningKey(key) {
      if (get().keySaving) return false
      set({ keySaving: true, keyNotice: null })
      const result = await bridge.call('setSigningKey', { key })
      if (!result.ok) {
        set({ keySaving: false, keyNotice: { tone: 'error', text: `The key was not stored: ${describeError(result.error)}` } })
        return false
      }
      const settings = get().settings
      set({
        keySaving: false,
        keyNotice: { tone: 'ok', text: `Signing key stored. Key check value ${result.value.kcv}.` },
        settings: settings ? { ...settings, signingKey: { present: true, kcv: result.value.kcv } } : settings,
      })
      await get().refreshSettings()
      return true
    },
  })
