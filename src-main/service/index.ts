/**
 * The application layer's door (docs/architecture.md): every other door (the local API, Electron
 * IPC, nexo) reaches the agent through AgentService, as a Caller; the command line reaches it through
 * OwnerService, as the `cli` caller, in a process of its own.
 */
export { AgentService, USE_CASE_AREAS, type ServiceAreas, type WindowLinkBuilder } from './agent-service'
export { peopleHandlers } from './people'
export { AuditTrail } from './audit-trail'
export { BY_THE_OWNER, OwnerService, type OwnerOperation, type OwnerServiceDeps } from './owner-service'
export type { CallContext, Handler, Handlers, ServiceDeps, ServiceEngine, ServiceParts } from './service-parts'
export { CLI, INSTALLATION_GRANT, SETUP, callerKey, fingerprint, type Caller, type TokenGrant } from './caller'
export { decide, type AccessDecision, type AccessFacts } from './access'
export { API_TOKEN_FILE, loadOrCreateApiToken } from './api-token'
export { INTEGRATOR_TOKENS_FILE, IntegratorTokens, type VerifiedToken } from './integrator-tokens'
export {
  LAUNCH_TTL_MS,
  WINDOW_IDLE_MS,
  WINDOW_IN_USE_MS,
  WINDOWS_PER_OPENER,
  WINDOWS_PER_ROOT,
  WindowSessions,
  type RedeemRefusal,
  type SessionView,
  type WindowOpener,
} from './windows'
export { REFUSAL_COUNT_MS, type RefusedCredential } from './credential-refusals'
export { APPROVAL_TTL_MS, requestHash } from './approvals'
export { PIN_TOKEN_WINDOW_MS, PIN_TRIES_PER_TOKEN, PIN_TRIES_PER_WINDOW, PIN_WINDOW_MS } from './pin-guard'
export { TokenCheck } from './token-check'
