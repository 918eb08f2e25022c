#!/usr/bin/env node
// The pos-agent command line runs the TypeScript sources through tsx, so it needs no build step.
import { register } from 'tsx/esm/api'

register()
await import('../src-main/cli/main.ts')
