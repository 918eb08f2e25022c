/**
 * What a NEO 2 reader is configured with, and the sale flows' context built from it
 * (docs/device-protocol.md §7 for every default and its source).
 */
import type { DeviceEvent } from '../card-reader'
import type { ReaderCapabilities } from '../card-data/entry-mode'
import { buildIcCardData } from '../card-data/ic-card-data'
import type { Neo2Channel } from './neo2-channel'
import type { Neo2FramerOptions } from './neo2-framer'
import type { PinRequest } from './neo2-pin'
import { DEFAULT_PIN_REQUEST } from './neo2-pin'
import type { Neo2Timeouts } from './neo2-requests'
import type { FlowContext } from './neo2-session'
import type { ReaderLog } from './reader-log'
import type { BackoffOptions } from './reader-link'
import type { ReaderTransport } from './serial-transport'
import { SYSTEM_CLOCK } from '../../../src-shared/clock'

export interface Neo2ReaderOptions {
  transport: ReaderTransport
  /** Default: contact, contactless, magstripe and a PIN pad (VP3300/3600-class, D5.2). */
  capabilities?: ReaderCapabilities
  /** Magstripe fallback after a failed chip read; default true (D5.4). */
  fallbackAllowed?: boolean
  timeouts?: Partial<Neo2Timeouts>
  /** Idle ping period; 0 turns the heartbeat off. Default 5 s (docs/card-reader.md §6: 5-10 s). */
  heartbeatMs?: number
  backoff?: Partial<BackoffOptions>
  /** DFEF3C next-command timeout for the contact flow; default 120 s (D7.2). */
  nextCommandTimeoutSeconds?: number
  pinRequest?: PinRequest
  icCardDataTags?: readonly string[]
  framer?: Pick<Neo2FramerOptions, 'interByteTimeoutMs' | 'maxDataLength'>
  now?: () => Date
  log?: ReaderLog
}

const ALL_CAPABILITIES: ReaderCapabilities = { contact: true, contactless: true, magstripe: true, pinPad: true }

export function flowContextFor(
  options: Neo2ReaderOptions,
  timeouts: Neo2Timeouts,
  channel: Neo2Channel,
  emit: (event: DeviceEvent) => void,
): FlowContext {
  // A configured DE 55 list naming a forbidden tag is a setup error: refuse it now, not mid-sale.
  if (options.icCardDataTags) buildIcCardData([], { tags: options.icCardDataTags })
  return {
    channel,
    emit,
    capabilities: options.capabilities ?? ALL_CAPABILITIES,
    fallbackAllowed: options.fallbackAllowed ?? true,
    timeouts,
    nextCommandTimeoutSeconds: options.nextCommandTimeoutSeconds ?? 120,
    pinRequest: options.pinRequest ?? DEFAULT_PIN_REQUEST,
    ...(options.icCardDataTags ? { icCardDataTags: options.icCardDataTags } : {}),
    now: options.now ?? (() => new Date(SYSTEM_CLOCK.now())),
  }
}
