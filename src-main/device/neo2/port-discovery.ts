/**
 * Finding the reader's serial port. A configured path wins (ptys and fixed udev names are not always
 * enumerated: `SerialPort.list()` does not list ptys, docs/card-reader.md §6). Otherwise the ports are
 * listed and matched on USB vendor/product ids and, if configured, the serial number, because
 * COM numbers and /dev/ttyUSBn names change on replug (docs/card-reader.md §6 "Disconnect", step 3).
 */
import { SerialPort } from 'serialport'
import { ReaderError } from '../reader-error'

/**
 * ID TECH's USB vendor id (D7.18): 0x0ACD in the USB ID database (linux-usb.org usb.ids) [K];
 * docs/neo2-protocol.md does not give it. Product ids differ per model, so none is assumed.
 */
export const IDTECH_USB_VENDOR_ID = '0acd'

export interface PortInfoLike {
  path: string
  manufacturer?: string | undefined
  serialNumber?: string | undefined
  vendorId?: string | undefined
  productId?: string | undefined
}

export interface ReaderPortQuery {
  /** Fixed path (COM3, /dev/ttyACM0, a socat link): returned as it is. */
  path?: string
  /** USB vendor ids, hex without 0x; default ID TECH's. */
  vendorIds?: readonly string[]
  /** USB product ids, hex without 0x; default any. */
  productIds?: readonly string[]
  serialNumber?: string
}

export type PortLister = () => Promise<PortInfoLike[]>

export const listSerialPorts: PortLister = () => SerialPort.list()

/** Lower-case hex without 0x and leading zeros trimmed to 4 digits, as serialport reports ids on every OS. */
function normalizeId(id: string | undefined): string {
  return (id ?? '').toLowerCase().replace(/^0x/, '').padStart(4, '0')
}

export function matchesReaderPort(port: PortInfoLike, query: ReaderPortQuery): boolean {
  const vendors = (query.vendorIds ?? [IDTECH_USB_VENDOR_ID]).map(normalizeId)
  const products = (query.productIds ?? []).map(normalizeId)
  if (!port.vendorId || !vendors.includes(normalizeId(port.vendorId))) return false
  if (products.length > 0 && !products.includes(normalizeId(port.productId))) return false
  return query.serialNumber === undefined || port.serialNumber === query.serialNumber
}

/** The reader's port path; throws `ReaderError('readerNotFound')` when no port matches. Several matches: the first by path. */
export async function discoverReaderPort(query: ReaderPortQuery = {}, list: PortLister = listSerialPorts): Promise<string> {
  if (query.path) return query.path
  const ports = (await list()).filter((port) => matchesReaderPort(port, query))
  ports.sort((a, b) => a.path.localeCompare(b.path))
  const first = ports[0]
  if (!first) {
    const wanted = (query.vendorIds ?? [IDTECH_USB_VENDOR_ID]).join('/')
    throw new ReaderError(
      'readerNotFound',
      `no serial port with USB vendor id ${wanted}${query.productIds?.length ? ` and product id ${query.productIds.join('/')}` : ''}`,
    )
  }
  return first.path
}

/** A `path` function for `SerialReaderTransport`: looks the port up again at every (re)open. */
export function readerPortResolver(query: ReaderPortQuery = {}, list: PortLister = listSerialPorts): () => Promise<string> {
  return () => discoverReaderPort(query, list)
}
