/**
 * The simulated PIN pad's key store (docs/device-protocol.md D7.24): it holds the BDKs, the agent
 * never does (docs/card-reader.md §4.5 "Keep BDKs out of production code"). The keys are the published
 * TEST keys of ANSI X9.24-1:2009 A.4 and X9.24-3:2017 (docs/card-reader.md §4.3, §4.4): they protect
 * nothing, and a test can recompute every PIN block from them.
 * - TDES DUKPT, ISO 9564 format 0: the device's own future-key registers (`TdesDukptDevice`), so the
 *   first PIN block for PIN 1234 / PAN 4012345678909 is the published A.4 value 1B9C1845EB993A7A.
 * - AES DUKPT (AES-128 BDK → AES-128 PIN key), ISO 9564 format 4 (random fill, so no fixed value).
 */
import {
  aesInitialKey,
  aesPinKey,
  encipherPinBlockIso4,
  encodePinBlockIso0,
  nextAesCounter,
  TdesDukptDevice,
  tdesEncrypt,
  tdesIpek,
} from '../../device/card-data'

export const SIM_PIN_KEYS = {
  tdes: { bdk: '0123456789ABCDEFFEDCBA9876543210', initialKsn: 'FFFF9876543210E00000' },
  aes: { bdk: 'FEDCBA9876543210F1F1F1F1F1F1F1F1', initialKeyId: '1234567890123456' },
} as const

export interface EncryptedPinBlock {
  /** Upper-case hex: 20 characters (TDES) or 24 (AES). */
  ksn: string
  /** Upper-case hex: 16 characters (TDES) or 32 (AES). */
  epb: string
}

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
const up = (bytes: Buffer): string => bytes.toString('hex').toUpperCase()

export class SimPinEncryptor {
  private readonly tdes: TdesDukptDevice
  private readonly aesKey: Buffer
  private aesCounter = 0

  constructor() {
    const { bdk, initialKsn } = SIM_PIN_KEYS.tdes
    this.tdes = new TdesDukptDevice(tdesIpek(hex(bdk), hex(initialKsn)), hex(initialKsn))
    this.aesKey = aesInitialKey(hex(SIM_PIN_KEYS.aes.bdk), hex(SIM_PIN_KEYS.aes.initialKeyId))
  }

  encrypt(pin: string, pan: string, key: 'tdes' | 'aes'): EncryptedPinBlock {
    if (key === 'tdes') {
      const { ksn, pinKey } = this.tdes.next()
      return { ksn: up(ksn), epb: up(tdesEncrypt(pinKey, encodePinBlockIso0(pin, pan))) }
    }
    this.aesCounter = nextAesCounter(this.aesCounter)
    const ksn = Buffer.alloc(12)
    hex(SIM_PIN_KEYS.aes.initialKeyId).copy(ksn, 0)
    ksn.writeUInt32BE(this.aesCounter, 8)
    return { ksn: up(ksn), epb: up(encipherPinBlockIso4(aesPinKey(this.aesKey, ksn), pin, pan)) }
  }
}
