/**
 * A TCP conversation as a pcap file (libpcap format, LINKTYPE_RAW: IPv4 packets), written from the
 * bytes each side sent, so Wireshark's dissector can read what the agent said without capturing on
 * the machine (no root, no interface). Each direction's bytes become segments with their sequence
 * numbers, after a three-way handshake, so tshark reassembles APDUs across segments as on a wire.
 */
import { writeFileSync } from 'node:fs'

export interface Chunk {
  /** Who sent it: the register (client) or the terminal (server). */
  from: 'register' | 'terminal'
  bytes: Uint8Array
}

const LINKTYPE_RAW = 101
const SEGMENT = 1400

export function writeTcpPcap(path: string, chunks: readonly Chunk[], ports: { register: number; terminal: number }): void {
  const packets: Buffer[] = []
  const seq = { register: 1000, terminal: 5000 }
  const other = (side: 'register' | 'terminal'): 'register' | 'terminal' => (side === 'register' ? 'terminal' : 'register')
  const push = (from: 'register' | 'terminal', flags: number, payload: Uint8Array = new Uint8Array(0)): void => {
    packets.push(ipPacket(from, ports, seq[from], seq[other(from)], flags, payload))
    seq[from] += payload.length + (flags & (SYN | FIN) ? 1 : 0)
  }
  // Handshake: the register connects.
  packets.push(ipPacket('register', ports, seq.register, 0, SYN, new Uint8Array(0)))
  seq.register++
  push('terminal', SYN | ACKF)
  push('register', ACKF)
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.bytes.length; at += SEGMENT) push(chunk.from, ACKF | PSH, chunk.bytes.subarray(at, at + SEGMENT))
  }
  push('register', FIN | ACKF)
  push('terminal', FIN | ACKF)
  push('register', ACKF)

  const header = Buffer.alloc(24)
  header.writeUInt32LE(0xa1b2c3d4, 0)
  header.writeUInt16LE(2, 4)
  header.writeUInt16LE(4, 6)
  header.writeUInt32LE(0x40000, 16)
  header.writeUInt32LE(LINKTYPE_RAW, 20)
  const records = packets.map((packet, index) => {
    const record = Buffer.alloc(16)
    record.writeUInt32LE(1_700_000_000, 0)
    record.writeUInt32LE(index * 1000, 4)
    record.writeUInt32LE(packet.length, 8)
    record.writeUInt32LE(packet.length, 12)
    return Buffer.concat([record, packet])
  })
  writeFileSync(path, Buffer.concat([header, ...records]))
}

const FIN = 0x01
const SYN = 0x02
const PSH = 0x08
const ACKF = 0x10

const LOOPBACK = [127, 0, 0, 1]

function ipPacket(
  from: 'register' | 'terminal',
  ports: { register: number; terminal: number },
  seq: number,
  ack: number,
  flags: number,
  payload: Uint8Array,
): Buffer {
  const [sourcePort, destinationPort] = from === 'register' ? [ports.register, ports.terminal] : [ports.terminal, ports.register]
  const tcp = Buffer.alloc(20 + payload.length)
  tcp.writeUInt16BE(sourcePort, 0)
  tcp.writeUInt16BE(destinationPort, 2)
  tcp.writeUInt32BE(seq >>> 0, 4)
  tcp.writeUInt32BE(flags & ACKF ? ack >>> 0 : 0, 8)
  tcp[12] = 5 << 4
  tcp[13] = flags
  tcp.writeUInt16BE(65535, 14)
  Buffer.from(payload).copy(tcp, 20)
  const pseudo = Buffer.alloc(12)
  Buffer.from(LOOPBACK).copy(pseudo, 0)
  Buffer.from(LOOPBACK).copy(pseudo, 4)
  pseudo[9] = 6
  pseudo.writeUInt16BE(tcp.length, 10)
  tcp.writeUInt16BE(checksum(Buffer.concat([pseudo, tcp])), 16)

  const ip = Buffer.alloc(20)
  ip[0] = 0x45
  ip.writeUInt16BE(20 + tcp.length, 2)
  ip[8] = 64
  ip[9] = 6
  Buffer.from(LOOPBACK).copy(ip, 12)
  Buffer.from(LOOPBACK).copy(ip, 16)
  ip.writeUInt16BE(checksum(ip), 10)
  return Buffer.concat([ip, tcp])
}

/** The Internet checksum (RFC 1071). */
function checksum(bytes: Buffer): number {
  let sum = 0
  for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i]! << 8) | (bytes[i + 1] ?? 0)
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16)
  return ~sum & 0xffff
}
