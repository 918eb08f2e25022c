/**
 * The store's nats-server behind a gate, for the chaos checker: `down` refuses connections (the
 * back-office machine off or unplugged), `slow` holds every byte from the server for a while (a
 * congested store network), `up` lets everything through again.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'

export class StoreGate {
  private readonly sockets = new Set<Socket>()
  private isUp = true
  private delayMs = 0

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async open(targetPort: number): Promise<StoreGate> {
    const server = createServer()
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
    })
    const gate = new StoreGate(server, port)
    server.on('connection', (client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      gate.sockets.add(client).add(upstream)
      const drop = (): void => {
        client.destroy()
        upstream.destroy()
        gate.sockets.delete(client)
        gate.sockets.delete(upstream)
      }
      client.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
      client.pipe(upstream)
      // Bytes from the server wait `delayMs`, in order.
      let last = Promise.resolve()
      upstream.on('data', (chunk: Buffer) => {
        const delay = gate.delayMs
        last = last
          .then(() => (delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : undefined))
          .then(() => void client.write(chunk))
      })
    })
    return gate
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`
  }

  slow(ms: number): void {
    this.delayMs = ms
  }

  async down(): Promise<void> {
    this.delayMs = 0
    if (!this.isUp) return
    this.isUp = false
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()))
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
    await closed
  }

  async up(): Promise<void> {
    this.delayMs = 0
    if (this.isUp) return
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject)
        resolve()
      })
    })
    this.isUp = true
  }

  async close(): Promise<void> {
    await this.down()
  }
}
