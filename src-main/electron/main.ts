/**
 * Electron entry: the only place that starts Electron. It stays thin: it opens the same runtime and
 * agent as `pos-agent serve` (src-main/app), shows one hardened window, and wires IPC. Everything it
 * runs is plain Node code tested without Electron (docs/architecture.md "Electron is a thin shell").
 */
import { app, BrowserWindow, dialog, ipcMain, net, protocol, screen, session } from 'electron'
import { join, normalize, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { defaultReaderFactory, openRuntime, startAgent, type RunningAgent } from '../app'
import { toPosError } from '../errors'
import { IPC_EVENT, registerIpc } from './ipc'
import { createWindow, windowPlaces } from './window'
import { contentSecurityPolicy, ELECTRON_APP_ORIGIN } from '../../src-shared/contract'
import { wordsOf } from '../../src-shared/errors'

const SCHEME = 'pos-agent'
const CSP = contentSecurityPolicy(ELECTRON_APP_ORIGIN, false)

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])

if (!app.requestSingleInstanceLock()) app.quit()

/** Files under out/renderer only; anything else is the app shell. */
function rendererFile(pathname: string): string {
  const root = join(import.meta.dirname, '../renderer')
  const resolved = normalize(join(root, decodeURIComponent(pathname)))
  return resolved.startsWith(root + sep) ? resolved : join(root, 'index.html')
}

let agent: RunningAgent | undefined

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  protocol.handle(SCHEME, async (request) => {
    const file = await net.fetch(pathToFileURL(rendererFile(new URL(request.url).pathname)).toString())
    const headers = new Headers(file.headers)
    headers.set('content-security-policy', CSP)
    return new Response(file.body, { status: file.status, headers })
  })
  try {
    const runtime = await openRuntime({})
    agent = await startAgent(runtime, defaultReaderFactory)
  } catch (error) {
    // A refusal to start (configuration gone missing over a production journal, no OS keychain in
    // production) is said in a window the person at the counter sees, not only on a console: the
    // catalogue's words first, then the detail for whoever fixes it.
    const failure = toPosError(error)
    dialog.showErrorBox('pos-agent cannot start', `${wordsOf(failure.code)}\n\n${failure.message}`)
    app.exit(1)
    return
  }
  // A second display faces the customer: the customer display opens on it, full screen.
  const places = windowPlaces(screen.getAllDisplays(), screen.getPrimaryDisplay().id)
  const windows = places.map((place) => ({ place, window: createWindow(place) }))
  const displayIds = new Set(windows.filter(({ place }) => place.view === 'customer').map(({ window }) => window.webContents.id))
  registerIpc(
    ipcMain,
    agent.service,
    (event) => {
      for (const { window } of windows) if (!window.isDestroyed()) window.webContents.send(IPC_EVENT, event)
    },
    { isDisplayWindow: (event) => event.sender !== undefined && displayIds.has(event.sender.id) },
  )
})

app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus())
app.on('web-contents-created', (_event, contents) => contents.on('will-attach-webview', (event) => event.preventDefault()))
app.on('window-all-closed', () => app.quit())
app.on('before-quit', () => {
  void agent?.close()
})
