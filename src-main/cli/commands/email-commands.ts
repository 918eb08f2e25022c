/**
 * `pos-agent email password`: the SMTP password of the store's mail server goes into the keychain,
 * read from standard input and never shown again (the configuration names only the server and user).
 */
import { keepSmtpPassword, type Runtime } from '../../app'
import { EXIT } from '../exit-codes'
import { readSecret } from './io'

export async function emailPassword(runtime: Runtime): Promise<number> {
  const email = runtime.loaded?.config.email
  if (!email?.user) {
    console.error('no email.user in the configuration: set email.host, email.user and email.from first (docs/receipts.md)')
    return EXIT.config
  }
  const password = await readSecret(`SMTP password for ${email.user} at ${email.host} (not echoed): `)
  if (password.length === 0) {
    console.error('no password given: nothing was stored')
    return EXIT.usage
  }
  await keepSmtpPassword(runtime.secrets, email.user, email.host, password)
  const where = runtime.secrets.kind === 'os-keychain' ? 'the OS keychain' : 'process memory only (training, no OS keychain)'
  console.log(`SMTP password for ${email.user} at ${email.host} stored in ${where}`)
  return EXIT.ok
}
