import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What `npm test` runs (scripts/test.mjs): the short checks before tap, the lint beside them and then
 * beside tap, any failure failing the run, a failed lint stopping tap at once. Run in a project whose
 * checks and tap are stand-ins that say what happened to them.
 */
const script = fileURLToPath(new URL('../../scripts/test.mjs', import.meta.url))
// The runs mostly wait (on the stand-ins' sleeps): side by side.
t.jobs = 6

function project (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-npm-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // The checks and tap are one shell script (a node process each would cost the suite more CPU than
  // running the lint beside tap saves): it logs when it starts, ends or is stopped, takes the seconds
  // and ends with the code its variable says ("seconds code", both 0 when unset).
  writeFileSync(join(dir, 'stage.sh'), [
    'name=$1; secs=$2; code=$3',
    '[ -n "$secs" ] || secs=0',
    '[ -n "$code" ] || code=0',
    'echo "$name started $ARGS" >> log',
    'trap \'kill $! 2>/dev/null; echo "$name stopped" >> log; exit 143\' TERM',
    'sleep "$secs" & wait $!',
    'echo "$name says $code"',
    'echo "$name ended" >> log',
    'exit "$code"',
  ].join('\n'))
  const check = (name: string) => `sh stage.sh ${name} $CHECK_${name.toUpperCase()}`
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { lint: check('lint'), typecheck: check('typecheck'), deps: check('deps'), 'lint:workflows': check('workflows') } }))
  writeFileSync(join(dir, '.taprc'), 'plugin: []\n')
  // tap: `tap build` ends at once; a run logs its arguments.
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
  const tap = join(dir, 'node_modules', '.bin', 'tap')
  writeFileSync(tap, '#!/bin/sh\n[ "$1" = build ] && exit 0\nexport ARGS="$*"\nexec sh stage.sh tap $TAP_RUN\n')
  chmodSync(tap, 0o755)
  return dir
}

async function npmTest (dir: string, env: Record<string, string>, args: string[] = []) {
  const started = performance.now()
  const child = spawn(process.execPath, [script, ...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', d => { output += d })
  child.stderr.on('data', d => { output += d })
  const code = await new Promise<number | null>(resolve => child.on('close', resolve))
  const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trim().split('\n').map(l => l.trimEnd()) : []
  return { code, output, log, seconds: (performance.now() - started) / 1000 }
}

t.test('everything passes: tap runs with the arguments given, the lint beside it, its outcome printed after tap\'s', async t => {
  const dir = project(t)
  const run = await npmTest(dir, { CHECK_LINT: '15 0', CHECK_TYPECHECK: '4 0', TAP_RUN: '0.2 0' }, ['test/x.test.ts'])
  t.equal(run.code, 0, run.output)
  t.ok(run.log.indexOf('lint started') < run.log.indexOf('typecheck ended'), 'the lint runs beside the short checks')
  t.ok(run.log.indexOf('workflows ended') < run.log.indexOf('tap started test/x.test.ts'), 'tap starts once the short checks passed, with the arguments')
  t.ok(run.log.indexOf('tap started test/x.test.ts') < run.log.indexOf('lint ended'), 'the lint runs beside tap')
  t.ok(run.output.indexOf('tap says 0') < run.output.indexOf('> lint: passed'), 'the lint\'s outcome after tap\'s output')
  t.match(run.output, /> typecheck: passed in [\d.]+ s[\s\S]*> deps: passed[\s\S]*> lint:workflows: passed/)
})

t.test('a failed lint stops tap at once and fails the run, its errors printed', async t => {
  const dir = project(t)
  const run = await npmTest(dir, { CHECK_LINT: '12 1', TAP_RUN: '120 0' })
  t.equal(run.code, 1)
  t.same(run.log.slice(-2), ['lint ended', 'tap stopped'], 'tap stopped once the lint failed')
  t.ok(run.seconds < 60, `ended in ${run.seconds.toFixed(1)} s, not after tap's two minutes`)
  t.match(run.output, /lint says 1\n> lint: FAILED \(exit 1\)[\s\S]*> tap: stopped, the lint failed/)
})

t.test('a failed short check fails the run before tap, and stops the lint', async t => {
  const dir = project(t)
  const run = await npmTest(dir, { CHECK_LINT: '120 0', CHECK_TYPECHECK: '0.1 2', TAP_RUN: '0 0' })
  t.equal(run.code, 1)
  t.notOk(run.log.some(l => l.startsWith('tap')), 'tap never started')
  t.notOk(run.log.includes('deps started'), 'nor the checks after it')
  t.ok(run.log.includes('lint stopped'), 'the lint stopped')
  t.ok(run.seconds < 60, `ended in ${run.seconds.toFixed(1)} s, not after the lint's two minutes`)
  t.match(run.output, /typecheck says 2\n> typecheck: FAILED \(exit 2\)/)
})

t.test('a lint that failed before the short checks ended: tap never starts', async t => {
  const dir = project(t)
  const run = await npmTest(dir, { CHECK_LINT: '0 1', CHECK_TYPECHECK: '8 0', TAP_RUN: '0 0' })
  t.equal(run.code, 1)
  t.notOk(run.log.some(l => l.startsWith('tap')), 'tap never started')
  t.notOk(run.log.includes('deps started'), 'nor the checks after the one running')
  t.match(run.output, /> lint: FAILED \(exit 1\)/)
})

t.test('failed tests fail the run with tap\'s exit code, the lint\'s outcome printed all the same', async t => {
  const dir = project(t)
  const run = await npmTest(dir, { CHECK_LINT: '0.3 0', TAP_RUN: '0.8 3' })
  t.equal(run.code, 3)
  t.match(run.output, /tap says 3[\s\S]*> lint: passed/)
})

t.test('a lint that fails after tap passed still fails the run', async t => {
  const dir = project(t)
  const run = await npmTest(dir, { CHECK_LINT: '15 1', TAP_RUN: '0.1 0' })
  t.equal(run.code, 1)
  t.match(run.output, /tap says 0[\s\S]*> lint: FAILED \(exit 1\)/)
  t.notMatch(run.output, /tap: stopped/)
})
