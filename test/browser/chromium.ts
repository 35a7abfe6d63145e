import { chromium, type Browser } from 'playwright-core'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, normalize, sep } from 'node:path'
import { promisify } from 'node:util'
import { brotliDecompress } from 'node:zlib'

/**
 * The Chromium the browser tests drive, never a downloaded one: Debian's `/usr/bin/chromium` when it is
 * installed, else the Chromium binary shipped inside the `@sparticuz/chromium` dev dependency, so a
 * fresh machine needs nothing but `npm install`. `PIX_TEST_CHROMIUM=packaged` uses the packaged one
 * even where Debian's is installed (a fresh machine, reproduced).
 *
 * The package's own `executablePath()` is not used: it unpacks into the root of the temp folder
 * (`/tmp/chromium`, `/tmp/libGLESv2.so`, ...) and takes any existing `/tmp/chromium` as done, so two
 * test processes unpacking at once (tap runs two files at a time) can launch a half-written binary,
 * and on anything but Amazon Linux it leaves out the NSS libraries the binary links against. Its
 * `args` are serverless flags (`--single-process`, `--disable-web-security`) that would hide the
 * dashboard's same-origin and CSP behaviour; every browser here gets `FLAGS` instead.
 */

export const SYSTEM_CHROMIUM = '/usr/bin/chromium'

export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

export type BrowserSource = 'system' | 'packaged'

/** The browser the tests use by default: Debian's when installed, unless PIX_TEST_CHROMIUM says packaged. */
export function preferredSource (env: Record<string, string | undefined> = process.env, systemPath = SYSTEM_CHROMIUM): BrowserSource {
  const wanted = env.PIX_TEST_CHROMIUM ?? ''
  if (wanted === 'packaged') return 'packaged'
  if (wanted !== '' && wanted !== 'auto') {
    throw new Error(`PIX_TEST_CHROMIUM=${wanted} is not a choice: "auto" (Debian's chromium when installed, else the packaged one) or "packaged"`)
  }
  return existsSync(systemPath) ? 'system' : 'packaged'
}

/**
 * The browsers the dashboard walk-through runs on: the preferred one, and the packaged one as well
 * where that is Debian's, so the path a fresh machine takes is proven on every machine.
 */
export function walkThroughSources (env: Record<string, string | undefined> = process.env, systemPath = SYSTEM_CHROMIUM): BrowserSource[] {
  return preferredSource(env, systemPath) === 'system' ? ['system', 'packaged'] : ['packaged']
}

const require = createRequire(import.meta.url)

/** Where @sparticuz/chromium is installed, and its version (the unpacked copy is kept per version). */
export function packagedChromiumPackage (): { dir: string, version: string } {
  const dir = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..')
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
  return { dir, version }
}

export interface LaunchedChromium {
  browser: Browser
  source: BrowserSource
  /** Which binary, in words, for test names and failure messages. */
  description: string
}

/**
 * Launches the chosen Chromium with FLAGS. A browser that cannot start is an error that says which
 * one and why (never a skipped test): the caller's test fails with it.
 */
export async function launchChromium (source: BrowserSource, options: { systemPath?: string, cacheRoot?: string } = {}): Promise<LaunchedChromium> {
  const systemPath = options.systemPath ?? SYSTEM_CHROMIUM
  let description = `Debian's Chromium (${systemPath})`
  let hint = ': install it with `apt-get install chromium`, or run with PIX_TEST_CHROMIUM=packaged to use the packaged one'
  try {
    if (source === 'system') {
      if (!existsSync(systemPath)) throw new Error('not installed')
      return { browser: await chromium.launch({ executablePath: systemPath, args: FLAGS }), source, description }
    }
    const pkg = packagedChromiumPackage()
    description = `the packaged Chromium (@sparticuz/chromium ${pkg.version})`
    hint = ': `npm install` installs it (a dev dependency); Debian\'s `apt-get install chromium` is the other way'
    const dir = await unpackChromium(join(pkg.dir, 'bin'), options.cacheRoot ?? join(pkg.dir, '..', '..', '.cache', 'pix-sandbox-chromium'), pkg.version)
    description += ` at ${dir}`
    const browser = await chromium.launch({
      executablePath: join(dir, 'chromium'),
      args: FLAGS,
      // The binary links NSS and expat; the pack ships the builds it was made with, so it runs on a
      // machine that has none of them. Fonts: the system's, plus the pack's Open Sans where there are none.
      env: { ...process.env, LD_LIBRARY_PATH: join(dir, 'lib'), FONTCONFIG_FILE: join(dir, 'fonts', 'pix-sandbox.conf') },
    })
    return { browser, source, description }
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n').filter(l => l.trim() !== '').slice(0, 3).join(' | ')
    throw new Error(`${description} could not start: ${reason}${hint}`)
  }
}

/**
 * Unpacks the pack's Brotli files (`chromium.br`, `al2023.tar.br` with the libraries,
 * `swiftshader.tar.br`, `fonts.tar.br`) into `cacheRoot/version` once and returns that folder. The
 * browser files start together on a fresh checkout: one process unpacks (2 s of CPU), holding
 * `<version>.lock`, while the others wait for its copy; a lock older than two minutes is a process
 * that died. The copy is made in a staging folder and renamed into place, so a folder that exists is
 * complete.
 */
export async function unpackChromium (binDir: string, cacheRoot: string, version: string): Promise<string> {
  const target = join(cacheRoot, version)
  const lock = join(cacheRoot, `${version}.lock`)
  mkdirSync(cacheRoot, { recursive: true })
  for (;;) {
    if (existsSync(join(target, 'chromium'))) return target
    try {
      mkdirSync(lock)
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const held = statSync(lock, { throwIfNoEntry: false })
      if (held !== undefined && Date.now() - held.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true })
      else await new Promise(resolve => setTimeout(resolve, 100))
    }
  }
  try {
    return await unpackInto(binDir, cacheRoot, target, version)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

async function unpackInto (binDir: string, cacheRoot: string, target: string, version: string): Promise<string> {
  if (existsSync(join(target, 'chromium'))) return target
  const staging = mkdtempSync(join(cacheRoot, `.${version}-`))
  try {
    const unbrotli = promisify(brotliDecompress)
    writeFileSync(join(staging, 'chromium'), await unbrotli(await readFile(join(binDir, 'chromium.br'))), { mode: 0o755 })
    for (const [pack, into] of [['al2023.tar.br', staging], ['swiftshader.tar.br', staging], ['fonts.tar.br', join(staging, 'fonts')]]) {
      untar(await unbrotli(await readFile(join(binDir, pack))), into)
    }
    writeFileSync(join(staging, 'fonts', 'pix-sandbox.conf'), [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      `  <dir>${join(target, 'fonts', 'fonts')}</dir>`,
      `  <cachedir>${join(target, 'fonts', 'cache')}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'))
    renameSync(staging, target)
  } catch (err) {
    rmSync(staging, { recursive: true, force: true })
    // Another process renamed its complete copy into place first.
    if (existsSync(join(target, 'chromium'))) return target
    throw err
  }
  return target
}

/** Extracts the regular files and folders of a ustar archive (all the pack's archives hold). */
export function untar (archive: Buffer, into: string): void {
  const field = (header: Buffer, start: number, length: number): string => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '')
  for (let offset = 0; offset + 512 <= archive.length;) {
    const header = archive.subarray(offset, offset + 512)
    if (header.every(b => b === 0)) break
    const prefix = field(header, 345, 155)
    const name = normalize((prefix ? `${prefix}/` : '') + field(header, 0, 100))
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8)
    const type = field(header, 156, 1) || '0'
    if (name.startsWith('..') || name.startsWith(sep) || name.split(sep).includes('..')) throw new Error(`archive entry ${name} points outside ${into}`)
    const path = join(into, name)
    if (type === '5') {
      mkdirSync(path, { recursive: true })
    } else if (type === '0') {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, archive.subarray(offset + 512, offset + 512 + size), { mode: Number.parseInt(field(header, 100, 8).trim() || '644', 8) & 0o777 })
    } else {
      throw new Error(`archive entry ${name} is of type ${type}; only files and folders are expected`)
    }
    offset += 512 + Math.ceil(size / 512) * 512
  }
}
