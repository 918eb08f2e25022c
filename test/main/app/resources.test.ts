/**
 * The packaging resources in resources/: the drawn icon, its exports (scripts/icons.mjs), the Linux
 * desktop entry, and the electron-builder settings that use them. Packaging itself needs the network,
 * so what electron-builder would read is checked here.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Window } from 'happy-dom'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')
const resource = (relative: string): string => join(root, 'resources', relative)
const packageName = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name

/** Width and height from a PNG's IHDR chunk, which the format requires to come first. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(png.toString('latin1', 12, 16)).toBe('IHDR')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/** The [Desktop Entry] group of a .desktop file as key → value. */
function desktopEntry(text: string): Map<string, string> {
  const entry = new Map<string, string>()
  let group = ''
  for (const line of text.split('\n')) {
    if (line.startsWith('[')) group = line.trim()
    else if (group === '[Desktop Entry]' && /^[A-Za-z0-9-]+=/.test(line))
      entry.set(line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1))
  }
  return entry
}

/** The block nested under `key:` in YAML, de-indented (enough for electron-builder.yml's maps). */
function yamlBlock(text: string, key: string): string {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line === `${key}:`)
  expect(start, `electron-builder.yml has ${key}:`).toBeGreaterThanOrEqual(0)
  const block: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (line.trim() !== '' && !line.startsWith('  ')) break
    block.push(line.slice(2))
  }
  return block.join('\n')
}

function yamlScalar(block: string, key: string): string | undefined {
  const value = new RegExp(`^${key}: *(.*)$`, 'm').exec(block)?.[1]?.trim()
  return value?.replace(/^(["'])(.*)\1$/, '$2')
}

describe('application icon', () => {
  it('is an SVG document drawn in shapes: square, no script, no text, nothing fetched', async () => {
    const svg = readFileSync(resource('icon.svg'), 'utf8')
    const window = new Window()
    try {
      const document = new window.DOMParser().parseFromString(svg, 'image/svg+xml')
      expect(document.getElementsByTagName('parsererror')).toHaveLength(0)
      const element = document.documentElement
      expect(element.nodeName).toBe('svg')
      expect(element.namespaceURI).toBe('http://www.w3.org/2000/svg')
      expect(element.getAttribute('viewBox')).toBe('0 0 512 512')
      for (const tag of ['script', 'text', 'image', 'foreignObject', 'style'])
        expect(document.getElementsByTagName(tag), tag).toHaveLength(0)
      expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:|href=/)
    } finally {
      await window.happyDOM.close()
    }
  })

  it.each([16, 32, 48, 64, 128, 256, 512, 1024])('has a %ipx PNG export with an alpha channel', (size) => {
    const png = readFileSync(resource(`icons/${size}x${size}.png`))
    expect(pngSize(png)).toEqual({ width: size, height: size })
    expect(png[24]).toBe(8) // bit depth
    expect(png[25]).toBe(6) // colour type: RGBA, so the corners are transparent
  })

  it('has icon.png at 512px, the window icon and the base for other formats', () => {
    expect(pngSize(readFileSync(resource('icon.png')))).toEqual({ width: 512, height: 512 })
  })

  it('has a Windows icon.ico with the sizes from 16 to 256', () => {
    const ico = readFileSync(resource('icon.ico'))
    expect(ico.readUInt16LE(0)).toBe(0)
    expect(ico.readUInt16LE(2)).toBe(1) // an icon, not a cursor
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16] || 256) // 0 means 256
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 128, 256]))
    for (let i = 0; i < sizes.length; i++) {
      const end = ico.readUInt32LE(6 + i * 16 + 12) + ico.readUInt32LE(6 + i * 16 + 8)
      expect(end).toBeLessThanOrEqual(ico.length)
    }
  })

  it('has a macOS icon.icns whose PNG elements have the sizes their types promise', () => {
    const icns = readFileSync(resource('icon.icns'))
    expect(icns.toString('latin1', 0, 4)).toBe('icns')
    expect(icns.readUInt32BE(4)).toBe(icns.length)
    const expected: Record<string, number> = {
      icp4: 16,
      icp5: 32,
      ic11: 32,
      icp6: 64,
      ic12: 64,
      ic07: 128,
      ic08: 256,
      ic13: 256,
      ic09: 512,
      ic14: 512,
      ic10: 1024,
    }
    const found: string[] = []
    for (let offset = 8; offset < icns.length;) {
      const type = icns.toString('latin1', offset, offset + 4)
      const length = icns.readUInt32BE(offset + 4)
      expect(length).toBeGreaterThan(8)
      const size = expected[type]
      expect(size, `known element type ${type}`).toBeDefined()
      expect(pngSize(icns.subarray(offset + 8, offset + length))).toEqual({ width: size, height: size })
      found.push(type)
      offset += length
    }
    expect(found.sort()).toEqual(Object.keys(expected).sort())
  })
})

describe('Linux desktop entry', () => {
  const entry = desktopEntry(readFileSync(resource('pos-agent.desktop'), 'utf8'))

  it('has the keys a launcher needs', () => {
    expect(entry.get('Type')).toBe('Application')
    expect(entry.get('Name')).toBeTruthy()
    expect(entry.get('Comment')).toBeTruthy()
    expect(entry.get('Exec')).toBe('pos-agent %U')
    expect(entry.get('Icon')).toBe('pos-agent')
    expect(entry.get('Terminal')).toBe('false')
    expect(entry.get('Categories')).toBe('Office;Finance;')
  })

  it('ties the running window to the launcher: StartupWMClass is the app name Electron uses', () => {
    expect(entry.get('StartupWMClass')).toBe(packageName)
  })
})

describe('electron-builder.yml', () => {
  const config = readFileSync(join(root, 'electron-builder.yml'), 'utf8')
  const linux = yamlBlock(config, 'linux')
  const entry = desktopEntry(readFileSync(resource('pos-agent.desktop'), 'utf8'))

  it('takes its build resources from resources/', () => {
    expect(yamlScalar(yamlBlock(config, 'directories'), 'buildResources')).toBe('resources')
  })

  it('names an icon for each platform, and each exists', () => {
    const icons = [yamlScalar(linux, 'icon'), yamlScalar(yamlBlock(config, 'win'), 'icon'), yamlScalar(yamlBlock(config, 'mac'), 'icon')]
    expect(icons).toEqual(['resources/icons', 'resources/icon.ico', 'resources/icon.icns'])
    for (const icon of icons) expect(existsSync(join(root, icon!)), icon).toBe(true)
  })

  it('copies the window icon next to app.asar, where the packaged app looks for it', () => {
    expect(yamlBlock(config, 'extraResources')).toMatch(/^- from: resources\/icon\.png\n {2}to: icon\.png$/m)
  })

  it('writes the same desktop entry as resources/pos-agent.desktop', () => {
    const desktop = yamlBlock(yamlBlock(linux, 'desktop'), 'entry')
    for (const key of ['Name', 'GenericName', 'StartupWMClass', 'StartupNotify']) expect(yamlScalar(desktop, key), key).toBe(entry.get(key))
    // electron-builder derives these from other settings: Exec and Icon from executableName,
    // Comment from the description, Categories from the category.
    expect(yamlScalar(linux, 'executableName')).toBe(entry.get('Icon'))
    expect(`${yamlScalar(linux, 'executableName')} %U`).toBe(entry.get('Exec'))
    expect(yamlScalar(linux, 'description')).toBe(entry.get('Comment'))
    expect(`${yamlScalar(linux, 'category')};`).toBe(entry.get('Categories'))
  })
})
