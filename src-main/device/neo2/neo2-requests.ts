/**
 * Each NEO 2 command the driver sends, with its timeout and retry policy (docs/device-protocol.md
 * §7 D7.13-D7.14; docs/neo2-protocol.md §10 "Suggested driver policy"):
 * - idempotent commands (18-01, 05-01, 62-00) are resent after silence or a corrupt answer;
 * - 02-40, 60-11, 60-12 and 62-01 never are: a resend would cancel or repeat a card dialogue;
 * - every command is resent once on status 04 (the reader rejected our frame; nothing started).
 */
import type { HostAnswerForCard } from '../card-reader'
import type { ActivateParams } from './neo2-commands'
import {
  activateTransactionData,
  applyHostResponseData,
  cancelTransactionData,
  contactAuthenticateData,
  NEO2_COMMANDS,
} from './neo2-commands'
import type { CommandRequest } from './neo2-channel'
import type { PinRequest } from './neo2-pin'
import { getEncryptedPinData } from './neo2-pin'

export interface Neo2Timeouts {
  /** 18-01 and other admin commands: 2 s (docs/neo2-protocol.md §10). */
  pingMs: number
  /** 05-01 and 62-00. */
  cancelMs: number
  /** Added to the 02-40 card timeout: "timeout byte + 15 s" (docs/neo2-protocol.md §10). */
  activateMarginMs: number
  /** 60-11 and 60-12: card dialogue incl. offline data authentication. */
  contactMs: number
  /** 62-01 first (ACK) response. */
  pinAckMs: number
  /** 62-01 second response: the PIN pad's 3 min entry timeout + 10 s (IDG p.346; docs/neo2-protocol.md §10). */
  pinEntryMs: number
  /** How long an interrupted command may still answer after the interrupt's reply. */
  abortGraceMs: number
}

export const DEFAULT_NEO2_TIMEOUTS: Neo2Timeouts = {
  pingMs: 2_000,
  cancelMs: 3_000,
  activateMarginMs: 15_000,
  contactMs: 30_000,
  pinAckMs: 2_000,
  pinEntryMs: 190_000,
  abortGraceMs: 500,
}

const id = (name: keyof typeof NEO2_COMMANDS) => NEO2_COMMANDS[name]

export function pingRequest(t: Neo2Timeouts): CommandRequest {
  return { name: '18-01', ...id('ping'), timeoutMs: t.pingMs, retriesOnSilence: 1 }
}

export function cancelRequest(t: Neo2Timeouts): CommandRequest {
  return { name: '05-01', ...id('cancelTransaction'), data: cancelTransactionData(), timeoutMs: t.cancelMs, retriesOnSilence: 1 }
}

export function activateRequest(params: ActivateParams, t: Neo2Timeouts): CommandRequest {
  return {
    name: '02-40',
    ...id('activateTransaction'),
    data: activateTransactionData(params),
    timeoutMs: params.timeoutSeconds * 1000 + t.activateMarginMs,
  }
}

export function authenticateRequest(t: Neo2Timeouts): CommandRequest {
  return { name: '60-11', ...id('contactAuthenticate'), data: contactAuthenticateData(), timeoutMs: t.contactMs }
}

export function applyHostResponseRequest(answer: HostAnswerForCard, t: Neo2Timeouts): CommandRequest {
  return { name: '60-12', ...id('contactApplyHostResponse'), data: applyHostResponseData(answer), timeoutMs: t.contactMs }
}

export function getPinRequest(pin: PinRequest, t: Neo2Timeouts, onAck: () => void): CommandRequest {
  return {
    name: '62-01',
    ...id('getEncryptedPin'),
    data: getEncryptedPinData(pin),
    timeoutMs: t.pinAckMs,
    secondaryResponse: { timeoutMs: t.pinEntryMs, onAck },
  }
}

export function cancelPinRequest(t: Neo2Timeouts): CommandRequest {
  return { name: '62-00', ...id('cancelPin'), timeoutMs: t.cancelMs, retriesOnSilence: 1 }
}
