#!/usr/bin/env node
/**
 * Regenerates the icon files in resources/ from the one drawn source, resources/icon.svg:
 *   resources/icons/NxN.png  16…1024, the Linux icon set (electron-builder reads the size from the name)
 *   resources/icon.png       512, the window icon at run time and the base for any other format
 *   resources/icon.ico       16…256, Windows (executable, installer, taskbar)
 *   resources/icon.icns      16…1024, macOS
 *
 * Run from the repository root after changing the SVG, then commit the files it writes:
 *
 *   npm i --prefix /tmp/icon-tools @resvg/resvg-js@2.6.2 png-to-ico@3.0.2
 *   ICON_TOOLS=/tmp/icon-tools node scripts/icons.mjs
 *
 * The exports are committed, so building and packaging never need these two packages: they are found
 * in $ICON_TOOLS/node_modules, or in the project's own node_modules when ICON_TOOLS is not set.
 * Every size is rendered from the SVG rather than scaled down from a large PNG, which keeps the
 * small sizes sharp.
 */
import { createRequire } from 'node:module'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '..')
const resources = join(root, 'resources')

const PNG_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024]
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
// ICNS element types that hold PNG data (macOS 10.7+), each with the pixel size it expects. The @2x
// types repeat a size under another name, as Apple's iconutil writes them.
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['icp6', 64],
  ['ic12', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256],
  ['ic09', 512],
  ['ic14', 512],
  ['ic10', 1024],
]

async function load(name) {
  const base = process.env.ICON_TOOLS ? join(resolve(process.env.ICON_TOOLS), 'package.json') : import.meta.url
  try {
    return await import(pathToFileURL(createRequire(base).resolve(name)).href)
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND' && error?.code !== 'ERR_MODULE_NOT_FOUND') throw error
    console.error(`scripts/icons.mjs needs the npm package ${name}, which is not a dependency of the project. Install it outside the repository and point ICON_TOOLS at that folder:

  npm i --prefix /tmp/icon-tools @resvg/resvg-js@2.6.2 png-to-ico@3.0.2
  ICON_TOOLS=/tmp/icon-tools node scripts/icons.mjs`)
    process.exit(1)
  }
}

/** An .icns file: the magic and total length, then (type, length, data) elements, big-endian. */
function icns(pngBySize) {
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = pngBySize.get(size)
    const header = Buffer.alloc(8)
    header.write(type, 0, 'latin1')
    header.writeUInt32BE(8 + png.length, 4)
    return Buffer.concat([header, png])
  })
  const header = Buffer.alloc(8)
  header.write('icns', 0, 'latin1')
  header.writeUInt32BE(8 + elements.reduce((n, e) => n + e.length, 0), 4)
  return Buffer.concat([header, ...elements])
}

// @resvg/resvg-js is CommonJS: its exports arrive as the namespace's default.
const { Resvg } = (await load('@resvg/resvg-js')).default
const pngToIco = (await load('png-to-ico')).default

const svg = readFileSync(join(resources, 'icon.svg'), 'utf8')
const render = (size) => Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng())
const pngBySize = new Map([...new Set([...PNG_SIZES, ...ICO_SIZES])].map((size) => [size, render(size)]))

const written = []
const write = (relative, data) => {
  writeFileSync(join(resources, relative), data)
  written.push(`resources/${relative} (${data.length} bytes)`)
}
mkdirSync(join(resources, 'icons'), { recursive: true })
for (const size of PNG_SIZES) write(`icons/${size}x${size}.png`, pngBySize.get(size))
write('icon.png', pngBySize.get(512))
write('icon.ico', await pngToIco(ICO_SIZES.map((size) => pngBySize.get(size))))
write('icon.icns', icns(pngBySize))
console.log(`icons: wrote\n  ${written.join('\n  ')}`)
