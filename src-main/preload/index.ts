/**
 * Preload (CommonJS, sandboxed): builds `window.pos`, the PosBridge of src-shared/contract, over two
 * IPC channels. Nothing else crosses: no ipcRenderer, no Node object, no card data (the main process
 * sends masked PAN and ids only).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { PosBridge, PosEvent } from '../../src-shared/contract'

const IPC_CALL = 'pos:call'
const IPC_EVENT = 'pos:event'

const bridge: PosBridge = {
  call: (operation, request) => ipcRenderer.invoke(IPC_CALL, operation, request),
  subscribe(listener) {
    const handler = (_event: IpcRendererEvent, payload: PosEvent) => listener(payload)
    ipcRenderer.on(IPC_EVENT, handler)
    return () => ipcRenderer.removeListener(IPC_EVENT, handler)
  },
}

contextBridge.exposeInMainWorld('pos', Object.freeze(bridge))
