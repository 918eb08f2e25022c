/**
 * Preload (CommonJS, sandboxed): the only bridge between the cashier UI and the main process.
 * It exposes one narrow `window.pos` object; no Node or Electron object crosses it.
 */
import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('pos', Object.freeze({ bridgeVersion: 1 }))
