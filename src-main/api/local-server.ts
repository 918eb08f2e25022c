/**
 * The agent without Electron: an HTTP server bound to 127.0.0.1 only, serving the same cashier UI
 * the Electron window loads. The integration API joins it under /v1.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serveStatic } from './static-files'

export interface LocalServerOptions {
  port: number
  /** Folder of the built renderer (out/renderer). */
  rendererRoot: string
  /** Facts for GET /v1/health. */
  health: () => Record<string, unknown>
}

export interface LocalServer {
  url: string
  close(): Promise<void>
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/'
    if (request.method === 'GET' && path === '/v1/health') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(options.health()))
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET' }).end()
      return
    }
    void serveStatic(options.rendererRoot, path, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
