import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The sandbox's command as the flow and reliability tests start it: server/main.ts and its webhook
 * sender thread bundled from this checkout's sources by scripts/bundle.mjs (the settings dist/ is
 * built with) into node_modules/.cache/command-bundle/<key>/. <key> hashes the sources, the lock
 * file, tsconfig.json (esbuild reads it) and the bundle script, so an edit gives a new bundle.
 * Through tsx a process spends about 1.5 s of CPU before it answers, from a bundle 0.4 s, and the
 * suite starts dozens. The process as `npm start` runs it (tsx) is startMain's `npmStart`
 * (test/flows/server.test.ts).
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const cache = join(root, 'node_modules', '.cache', 'command-bundle')

function filesUnder (dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter(e => e.isFile())
    .map(e => join(e.parentPath, e.name))
    .sort()
}

function sourceKey (): string {
  const hash = createHash('sha256')
  for (const file of [...filesUnder('server'), ...filesUnder('scenarios'), join(root, 'package-lock.json'), join(root, 'tsconfig.json'), join(root, 'scripts', 'bundle.mjs')]) {
    hash.update(file).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex').slice(0, 20)
}

const pause = (ms: number): void => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) }

/**
 * The bundle's path, built first when the sources changed. Test files run side by side: one builds
 * (holding `<key>.lock`, a folder) while the others wait for it; a lock older than a minute is a
 * builder that died.
 */
function build (): string {
  const key = sourceKey()
  const dir = join(cache, key)
  const main = join(dir, 'server', 'main.js')
  const lock = join(cache, `${key}.lock`)
  mkdirSync(cache, { recursive: true })
  for (;;) {
    if (existsSync(main)) return main
    try {
      mkdirSync(lock)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const held = statSync(lock, { throwIfNoEntry: false })
      if (held && Date.now() - held.mtimeMs > 60_000) rmSync(lock, { recursive: true, force: true })
      else pause(100)
      continue
    }
    try {
      const partial = join(cache, `${key}.${process.pid}`)
      execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs'), '--command-only', partial], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
      try {
        renameSync(partial, dir)
      } catch (err) {
        // A process that took this one's lock for a dead one's (a build slower than a minute on a
        // loaded machine) built the same sources first: its bundle serves.
        rmSync(partial, { recursive: true, force: true })
        if (!existsSync(main)) throw err
      }
      // Bundles of earlier sources, once no run can still be starting one.
      for (const entry of readdirSync(cache)) {
        const path = join(cache, entry)
        // Another process may remove an entry between the listing and its stat.
        const stat = statSync(path, { throwIfNoEntry: false })
        if (entry !== key && !entry.startsWith(`${key}.`) && stat !== undefined && Date.now() - stat.mtimeMs > 10 * 60_000) rmSync(path, { recursive: true, force: true })
      }
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}

let built: string | undefined

/** The file `node` runs to start the sandbox's command from this checkout, before its flags. */
export function commandBundle (): string {
  built ??= build()
  return built
}

/**
 * The bundle's webhook sender thread, which the apps the tests build run (buildTestApp): it starts
 * after about 0.1 s of CPU, through tsx from the sources 0.27 s, and the suite starts hundreds.
 */
export function senderWorkerScript (): URL {
  return pathToFileURL(join(dirname(commandBundle()), 'webhooks', 'sender-worker.js'))
}
