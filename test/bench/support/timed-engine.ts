/**
 * An engine for the benches on a real journal, signing and sending over HTTPS to a training host in
 * its own process, with a host client that adds up the time spent waiting for the host: the agent's
 * own time is the elapsed time minus that.
 */
import pino from 'pino'
import { composeEngine, type Engine } from '../../../src-main/app/compose'
import { UndiciHostClient, type HostClient } from '../../../src-main/gateway/gateway-client'
import { MemorySecretStore } from '../../../src-main/keychain'
import type { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from '../../support/engine-harness'
import type { HostProcess } from './bench-kit'

export { AID, KEY }

export type TimedHost = HostClient & { spentMs: number }

export function benchHostClient(host: HostProcess): UndiciHostClient {
  return new UndiciHostClient(
    {
      offlineBaseUrl: host.url,
      baseUrl: host.url,
      aid: AID,
      signType: 'HMAC-SHA256',
      extraCaPem: host.caPem,
      connectTimeoutMs: 5_000,
      responseTimeoutMs: 30_000,
    },
    { signingKey: KEY },
  )
}

/** Counts the time inside both ways to the host: a sale's own call and the queue's (a return's credit). */
export function timedHost(inner: HostClient): TimedHost {
  const spend = async <T>(call: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    try {
      return await call()
    } finally {
      wrapper.spentMs += performance.now() - started
    }
  }
  const wrapper: TimedHost = {
    spentMs: 0,
    send: (...args: Parameters<HostClient['send']>) => spend(() => inner.send(...args)),
    sendUnchecked: (...args: Parameters<HostClient['sendUnchecked']>) => spend(() => inner.sendUnchecked(...args)),
    close: () => inner.close(),
  }
  return wrapper
}

/** Each journal gets its own terminal id: merchantTransIDs must never repeat at the one host. */
export function benchEngine(dir: string, host: HostClient, reader: ScriptedCardReader, terminalId: string): Promise<Engine> {
  const base = testSettings(dir)
  return composeEngine(
    { ...base, merchant: { ...base.merchant, terminalId }, duplicateWindowMs: 0 },
    { reader, host, secrets: new MemorySecretStore(), logger: pino({ level: 'silent' }) },
  )
}
