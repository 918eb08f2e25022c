/**
 * `pos-agent sign`, `verify` and `send`: one gateway message by hand, to debug a rejected signature
 * or see how the host answers (docs/gateway.md).
 */
import { Command, Option } from 'commander'
import type { Runtime } from '../../app'
// The flags' choices are the gateway's own names, read when the table is built: before any module
// of the agent is loaded (main.ts), so from src-main/gateway itself, and nothing else of it (a lint
// exception names these four). Signing and sending are the composition root's.
import { OPERATION_KINDS, SIGN_TYPES, type OperationKind, type SignType } from '../../gateway'
import { readBody } from '../commands/io'
import type { CliContext } from './context'

interface SignFlags {
  method: string
  path: string
  dateTime: string
  msgId: string
  signType?: SignType
  bodyFile?: string
  aid?: string
  json?: boolean
}

const signFlags = (command: Command) =>
  command
    .option('--method <method>', 'HTTP method', 'POST')
    .requiredOption('--path <path>', 'path plus query string, without the host (for a notification: the path of the webhook URL)')
    .requiredOption('--date-time <value>', 'the DateTime header value')
    .requiredOption('--msg-id <value>', 'the MsgID header value')
    .addOption(new Option('--sign-type <type>', 'SHA256 | SHA512 | HMAC-SHA256 | HMAC-SHA512 (default: from config)').choices(SIGN_TYPES))
    .option('--body-file <file>', 'body bytes from a file (default: standard input; ignored for GET when signing)')
    .option('--aid <aid>', 'whose signing key to use (default: from config)')
    .option('--json', 'machine-readable output')

async function signInput(rt: Runtime, o: SignFlags) {
  const signType = o.signType ?? rt.loaded?.config.host.signType ?? 'HMAC-SHA256'
  const body = o.method.toUpperCase() === 'GET' && o.bodyFile === undefined ? Buffer.alloc(0) : await readBody(o.bodyFile)
  return { method: o.method.toUpperCase(), path: o.path, dateTime: o.dateTime, msgId: o.msgId, signType, body }
}

export function addGatewayCommands({ program, withRuntime, finish }: CliContext): void {
  signFlags(
    program
      .command('sign')
      .description('print the string to sign (key masked) and the signature for a request, to debug a rejected signature'),
  ).action(async (o: SignFlags) => {
    const [{ signByHand }, { signCommand }] = await Promise.all([import('../../app'), import('../commands/sign-commands')])
    finish(
      await withRuntime(async (rt) => {
        const input = await signInput(rt, o)
        return signCommand(await signByHand(rt.secrets, o.aid ?? rt.aid, input), input.signType, o.json === true)
      }),
    )
  })
  signFlags(program.command('verify').description('check the signature of a received response or notification'))
    .requiredOption('--authorization <hex>', 'the received Authorization header')
    .action(async (o: SignFlags & { authorization: string }) => {
      const [{ verifyByHand }, { verifyCommand }] = await Promise.all([import('../../app'), import('../commands/sign-commands')])
      finish(
        await withRuntime(async (rt) => {
          const checked = await verifyByHand(rt.secrets, o.aid ?? rt.aid, { ...(await signInput(rt, o)), authorization: o.authorization })
          return verifyCommand(checked, o.authorization, o.json === true)
        }),
      )
    })

  program
    .command('send')
    .description('sign one request, send it to the configured host, verify the answer and print it with its outcome class')
    .addArgument(new Command().createArgument('<operation>', 'payment | cancel | reversal | tips | capture').choices(OPERATION_KINDS))
    .argument('[merchantTransID]', 'the original merchantTransID (cancel, reversal, tips, capture)')
    .option('--body-file <file>', 'JSON body from a file (default: standard input)')
    .option('--json', 'print the outcome as one JSON line')
    .action(async (operation: OperationKind, originalId: string | undefined, o: { bodyFile?: string; json?: boolean }) => {
      const { sendCommand } = await import('../commands/send-command')
      finish(await withRuntime(async (rt) => sendCommand(rt, operation, await readBody(o.bodyFile), originalId, o.json === true)))
    })
}
