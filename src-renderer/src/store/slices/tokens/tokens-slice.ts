/**
 * Integrator tokens and paired windows, as a manager manages them in Settings: the tokens (never the
 * tokens themselves) with what each may do, a new one shown once until the manager has copied it,
 * and revocation; the browser windows paired with this terminal, and ending one. The agent decides
 * who may (src-main/service/access.ts).
 */
import type { IntegratorTokenView, PairedWindowView, TokenScope } from '../../../../../src-shared/contract'
import { describeError } from '../../error-words'
import type { Notice, SliceCreator } from '../../store-types'

export interface TokensSlice {
  integratorTokens: IntegratorTokenView[]
  /** The token just created, in full: shown once, forgotten when dismissed. */
  newToken: { id: string; name: string; token: string } | null
  tokenBusy: boolean
  tokenNotice: Notice | null
  refreshTokens(): Promise<void>
  createToken(name: string, scopes?: TokenScope[]): Promise<boolean>
  revokeToken(id: string): Promise<void>
  dismissNewToken(): void
  pairedWindows: PairedWindowView[]
  refreshWindows(): Promise<void>
  revokeWindow(id: string): Promise<void>
  /** A one-time link for a new window of `view` (a customer display, another cashier window); null when refused. */
  openWindow(view: 'cashier' | 'customer'): Promise<string | null>
}

export const createTokensSlice: SliceCreator<TokensSlice> =
  ({ bridge }) =>
  (set, get) => ({
    integratorTokens: [],
    newToken: null,
    tokenBusy: false,
    tokenNotice: null,

    async refreshTokens() {
      const result = await bridge.call('listTokens', {})
      if (result.ok) set({ integratorTokens: result.value })
      else set({ tokenNotice: { tone: 'error', text: describeError(result.error) } })
    },

    async createToken(name, scopes) {
      if (get().tokenBusy) return false
      set({ tokenBusy: true, tokenNotice: null, newToken: null })
      const result = await bridge.call('createToken', { name, ...(scopes ? { scopes } : {}) })
      if (!result.ok) {
        set({ tokenBusy: false, tokenNotice: { tone: 'error', text: `No token was made: ${describeError(result.error)}` } })
        return false
      }
      set({
        tokenBusy: false,
        newToken: { id: result.value.integrator.id, name: result.value.integrator.name, token: result.value.token },
      })
      await get().refreshTokens()
      return true
    },

    async revokeToken(id) {
      if (get().tokenBusy) return
      set({ tokenBusy: true, tokenNotice: null })
      const result = await bridge.call('revokeToken', { id })
      set({
        tokenBusy: false,
        tokenNotice: result.ok
          ? { tone: 'ok', text: `"${result.value.name}" is revoked: that POS can no longer use the terminal.` }
          : { tone: 'error', text: `Not revoked: ${describeError(result.error)}` },
      })
      await get().refreshTokens()
    },

    dismissNewToken() {
      set({ newToken: null })
    },

    pairedWindows: [],

    async refreshWindows() {
      const result = await bridge.call('listWindows', {})
      if (result.ok) set({ pairedWindows: result.value })
      else set({ tokenNotice: { tone: 'error', text: describeError(result.error) } })
    },

    async revokeWindow(id) {
      if (get().tokenBusy) return
      set({ tokenBusy: true, tokenNotice: null })
      const result = await bridge.call('revokeWindow', { id })
      if (result.ok)
        set({
          tokenBusy: false,
          pairedWindows: result.value,
          tokenNotice: { tone: 'ok', text: 'That window is closed: it can no longer use the terminal.' },
        })
      else set({ tokenBusy: false, tokenNotice: { tone: 'error', text: `Not closed: ${describeError(result.error)}` } })
    },

    async openWindow(view) {
      if (get().tokenBusy) return null
      set({ tokenBusy: true, tokenNotice: null })
      const result = await bridge.call(view === 'customer' ? 'openCustomerDisplay' : 'openCashierWindow', {})
      set({
        tokenBusy: false,
        tokenNotice: result.ok
          ? {
              tone: 'ok',
              text: view === 'customer' ? "The customer display's link is under Windows." : 'Another cashier window is opening.',
            }
          : { tone: 'error', text: `Not opened: ${describeError(result.error)}` },
      })
      if (result.ok) void get().refreshWindows()
      return result.ok ? result.value.url : null
    },
  })
