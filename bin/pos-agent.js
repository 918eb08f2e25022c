#!/usr/bin/env node
// The pos-agent command line runs the built bundle (out/main/cli.js, made by `npm run build` with the
// Electron app), so `pos-agent serve` is the same code as the app and needs no compiler at run time.
import { existsSync } from 'node:fs'
import module from 'node:module'

const cli = new URL('../out/main/cli.js', import.meta.url)
if (!existsSync(cli)) {
  process.stderr.write('pos-agent: the command line is not built yet: run `npm run build` (or `npm start`) in the pos-agent folder first\n')
  process.exit(1)
}
// Node 22.1+ keeps the compiled bundle on disk between starts (Node.js docs, "Module compile cache");
// older Node has no such call and compiles at each start.
module.enableCompileCache?.()
await import(cli.href)
