import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { machineNpmSettings, npmSettings } from './npm-settings.js'

/**
 * The Node lines the package supports, as binaries: the npm registry's `node-<platform>-<arch>`
 * package of a version holds that release's `bin/node`, so a test or CI job runs another Node
 * without downloading anything but a registry package. Each version is installed once into
 * node_modules/.cache/pix-sandbox-node/<version>/ (not a development dependency: its `bin` is
 * named `node`, and in node_modules/.bin it would take the place of the Node every npm script runs).
 *
 * `node --import tsx scripts/node-line.ts <line> <command> [args...]` runs a command with that Node
 * first on the PATH (`npm run test:node24`).
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }

/**
 * The lines `engines` promises, each as the version the tests run: the oldest Node that `engines`
 * accepts (its promise is tested where it is most likely to break) and the newest 24, the Node of
 * the image (Dockerfile) and the active LTS line.
 */
export function supportedLines (): Record<string, string> {
  const oldest = semver.minVersion(pkg.engines.node)?.version
  if (oldest === undefined) throw new Error(`engines.node (${pkg.engines.node}) has no lowest version`)
  return { [String(semver.major(oldest))]: oldest, 24: '24' }
}

const cacheDir = join(root, 'node_modules', '.cache', 'pix-sandbox-node')

const binaryOf = (version: string): string => join(cacheDir, version, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node')

/**
 * The path of the `node` binary of a version or line (`22.12.0`, `24`), installed from the npm
 * registry the first time (a line: its newest release then; delete the folder for a newer one), on
 * the machine's npm settings (npm-settings.ts). Without blocking: a test installs both lines while it
 * does other work.
 */
export async function installedNodeBinary (version: string): Promise<string> {
  const binary = binaryOf(version)
  if (existsSync(binary)) return binary
  mkdirSync(cacheDir, { recursive: true })
  // Installed beside, then renamed into place: two processes installing at once never see half a binary.
  const staging = mkdtempSync(join(cacheDir, `.${version}-`))
  try {
    const env = { ...process.env, ...await machineNpmSettings() }
    const child = spawn('npm', ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `node-${process.platform}-${process.arch}@${version}`], { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    const code = await new Promise<number | null>(resolve => child.on('close', resolve))
    if (code !== 0) throw new Error(`npm install of node-${process.platform}-${process.arch}@${version} failed (${code}): ${stderr}`)
    try {
      renameSync(staging, join(cacheDir, version))
    } catch (err) {
      if (!existsSync(binary)) throw err
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  return binary
}

/** The environment a command needs to run on that binary: its folder first on the PATH (npm, npx and `#!/usr/bin/env node` scripts follow). */
export function pathFirst (binary: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: [dirname(binary), env.PATH ?? ''].join(delimiter) }
}

/**
 * The bare environment of a project on that binary, as a fresh shell of the machine `env` describes
 * would give it: PATH (the binary first), HOME and the machine's npm settings (npm-settings.ts), so
 * that its npm installs from the registry the machine's npm reaches, through the same proxy and CA.
 */
export async function lineEnvironment (binary: string, env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const settings = env === process.env ? await machineNpmSettings() : await npmSettings(env)
  return { ...settings, PATH: pathFirst(binary, env).PATH ?? '', HOME: env.HOME ?? '' }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [line, command, ...args] = process.argv.slice(2)
  const version = supportedLines()[line ?? '']
  if (version === undefined || command === undefined) {
    process.stderr.write(`usage: node --import tsx scripts/node-line.ts <${Object.keys(supportedLines()).join('|')}> <command> [args...]\n`)
    process.exit(2)
  }
  const binary = await installedNodeBinary(version)
  process.stderr.write(`node-line: ${command} ${args.join(' ')} on Node ${execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()}\n`)
  // The machine's npm settings go along: an npm the command runs is run by the line's Node, which reads no global npmrc of the machine.
  const child = spawn(command, args, { stdio: 'inherit', env: { ...pathFirst(binary), ...await machineNpmSettings() } })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}
