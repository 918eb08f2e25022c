/** Certificates for the servers the agent runs itself (the training host, the nexo endpoint). */
export { loadOrCreateTlsMaterial, TLS_FILES, TRAINING_HOST_TLS, type TlsIdentity, type TlsMaterial } from './tls-material'
