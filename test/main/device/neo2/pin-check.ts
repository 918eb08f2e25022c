/**
 * Decrypts a PIN block the way the host's HSM would, with the published TEST BDKs the simulated
 * PIN pad holds (docs/card-reader.md §4.3, §4.4): proof that the driver forwarded a real DUKPT PIN block.
 */
import {
  aesInitialKey,
  aesPinKey,
  decipherPinBlockIso4,
  decodePinBlock,
  tdesDecrypt,
  tdesIpek,
  tdesPinKey,
  tdesTransactionKey,
} from '../../../../src-main/device/card-data'
import type { EncryptedPin } from '../../../../src-main/device'
import { SIM_PIN_KEYS } from '../../../../src-main/training/pinpad'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')

export function decryptPin(pin: EncryptedPin, pan: string): string {
  const ksn = hex(pin.keySerialNumber)
  if (pin.pinEncryptMethod === 'DUKPT-TDES-ISO0') {
    const key = tdesPinKey(tdesTransactionKey(tdesIpek(hex(SIM_PIN_KEYS.tdes.bdk), ksn), ksn))
    return decodePinBlock(tdesDecrypt(key, hex(pin.encryptedPin)), 0, pan)
  }
  if (pin.pinEncryptMethod === 'DUKPT-AES-ISO4') {
    const key = aesPinKey(aesInitialKey(hex(SIM_PIN_KEYS.aes.bdk), ksn.subarray(0, 8)), ksn)
    return decipherPinBlockIso4(key, hex(pin.encryptedPin), pan)
  }
  throw new Error(`unknown PIN encryption method ${pin.pinEncryptMethod}`)
}
