/**
 * The terminal itself: what it is, its reader and settings, the signing key, the integrator tokens
 * that open it to a POS, the windows that show it, and the audit trail of all of these.
 */
import { PosError } from '../../src-shared/errors'
import { keyCheckValue, storeSigningKey } from '../gateway'
import { signingKeyAccount } from '../keychain'
import { auditOfBatch } from './day'
import type { IntegratorTokens } from './integrator-tokens'
import type { Handlers, ServiceParts } from './service-parts'

type TerminalOperations =
  | 'appInfo'
  | 'deviceStatus'
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

export function terminalHandlers(parts: ServiceParts): Handlers<TerminalOperations> {
  const { deps, receipts } = parts
  const tokens = (): IntegratorTokens => {
    if (!deps.tokens) throw new PosError('NOT_FOUND', 'this agent keeps no integrator tokens')
    return deps.tokens
  }
  return {
    appInfo: () => ({ ...deps.info, receipts: { printer: receipts.canPrint, email: receipts.canEmail }, alarms: deps.engine.alarms }),
    deviceStatus: () => deps.reader.status(),
    settings: async () => {
      const key = await deps.secrets.get(signingKeyAccount(deps.settings.aid))
      return { ...deps.settings, signingKey: key === undefined ? { present: false } : { present: true, kcv: keyCheckValue(key) } }
    },
    setSigningKey: async (r) => ({ kcv: await storeSigningKey(deps.secrets, deps.settings.aid, r.key) }),
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
    snapshot: () => parts.snapshot(),
    metrics: async () => {
      if (!deps.metrics) throw new PosError('NOT_FOUND', 'this agent was started without metrics')
      return { contentType: deps.metrics.contentType, text: await deps.metrics.scrape() }
    },
    auditTrail: (r) => {
      const report = deps.engine.txn.dayReport(r.batch)
      return auditOfBatch(parts, report, r.afterSeq, r.limit)
    },
  }
}
