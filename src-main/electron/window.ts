/**
 * The hardened app windows, and the icon they show: the cashier's window, and on a second display the
 * customer-facing display (the same page, `?view=customer`, read-only by what it renders).
 */
import { app, BrowserWindow, type Rectangle } from 'electron'
import { join } from 'node:path'
import { APP_ORIGIN } from './ipc'

/**
 * The window icon is set here because on Linux nothing else gives the window one (the desktop
 * entry's Icon names only the launcher's). Packaged, electron-builder copies resources/icon.png next
 * to app.asar (extraResources in electron-builder.yml); otherwise it is the repository's
 * resources/icon.png, two folders above the bundle in out/main (and above this file under test).
 */
export function windowIconPath(packaged: boolean = app.isPackaged): string {
  return packaged ? join(process.resourcesPath, 'icon.png') : join(import.meta.dirname, '../../resources/icon.png')
}

export interface WindowPlace {
  /** `customer`: the customer display, full screen on the display whose bounds are given. */
  view: 'cashier' | 'customer'
  bounds?: Rectangle
}

/** The parts of Electron's Display this module reads. */
export interface DisplayLike {
  id: number
  bounds: Rectangle
}

/**
 * Where the windows go: the cashier's on the primary display, and the customer display full screen
 * on the first other display, when there is one. A single display shows the cashier's window only
 * (a browser at `/customer` serves a display attached elsewhere).
 */
export function windowPlaces(displays: readonly DisplayLike[], primaryId: number): WindowPlace[] {
  const second = displays.find((display) => display.id !== primaryId)
  return [{ view: 'cashier' }, ...(second ? [{ view: 'customer' as const, bounds: second.bounds }] : [])]
}

export function createWindow(place: WindowPlace = { view: 'cashier' }): BrowserWindow {
  const customer = place.view === 'customer'
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    ...(place.bounds ? { x: place.bounds.x, y: place.bounds.y, width: place.bounds.width, height: place.bounds.height } : {}),
    ...(customer ? { fullscreen: true, autoHideMenuBar: true, title: 'Customer display' } : {}),
    show: false,
    icon: windowIconPath(),
    webPreferences: {
      // The preload is reviewed: it exposes only the PosBridge's call/subscribe over two IPC channels,
      // and every call is checked in ipc.ts (sender frame) and validated by the contract's schemas.
      preload: join(import.meta.dirname, '../preload/index.cjs') /* eng-disable PRELOAD_JS_CHECK */,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      // Middle-click would open links in new windows (electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  window.once('ready-to-show', () => window.show())
  void window.loadURL(`${APP_ORIGIN}/index.html${customer ? '?view=customer' : ''}`)
  return window
}
