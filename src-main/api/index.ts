/**
 * The api domain's door: the local HTTP server (the cashier UI in a browser, the local API, its
 * events and OpenAPI document). It translates HTTP to the application layer (src-main/service) and
 * holds no rule of its own.
 */
export {
  SERVER_LIMITS,
  serverLimitsFor,
  serverTimeouts,
  startLocalServer,
  type ServerLimits,
  type LocalServer,
  type LocalServerOptions,
  type MetricsEndpoint,
} from './local-server'
export { connectionCapWithin, FILES_KEPT, openFileLimit } from './connection-guard'
export { BodyTooLargeError, json, MAX_BODY_BYTES, readBody, sendBodyTooLarge } from './http-body'
export { serveStatic } from './static-files'
