/** Serving the built renderer (out/renderer) in browser mode: only files under its root, never above it. */
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { ServerResponse } from 'node:http'

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
}

/** `page` rewrites the app shell (index.html) before it is sent, e.g. its CSP for this origin. */
export async function serveStatic(
  root: string,
  urlPath: string,
  response: ServerResponse,
  page: (html: string) => string = (html) => html,
): Promise<void> {
  const relative = normalize(decodeURIComponent(urlPath.split('?')[0] ?? '/')).replace(/^([/\\])+/, '')
  const file = join(root, relative === '' ? 'index.html' : relative)
  if (!file.startsWith(root + sep) && file !== root) {
    response.writeHead(404).end()
    return
  }
  try {
    const body = await readFile(file)
    const html = extname(file) === '.html'
    response
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'x-content-type-options': 'nosniff' })
      .end(html ? page(body.toString('utf8')) : body)
  } catch {
    // unknown paths fall back to the app shell (client-side screens)
    const shell = await readFile(join(root, 'index.html')).catch(() => undefined)
    if (shell) response.writeHead(200, { 'content-type': TYPES['.html']! }).end(page(shell.toString('utf8')))
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('the cashier UI is not built: run `npm run build`')
  }
}
