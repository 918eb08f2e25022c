// Runs the training host in its own process for benchmarks, so host work does not share the event
// loop being measured. Prints one JSON line {url, caFile} when listening; stops on SIGTERM.
import { startTrainingHost } from '../../../src-main/training/host'

const [stateDir, aid, key] = process.argv.slice(2)
if (!stateDir || !aid || !key) throw new Error('usage: training-host-process <stateDir> <aid> <key>')
const host = await startTrainingHost({ stateDir, signingKeys: { [aid]: key } })
console.log(JSON.stringify({ url: host.url, caFile: host.caFile }))
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)))
