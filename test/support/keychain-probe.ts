// Child-process probe: opens the secret store for a mode and prints what it got, so a test can vary
// the D-Bus environment without disturbing the keychain connection of the test process itself.
import { openSecretStore, SecretStoreUnavailableError } from '../../src-main/keychain'

const mode = process.argv[2] === 'production' ? 'production' : 'training'
const warnings: string[] = []
const logger = { warn: (_o: unknown, msg: string) => warnings.push(msg) } as unknown as Parameters<typeof openSecretStore>[1]
try {
  const store = await openSecretStore(mode, logger)
  console.log(JSON.stringify({ kind: store.kind, warnings }))
} catch (error) {
  const problem = error instanceof SecretStoreUnavailableError ? { problem: error.problem } : {}
  console.log(JSON.stringify({ error: error instanceof Error ? { name: error.name, message: error.message, ...problem } : String(error) }))
}
