// What `npm test` runs: the checks (package.json's scripts `lint`, `typecheck`, `deps`, `lint:workflows`),
// then tap with the arguments given (`npm test -- test/unit/x.test.ts`). A failed check fails `npm test`.
//
// The lint is the longest check (about 22 s of one core), the others take about 14 s of the other
// together: run before tap, one core waited for the lint. So the lint runs from the start, beside the
// short checks and then beside tap, and its failure stops tap at once. The short checks run one at a
// time beside it, each one's output printed when it ends, and tap starts once they passed; the lint's
// outcome is printed when it fails, or after tap's when it passed.
//
// It also rebuilds tap's Test class when it was built from another plugin list than .taprc's (a fresh
// `npm ci` builds it with tap's default list): tap rebuilds it by itself, but only after it has worked
// out the test processes' arguments from the old class, so that whole run would load the plugins
// .taprc removes.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import '@tapjs/core' // before @tapjs/test, which extends a class of it
import { defaultPlugins, signature } from '@tapjs/test'
import { parse } from 'yaml'

// npm runs a package's scripts from its root.
const root = process.cwd()
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const step = name => ({ name, command: scripts[name] })
const lintStep = step('lint')
const shortSteps = ['typecheck', 'deps', 'lint:workflows'].map(step)

const plugins = new Set(defaultPlugins)
for (const p of parse(readFileSync(join(root, '.taprc'), 'utf8')).plugin ?? []) {
  if (p.startsWith('!')) plugins.delete(p.slice(1))
  else plugins.add(p)
}
if ([...plugins].sort((a, b) => a.localeCompare(b, 'en')).join('\n') !== signature) shortSteps.splice(1, 0, { name: 'tap build', command: 'tap build' })

const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter) }

// Each check runs in a process group of its own, so that stopping it stops what it started (the
// lint's shell and node); a Ctrl-C reaches only this process's group, so it is passed on. tap stays in
// this group, and ends the test processes it started when it is stopped.
const running = new Set()
const stop = (child, signal = 'SIGTERM') => {
  try {
    if (child.group) process.kill(-child.pid, signal)
    else child.kill(signal)
  } catch {}
}
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted = true
    for (const child of running) stop(child, signal)
  })
}
function run (command, args, stdio, group) {
  const child = spawn(command, args, { cwd: root, env, shell: group, stdio, detached: group })
  child.group = group
  running.add(child)
  const closed = new Promise(resolve => child.on('close', code => { running.delete(child); resolve(code) }))
  return { child, closed }
}

/** Starts a check, its output kept; `result` tells whether it passed and prints what it said. */
function start ({ name, command }) {
  const started = performance.now()
  const { child, closed } = run(command, [], ['ignore', 'pipe', 'pipe'], true)
  let output = ''
  child.stdout.on('data', d => { output += d })
  child.stderr.on('data', d => { output += d })
  const result = closed.then(code => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const print = () => interrupted || process.stdout.write(`> ${name}: ${command}\n${output}${output && !output.endsWith('\n') ? '\n' : ''}` +
      `> ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? 'signal'})`} in ${seconds} s\n\n`)
    return { ok: code === 0, print }
  })
  return { child, result }
}

const lint = start(lintStep)
let lintFailed = false
const lintEnded = lint.result.then(r => { lintFailed = !r.ok; return r })

for (const s of shortSteps) {
  const r = await start(s).result
  r.print()
  if (!r.ok || interrupted || lintFailed) {
    stop(lint.child)
    if (lintFailed) (await lintEnded).print()
    await lintEnded
    process.exit(1)
  }
}

const tap = run('tap', process.argv.slice(2), 'inherit', false)
let tapRunning = true
const tapEnded = tap.closed.then(code => { tapRunning = false; return code })

const first = await Promise.race([lintEnded.then(() => 'lint'), tapEnded.then(() => 'tap')])
if (first === 'lint' && lintFailed && tapRunning && !interrupted) {
  stop(tap.child)
  await tapEnded
  process.stdout.write('\n')
  ;(await lintEnded).print()
  process.stdout.write('> tap: stopped, the lint failed\n')
  process.exit(1)
}
const tapCode = await tapEnded
;(await lintEnded).print()
process.exitCode = tapCode !== 0 ? (tapCode ?? 1) : lintFailed || interrupted ? 1 : 0
