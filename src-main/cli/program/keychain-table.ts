/** `pos-agent key` and `pos-agent email`: the secrets this terminal keeps in the OS keychain. */
import type { CliContext } from './context'

export function addKeychainCommands({ program, withRuntime, finish }: CliContext): void {
  const key = program.command('key').description('the signing key in the OS keychain')
  key
    .command('set')
    .description('read the 32-character signing key from standard input (never an argument, never echoed) and store it')
    .option('--aid <aid>', 'acquirer id the key belongs to (default: from config)')
    .action(async (o: { aid?: string }) => {
      const { keySet } = await import('../commands/key-commands')
      finish(await withRuntime((rt) => keySet(rt, o.aid ?? rt.aid)))
    })
  key
    .command('status')
    .description('show whether a key is stored and its key check value (never the key)')
    .option('--aid <aid>', 'acquirer id (default: from config)')
    .option('--json', 'machine-readable output')
    .action(async (o: { aid?: string; json?: boolean }) => {
      const { keyStatus } = await import('../commands/key-commands')
      finish(await withRuntime((rt) => keyStatus(rt, o.aid ?? rt.aid, o.json === true)))
    })

  program
    .command('email')
    .description("email receipts through the store's SMTP server")
    .command('password')
    .description('read the SMTP password of email.user from standard input (never echoed) and keep it in the OS keychain')
    .action(async () => {
      const { emailPassword } = await import('../commands/email-commands')
      finish(await withRuntime((rt) => emailPassword(rt)))
    })
}
