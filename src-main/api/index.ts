/**
 * The api domain's door: the operations dispatcher every entrance calls, the local HTTP server and
 * its token. The composition root (src-main/app) builds the dispatcher; nothing here imports it.
 */
export { AgentOperations, type AgentContext, type AgentEngine } from './agent-operations'
export { startLocalServer, type LocalServer, type LocalServerOptions } from './local-server'
export { API_TOKEN_FILE, loadOrCreateApiToken } from './api-token'
export { BodyTooLargeError, json, MAX_BODY_BYTES, readBody } from './http-body'
export { INTEGRATOR_TOKENS_FILE, IntegratorTokens } from './integrator-tokens'
export { LAUNCH_TTL_MS, LaunchSessions, type SessionView } from './launch-sessions'
export { serveStatic } from './static-files'
