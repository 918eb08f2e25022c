/**
 * Vitest global setup of the main project: many tests run the command line a user runs
 * (`bin/pos-agent.js`, which imports the built bundle), so the app is built first when the build is
 * missing or older than the sources. A test therefore never passes against an older bundle.
 */
import { buildWhenStale } from '../../scripts/build-when-stale.mjs'

export default async function setup(): Promise<void> {
  await buildWhenStale({ quiet: true })
}
