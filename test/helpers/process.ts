import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { commandBundle } from './command-bundle.js'

/**
 * What a spawned sandbox process adds to its environment. tap's process-info hook instruments every
 * child process for coverage; a child runs a bundle (command-bundle.ts) or our TypeScript through
 * tsx, whose line maps differ from those of the tests' loader, and merging the two under-reports
 * coverage of files the in-process tests cover fully. So children write no coverage.
 */
export function childEnv (): Record<string, string> {
  return { _TAPJS_PROCESSINFO_COVERAGE_: '0' }
}

export interface MainProcess {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exit: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
}

/**
 * Runs server/main.ts as a person would, from the package root with a bare environment (PATH, HOME and
 * `env`), collecting what it prints: bundled (command-bundle.ts), or with `npmStart` as `npm start`
 * runs it, through tsx. The caller ends it (kill) when it does not exit by itself.
 */
export function startMain (args: string[], env: Record<string, string> = {}, opts: { npmStart?: boolean } = {}): MainProcess {
  const command = opts.npmStart === true ? ['--import', 'tsx', 'server/main.ts'] : [commandBundle()]
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr!.on('data', (d: Buffer) => { err += d.toString() })
  const exit = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>(resolve => child.on('exit', (code, signal) => resolve({ code, signal })))
  return { child, stdout: () => out, stderr: () => err, exit }
}
