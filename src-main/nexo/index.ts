/**
 * The nexo domain's door: the Sale-to-POI Terminal API (JSON, "unencrypted local" variant) that POS
 * systems built on nexo speak, mapped onto the agent's operations (docs/nexo.md).
 */
export { NexoTerminal, nexoReference, type NexoMemory, type NexoService, type NexoTerminalOptions } from './nexo-terminal'
export { NEXO_DEFAULT_PORT, nexoTlsIdentity, startNexoServer, type NexoServer, type NexoServerOptions } from './nexo-server'
export { NEXO_CATEGORIES, type NexoCategory } from './nexo-messages'
