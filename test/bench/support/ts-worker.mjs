/**
 * A worker thread running a TypeScript module: the tsx loader the main thread was started with is
 * not inherited by workers, so it is registered here first. `workerData.module` names the module.
 */
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.module)
