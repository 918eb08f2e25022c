/**
 * A lane as test/support/store-lane.ts starts it, with the store settings of docs/store.md "How safe
 * the store's copy is" (`requireDurable`, `syncAlways`, `replicas`, several servers) set on its link:
 * the real engine, the production wiring, a real nats-server.
 */
import pino from 'pino'
import { composeEngine } from '../../../src-main/app/compose'
import { wireStore } from '../../../src-main/app/store-wiring'
import { StoreLink, type StoreLinkSettings } from '../../../src-main/store'
import { testSettings } from '../../support/engine-harness'
import { hostClient, linkSettings, type Lane, type LaneOptions } from '../../support/store-lane'

export async function startLaneWith(
  options: LaneOptions & { copyKey: NonNullable<LaneOptions['copyKey']> },
  link: Partial<StoreLinkSettings>,
): Promise<Lane> {
  const logger = pino({ level: process.env.LANE_LOG ?? 'silent' })
  const settings = testSettings(options.dir, {
    ...options.settings,
    merchant: { storeId: options.storeId ?? 'S1', terminalId: options.terminalId, merchantId: 'M1', pspInfo: { mcc: '5812' } },
  })
  const wiring = await wireStore(new StoreLink({ ...linkSettings(options), ...link }, logger), settings.merchant)
  const client = hostClient(options.hostUrl, options.caPem)
  const engine = await composeEngine(settings, {
    reader: options.reader,
    host: client,
    secrets: options.secrets,
    logger,
    store: wiring.engineStore,
  })
  wiring.start(engine, options.reader)
  return {
    engine,
    wiring,
    client,
    async close() {
      await wiring.link.close()
      await engine.close()
      await client.close()
    },
  }
}
