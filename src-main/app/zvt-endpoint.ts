/**
 * The ZVT terminal side of a running agent (docs/zvt.md): a ZvtTerminal over the agent's operations,
 * served over TCP to the store's cash registers. Off unless the configuration (`zvt.enabled`) or
 * `serve --zvt` turns it on. The terminal's ZVT password lives in the OS keychain (`zvt-password`):
 * made once, six random digits, when the endpoint first starts, and told to the manager then.
 */
import { randomInt } from 'node:crypto'
import { packageVersion } from '../config'
import type { ZvtServer } from '../zvt'
import type { RunningAgent } from './agent'
import type { Runtime } from './runtime'

/** The keychain account of the terminal's ZVT password. */
export const ZVT_PASSWORD_ACCOUNT = 'zvt-password'

export interface ZvtEndpointOptions {
  host?: string | undefined
  port?: number | undefined
  /** How long a register may take to acknowledge a message (ms); PA00P016's 5 s by default. */
  ackTimeoutMs?: number | undefined
}

export interface ZvtEndpoint extends ZvtServer {
  /** The password, when this start made it (the manager enters it in the register); otherwise undefined. */
  newPassword?: string
  /** The serial port a register is served on too (`zvt.serial`). */
  serialPath?: string
}

export async function startZvtEndpoint(runtime: Runtime, agent: RunningAgent, options: ZvtEndpointOptions = {}): Promise<ZvtEndpoint> {
  // Loaded only when the endpoint is on, so an agent without it starts without its code.
  const { newZvtPassword, startZvtSerial, startZvtServer, ZvtTerminal } = await import('../zvt')
  let password = await runtime.secrets.get(ZVT_PASSWORD_ACCOUNT)
  let made: string | undefined
  if (password === undefined || !/^\d{6}$/.test(password)) {
    made = newZvtPassword((max) => randomInt(max))
    await runtime.secrets.set(ZVT_PASSWORD_ACCOUNT, made)
    password = made
  }
  const { merchant, zvt } = agent.config
  const terminal = new ZvtTerminal({
    service: agent.service,
    password,
    // Every register gets the same grant: ZVT has no token of its own; its password guards the admin commands.
    grant: { id: 'zvt', name: 'ZVT registers', scopes: zvt.refunds ? ['read', 'sell', 'refund'] : ['read', 'sell'] },
    terminalId: merchant.terminalId,
    merchantId: merchant.merchantId,
    currency: agent.config.currency,
    training: runtime.mode === 'training',
    version: packageVersion(),
    logger: runtime.logger.child({ door: 'zvt' }),
    receiptWidth: zvt.receiptWidth,
  })
  const server = await startZvtServer({
    terminal,
    host: options.host ?? zvt.host,
    port: options.port ?? zvt.port,
    ackTimeoutMs: options.ackTimeoutMs,
  })
  // A register on a serial port too, when configured: the same terminal, so one payment at a time.
  const serial = zvt.serial
    ? await startZvtSerial({ terminal, path: zvt.serial.path, baudRate: zvt.serial.baudRate, stopBits: zvt.serial.stopBits }).catch(
        async (error: unknown) => {
          await server.close()
          throw error
        },
      )
    : undefined
  const endpoint: ZvtEndpoint = {
    ...server,
    ...(serial ? { serialPath: serial.path } : {}),
    close: async () => {
      await serial?.close()
      await server.close()
    },
  }
  return made === undefined ? endpoint : { ...endpoint, newPassword: made }
}
