// What `npm test` runs before tap: the type check, the layers, the lint and the workflows' lint
// (package.json's scripts of those names), as many at a time as the machine has cores, each one's output printed when it ends.
// Any failure fails `npm test` before the long part.
//
// It also rebuilds tap's Test class when it was built from another plugin list than .taprc's (a fresh
// `npm ci` builds it with tap's default list): tap rebuilds it by itself, but only after it has worked
// out the test processes' arguments from the old class, so that whole run would load the plugins
// .taprc removes.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import '@tapjs/core' // before @tapjs/test, which extends a class of it
import { defaultPlugins, signature } from '@tapjs/test'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
// The longest first, so that the short ones fill in beside them.
const steps = ['lint', 'typecheck', 'deps', 'lint:workflows'].map(name => ({ name, command: scripts[name] }))

const plugins = new Set(defaultPlugins)
for (const p of parse(readFileSync(join(root, '.taprc'), 'utf8')).plugin ?? []) {
  if (p.startsWith('!')) plugins.delete(p.slice(1))
  else plugins.add(p)
}
if ([...plugins].sort((a, b) => a.localeCompare(b, 'en')).join('\n') !== signature) steps.splice(2, 0, { name: 'tap build', command: 'tap build' })

const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter) }

function run ({ name, command }) {
  const started = performance.now()
  return new Promise(resolve => {
    const child = spawn(command, { cwd: root, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', d => { output += d })
    child.stderr.on('data', d => { output += d })
    child.on('close', code => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      process.stdout.write(`> ${name}: ${command}\n${output}${output && !output.endsWith('\n') ? '\n' : ''}` +
        `> ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s\n\n`)
      resolve(code === 0)
    })
  })
}

const queue = [...steps]
const passed = []
await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
  while (queue.length > 0) passed.push(await run(queue.shift()))
}))
if (passed.includes(false)) process.exitCode = 1
