/** Finding a program on PATH without a shell: what `command -v` finds, and nothing else. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { commandOnPath } from '../../../src-main/app/command-on-path'

const dir = mkdtempSync(join(tmpdir(), 'pos-path-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('commandOnPath', () => {
  it('finds the program running these tests in its folder, and in a PATH of several folders', () => {
    expect(commandOnPath(basename(process.execPath), dirname(process.execPath))).toBe(true)
    expect(commandOnPath(basename(process.execPath), ['', dir, dirname(process.execPath)].join(delimiter))).toBe(true)
  })

  it('finds an executable file, not a plain file, a folder or a missing name', () => {
    writeFileSync(join(dir, 'tool'), '#!/bin/sh\n')
    chmodSync(join(dir, 'tool'), 0o755)
    writeFileSync(join(dir, 'notes'), 'text')
    chmodSync(join(dir, 'notes'), 0o644)
    mkdirSync(join(dir, 'folder'))
    expect(commandOnPath('tool', dir)).toBe(true)
    expect(commandOnPath('notes', dir)).toBe(false)
    expect(commandOnPath('folder', dir)).toBe(false)
    expect(commandOnPath('missing', dir)).toBe(false)
    expect(commandOnPath('tool', '')).toBe(false)
  })
})
