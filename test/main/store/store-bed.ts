/**
 * What the store's lane tests stand on: a temporary folder, a real nats-server and the training
 * bank on 127.0.0.1, started before each test and stopped after it with the lane the test opened;
 * and the lane's options, the same in each of them but for its card reader.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { MemorySecretStore } from '../../../src-main/keychain'
import type { X25519PrivateJwk } from '../../../src-main/store'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import type { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { AID, KEY } from '../../support/engine-harness'
import { startNatsServer, type NatsServer } from '../../support/nats-server'
import type { Lane, LaneOptions } from '../../support/store-lane'

export interface StoreBed {
  readonly dir: string
  readonly nats: NatsServer
  readonly host: TrainingHost
  /** The lane a test opened: closed after it. */
  lane: Lane | undefined
  /** Lane T-0001 of store S1 on this bed's bank and store server, sealing with `copyKey`. */
  laneOptions(reader: ScriptedCardReader): LaneOptions & { copyKey: X25519PrivateJwk }
}

/** Registers the bed's set-up and tear-down in the enclosing `describe`. */
export function storeBed(prefix: string, keys: { recoveryPublicKey: string; copyKey: X25519PrivateJwk }): StoreBed {
  let dir = ''
  let nats: NatsServer | undefined
  let host: TrainingHost | undefined
  const bed: StoreBed = {
    get dir() {
      return dir
    },
    get nats() {
      return nats!
    },
    get host() {
      return host!
    },
    lane: undefined,
    laneOptions: (reader) => ({
      dir: join(dir, 'lane'),
      hostUrl: host!.url,
      caPem: host!.caPem,
      natsUrl: nats!.url,
      terminalId: 'T-0001',
      reader,
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.recoveryPublicKey,
      copyKey: keys.copyKey,
    }),
  }
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix))
    nats = await startNatsServer()
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  })
  afterEach(async () => {
    await bed.lane?.close()
    bed.lane = undefined
    await host?.close()
    await nats?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return bed
}
