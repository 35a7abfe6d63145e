import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Coverage is real under the loader the tests run with: a project of two files (a module and its
 * test) runs under this repository's .taprc (its plugins, its loader, its coverage), and the report
 * counts the function the test never calls, its lines and the branch it never takes as uncovered.
 * Under a loader that puts a file on one line (tsx) the same run reports 100%.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))

const control = `export function called (name: string): string {
  return \`called \${name}\`
}

export function neverCalled (name: string): string {
  const parts: string[] = [name, 'never']
  return parts.join(' ')
}

export function sign (n: number): string {
  if (n > 0) {
    return 'positive'
  }
  return 'not positive'
}
`
const controlTest = `import t from 'tap'
import { called, sign } from './control.js'

t.equal(called('x'), 'called x')
t.equal(sign(1), 'positive')
`

interface FileCoverage {
  fnMap: Record<string, { name: string }>
  f: Record<string, number>
  statementMap: Record<string, { start: { line: number } }>
  s: Record<string, number>
  branchMap: Record<string, { loc: { start: { line: number } } }>
  b: Record<string, number[]>
}

t.test('a function no test calls is reported uncovered, with its lines and the branch not taken', async t => {
  // The real path: the report names files as node loaded them, links resolved.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'pix-coverage-control-')))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }))
  writeFileSync(join(dir, 'control.ts'), control)
  writeFileSync(join(dir, 'control.test.ts'), controlTest)
  // The project's own tap and loader, at the paths .taprc names them.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  mkdirSync(join(dir, 'test'))
  symlinkSync(join(root, 'test', 'loader'), join(dir, 'test', 'loader'))

  // A tap run of its own: nothing of the run this test is part of (its coverage hook, its ids).
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TAP|_TAPJS_|NODE_OPTIONS$|NODE_V8_COVERAGE$)/.test(k)))
  const run = spawn(process.execPath, [join(root, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs'), 'control.test.ts',
    '--allow-incomplete-coverage', '--coverage-report=json', '--reporter=tap'], {
    cwd: dir,
    env: { ...env, TAP_RCFILE: join(root, '.taprc') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  run.stdout.on('data', (d: Buffer) => { output += d.toString() })
  run.stderr.on('data', (d: Buffer) => { output += d.toString() })
  const code = await new Promise<number | null>(resolve => run.on('close', resolve))
  t.equal(code, 0, 'the control run passes', { output })

  const report = JSON.parse(readFileSync(join(dir, '.tap', 'report', 'coverage-final.json'), 'utf8')) as Record<string, FileCoverage>
  t.same(Object.keys(report), [join(dir, 'control.ts')], 'the module is reported, the test file is not')
  const file = report[join(dir, 'control.ts')]
  const calls = Object.fromEntries(Object.entries(file.fnMap).map(([id, fn]) => [fn.name, file.f[id]]))
  t.same(calls, { called: 1, neverCalled: 0, sign: 1 }, 'calls per function')
  // v8 coverage counts lines and blocks: a line no code ran on is uncovered, closing braces included.
  const uncoveredLines = Object.entries(file.statementMap).filter(([id]) => file.s[id] === 0).map(([, s]) => s.start.line)
  t.same(uncoveredLines, [6, 7, 8, 14, 15], 'the body of neverCalled, and what follows the if in sign')
  const blocksNeverRun = Object.entries(file.branchMap).filter(([id]) => file.b[id].includes(0)).map(([, b]) => b.loc.start.line)
  t.same(blocksNeverRun, [13], 'the block after the if, which sign(1) returns before')
})
