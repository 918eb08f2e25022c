/**
 * Preload (CommonJS, sandboxed): builds `window.pos`, the PosBridge of src-shared/contract, over two
 * IPC channels. Nothing else crosses: no ipcRenderer, no Node object, no card data (the main process
 * sends masked PAN and ids only).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
// The bridge's own file, not the contract's index: the preload needs the channel names, not the schemas.
import { IPC_CALL, IPC_EVENT, type PosBridge } from '../../src-shared/contract/bridge'
import type { PosEvent } from '../../src-shared/contract'

const bridge: PosBridge = {
  call: (operation, request) => ipcRenderer.invoke(IPC_CALL, operation, request),
  subscribe(listener) {
    const handler = (_event: IpcRendererEvent, payload: PosEvent) => listener(payload)
    ipcRenderer.on(IPC_EVENT, handler)
    return () => ipcRenderer.removeListener(IPC_EVENT, handler)
  },
}

contextBridge.exposeInMainWorld('pos', Object.freeze(bridge))
