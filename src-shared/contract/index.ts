/** The contract between the agent and its UIs: the single source of truth for operations and events. */
export * from './dto'
export * from './operations'
export * from './access'
export * from './bridge'
export * from './csp'
