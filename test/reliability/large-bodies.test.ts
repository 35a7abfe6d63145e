import t from 'tap'
import { call, shapeProblem, startProcess, type SandboxProcess } from '../helpers/reliability.js'
import { rawRequest } from '../helpers/raw-http.js'

/**
 * A body no heap can hold once parsed: `{"costly":[[],[],…]}` makes a JavaScript array of every 3 bytes, about
 * 15 bytes of heap per byte of text. The real process, with a 256 MB heap, takes snapshot imports of a
 * 32nd of its heap at most (server/routes/sandbox/system.ts): 32 MB of it sent chunked (once it was read
 * and parsed, and the process died out of memory) is a 413, and the most it takes of it is parsed and
 * refused as no snapshot, the process alive both times.
 */

const HEAP_MB = 256
const arrays = (bytes: number): string => `{"costly":[${'[],'.repeat(Math.floor(bytes / 3) - 5)}[]]}`

t.test(`a sandbox with a ${HEAP_MB} MB heap survives the costliest snapshot bodies`, async t => {
  let proc: SandboxProcess | undefined
  t.teardown(() => proc?.kill('SIGKILL'))
  proc = await startProcess(['--seed', 'large-bodies'], { env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` } })

  const over = await rawRequest(proc.base, { method: 'PUT', target: '/__sandbox/snapshot', headers: { 'content-type': 'application/json' }, body: arrays(32 * 1024 * 1024), chunked: true })
  t.equal(over.status, 413, '32 MB, sent chunked: refused as it arrives')
  t.equal(shapeProblem('sandbox', 413, over.body), null, 'the control plane\'s shape')
  t.equal((await call(proc.base, 'GET', '/__sandbox/health')).status, 200, 'alive')

  // Under the limit whatever the heap's exact size: it is at least the old space's 256 MB.
  const under = await call(proc.base, 'PUT', '/__sandbox/snapshot', { body: arrays(HEAP_MB * 1024 * 1024 / 32 - 1024), timeoutMs: 60_000 })
  t.equal(under.status, 400, 'just under the limit: parsed, and no snapshot')
  t.match(under.json().message, /not a pix-sandbox snapshot/)
  t.equal((await call(proc.base, 'GET', '/__sandbox/health')).status, 200, 'alive')
  t.equal(proc.child.exitCode, null, 'never exited')
})
