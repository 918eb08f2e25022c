/**
 * Electron entry: the only place that starts Electron. It stays thin; everything it runs is plain
 * Node code that is tested without Electron (docs/architecture.md "Electron is a thin shell").
 */
import { app, BrowserWindow, protocol, net, session } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const SCHEME = 'pos-agent'

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])

if (!app.requestSingleInstanceLock()) app.quit()

function rendererFile(pathname: string): string {
  const root = join(import.meta.dirname, '../renderer')
  const resolved = join(root, pathname === '/' ? 'index.html' : pathname)
  return resolved.startsWith(root) ? resolved : join(root, 'index.html')
}

async function createWindow(): Promise<void> {
  const window = new BrowserWindow({
    width: 1024,
    height: 768,
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  window.once('ready-to-show', () => window.show())
  await window.loadURL(`${SCHEME}://app/index.html`)
}

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  protocol.handle(SCHEME, (request) => net.fetch(pathToFileURL(rendererFile(new URL(request.url).pathname)).toString()))
  await createWindow()
})

app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus())
app.on('window-all-closed', () => app.quit())
