import t from 'tap'
import { spawn } from 'node:child_process'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { batchedWriter } from '../../server/log-stream.js'
import { childEnv } from '../helpers/process.js'

/**
 * Log lines reach stdout whole and in order, in one write per turn of the event loop, and none is
 * lost when the process ends right after logging it.
 */
t.test('the lines of one turn go out in one write, in order, at the end of that turn', async t => {
  const writes: string[] = []
  const out = batchedWriter({ write: (text: string) => writes.push(text) })
  out.write('{"n":1}\n')
  out.write('{"n":2}\n')
  out.write('{"n":3}\n')
  t.same(writes, [], 'nothing written during the turn')
  await nextTurn()
  t.same(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n'], 'one write with the three lines')
  out.write('{"n":4}\n')
  await nextTurn()
  t.same(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n', '{"n":4}\n'], 'a later line, a later write')
  await nextTurn()
  t.equal(writes.length, 2, 'no empty write')
})

t.test('lines logged just before the process exits are written', async t => {
  const module = fileURLToPath(new URL('../../server/log-stream.ts', import.meta.url))
  const source = `import { batchedStdout } from ${JSON.stringify(module)}
batchedStdout.write('first\\n')
setImmediate(() => { batchedStdout.write('second\\n'); batchedStdout.write('last\\n'); process.exit(3) })`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { env: { ...process.env, ...childEnv() }, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  const code = await new Promise(resolve => child.on('close', resolve))
  t.equal(code, 3)
  t.equal(out, 'first\nsecond\nlast\n')
})
