import type { Test } from 'tap'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Runs one part of a folder's test files in this process, `jobs` at a time, each as a subtest named
 * after its file; the file's `import t from 'tap'` is that subtest (test/loader/hooks.mjs), so its
 * tests, `t.before` and `t.teardown` keep to the file as when tap runs it alone, and a file that
 * exceeds tap's timeout fails alone. What a process pays before its first test (node, tap, importing
 * the server, code not yet optimized) is paid once for the part instead of once per file.
 *
 * The files of a part share the process: the modules they import, process.env and the thread. A file
 * that must change either for itself, or that times the answers of a sandbox in its process, runs in
 * a process of its own (in test/reliability, a subfolder: .taprc excludes only the folder's own
 * files). `npx tap test/routes/x.test.ts` still runs one file alone.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const groupRegistry = Symbol.for('pix-sandbox.tap-group')

/**
 * `jobs` files of the part run at a time: files that wait on sockets, child processes or timers for
 * much of their run (test/flows, test/reliability) leave the process idle otherwise. `subfolders:
 * false` leaves the files of the folder's subfolders to run by themselves; `skip` names files (from the
 * repository's root) that run elsewhere. `prepare` runs once, before
 * any file: what blocks the thread (building the sandbox's command bundle, or waiting for another
 * process to build it) would otherwise stall the file running beside the first one to need it, and
 * its timers and sockets with it.
 */
export function runGroup (t: Test, folder: string, part: number, parts: number, { jobs = 1, subfolders = true, prepare, skip }: { jobs?: number, subfolders?: boolean, prepare?: () => unknown, skip?: ReadonlySet<string> } = {}): void {
  prepare?.()
  const dir = join(root, 'test', folder)
  const files = readdirSync(dir, { recursive: subfolders, encoding: 'utf8' }).filter(f => f.endsWith('.test.ts')).sort()
    .filter(f => skip?.has(relative(root, join(dir, f)).replaceAll('\\', '/')) !== true)
    .filter((_, i) => i % parts === part - 1)
  const perFile = Number(process.env.TAP_TIMEOUT ?? 30) * 1000
  t.setTimeout(perFile * files.length)
  t.jobs = jobs
  const subtests = new Map<string, Test>()
  Object.assign(globalThis, { [groupRegistry]: subtests })
  for (const file of files) {
    const name = relative(root, join(dir, file)).replaceAll('\\', '/')
    t.test(name, { timeout: perFile }, async st => {
      subtests.set(name, st)
      await import(`${pathToFileURL(join(dir, file)).href}?tap-group=${encodeURIComponent(name)}`)
    })
  }
}
