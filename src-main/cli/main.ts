/**
 * `pos-agent`: the command line. Each subcommand is thin: parse flags, open the runtime, call the
 * command module, exit with a documented code (README "Exit codes"). Errors go to stderr in one line.
 * The command table is in program/, one file per concern; the commands' runners in commands/.
 *
 * A command's module (and the agent's runtime) is imported when that command runs, not before: a
 * start of `serve` loads what serving needs and never the store tools, the doctor or the simulators.
 */
import { CommanderError } from 'commander'
import { EXIT, exitCodeOf } from './exit-codes'
import { addAgentCommands } from './program/agent-table'
import { cliContext } from './program/context'
import { addGatewayCommands } from './program/gateway-table'
import { addKeychainCommands } from './program/keychain-table'
import { addStoreCommands } from './program/store-table'

const cli = cliContext()
// In this order in `--help`.
addKeychainCommands(cli)
addGatewayCommands(cli)
addAgentCommands(cli)
addStoreCommands(cli)

try {
  await cli.program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here too, with exit code 0
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage
  } else {
    process.stderr.write(`pos-agent: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = exitCodeOf(error)
  }
}
