/**
 * The terminal itself: what it is, its reader and settings, the signing key, the integrator tokens
 * that open it to a POS, the windows that show it, and the audit trail of all of these.
 */
import { PosError } from '../../src-shared/errors'
import { keyCheckValue, storeSigningKey } from '../gateway'
import { signingKeyAccount, type SecretStore } from '../keychain'
import { auditOfBatch } from './day'
import type { IntegratorTokens } from './integrator-tokens'
import type { Handler, Handlers, ServiceParts } from './service-parts'
import { fingerprint, type Caller } from './caller'
import type { PairedWindowView } from '../../src-shared/contract'

type TerminalOperations =
  | 'appInfo'
  | 'deviceStatus'
  | 'extendCardRead'
  | 'showAmountCheck'
  | 'settings'
  | 'setSigningKey'
  | 'createToken'
  | 'listTokens'
  | 'revokeToken'
  | 'openCashierWindow'
  | 'openCustomerDisplay'
  | 'auditTrail'
  | 'snapshot'
  | 'metrics'
  | 'listWindows'
  | 'revokeWindow'

export function terminalHandlers(parts: ServiceParts): Handlers<TerminalOperations> {
  const { deps, receipts } = parts
  const tokens = (): IntegratorTokens => {
    if (!deps.tokens) throw new PosError('NOT_FOUND', 'this agent keeps no integrator tokens')
    return deps.tokens
  }
  return {
    appInfo: () => ({ ...deps.info, receipts: { printer: receipts.canPrint, email: receipts.canEmail }, alarms: parts.alarms() }),
    deviceStatus: () => deps.reader.status(),
    extendCardRead: () => {
      const extension = deps.reader.extendRead?.()
      if (!extension) throw new PosError('INVALID_STEP', 'no card prompt is waiting that can be given more time')
      deps.logger.info({ expiresAt: extension.expiresAt, extensionsLeft: extension.extensionsLeft }, 'card prompt given more time')
      return extension
    },
    showAmountCheck: (r) => {
      parts.showAmountCheck(r.amount)
      return { shown: r.amount !== null }
    },
    settings: async () => {
      const key = await deps.secrets.get(signingKeyAccount(deps.settings.aid))
      return { ...deps.settings, signingKey: key === undefined ? { present: false } : { present: true, kcv: keyCheckValue(key) } }
    },
    setSigningKey: signingKeyHandler(deps.secrets, deps.settings.aid),
    createToken: (r) => {
      const { token, view } = tokens().create(r.name, r.scopes)
      deps.logger.info({ token: view.id, name: view.name, scopes: view.scopes }, 'integrator token created')
      return { token, integrator: view }
    },
    listTokens: () => tokens().list(),
    revokeToken: (r) => {
      const view = tokens().revoke(r.id)
      deps.logger.info({ token: view.id, name: view.name }, 'integrator token revoked')
      return view
    },
    openCashierWindow: (_r, { caller }) => ({ url: parts.windowLink('cashier', caller) }),
    openCustomerDisplay: (_r, { caller }) => ({ url: parts.windowLink('customer', caller) }),
    listWindows: (_r, { caller }) => pairedWindows(parts, caller),
    revokeWindow: (r, { caller }) => {
      if (!parts.windows.revoke(r.id)) throw new PosError('NOT_FOUND', `no window ${r.id}`)
      return pairedWindows(parts, caller)
    },
    snapshot: () => parts.snapshot(),
    metrics: async () => {
      if (!deps.metrics) throw new PosError('NOT_FOUND', 'this agent was started without metrics')
      return { contentType: deps.metrics.contentType, text: await deps.metrics.scrape() }
    },
    auditTrail: (r) => {
      const report = deps.engine.txn.day.report(r.batch)
      return auditOfBatch(parts, report, r.afterSeq, r.limit)
    },
  }
}

/** The signing key into the keychain; what answers is its key check value, never the key (the owner's service serves it too). */
export function signingKeyHandler(secrets: SecretStore, aid: string): Handler<'setSigningKey'> {
  return async (r) => ({ kcv: await storeSigningKey(secrets, aid, r.key) })
}

/** The paired windows in a manager's words: what opened each, and which is the one asking. */
function pairedWindows(parts: ServiceParts, caller: Caller): PairedWindowView[] {
  const own = caller.door === 'counter' || caller.door === 'display' ? fingerprint(caller.session) : undefined
  const tokenNames = new Map((parts.deps.tokens?.list() ?? []).map((t) => [t.id, t.name]))
  return parts.windows.list().map((w) => ({
    id: w.id,
    view: w.view,
    openedBy:
      w.openedBy.kind === 'owner'
        ? "the computer's owner"
        : w.openedBy.kind === 'token'
          ? `the integration "${tokenNames.get(w.openedBy.id) ?? w.openedBy.id}"`
          : `window ${w.openedBy.session.slice(0, 12)}`,
    createdAt: w.createdAt,
    lastSeenAt: w.lastSeenAt,
    current: w.id === own,
  }))
}
