import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { call, startProcess } from '../helpers/reliability.js'

/**
 * One client cannot exhaust the sandbox's memory through the request journal: the real process takes a
 * flood of refused token requests, each naming an account that does not exist and padded to 250 KB,
 * with no credential at all. They share the one bucket of requests of no account, and a body that large
 * is kept as a note of its size, so the process's resident memory, sampled after each wave, stays
 * where it stood after the first wave (a bucket per named account keeping each pad grew it by the
 * size of the pads: 75 MB over these waves).
 */
const PAD = 'x'.repeat(250_000)
const WARM_UP = 100
const WAVES = 3
const PER_WAVE = 100
const CONCURRENCY = 4
/** Far below the 75 MB the waves would add if their pads were kept, far above the noise of the heap. */
const ALLOWED_GROWTH_MB = 40

const rssMb = (pid: number): number => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!kb) throw new Error(`no VmRSS for ${pid}`)
  return Number(kb[1]) / 1024
}

t.test('refused requests naming distinct accounts that do not exist keep memory flat', { skip: existsSync('/proc/self/status') ? false : 'needs /proc to read the resident memory' }, async t => {
  const sandbox = await startProcess(['--log-level', 'silent', '--seed', 'journal-memory'])
  t.teardown(() => sandbox.kill('SIGKILL'))
  const pid = sandbox.child.pid!

  let next = 0
  const statuses = new Map<number, number>()
  const flood = async (count: number): Promise<void> => {
    const end = next + count
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < end) {
        // Written out by hand: the pad is stringified once, not once per request.
        const body = `{"clientId":"n","clientSecret":"12345678","accountId":${1_000_000 + next++},"pad":"${PAD}"}`
        const res = await call(sandbox.base, 'POST', '/api/auth/token', { body })
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      }
    }))
  }

  // The heap's own growth with 250 KB bodies passing through belongs to the baseline.
  await flood(WARM_UP)
  const baseline = rssMb(pid)
  const samples: number[] = []
  for (let wave = 0; wave < WAVES; wave++) {
    await flood(PER_WAVE)
    samples.push(rssMb(pid))
  }
  t.same([...statuses.keys()], [400], 'every request refused')
  const growth = Math.max(...samples) - baseline
  t.ok(growth < ALLOWED_GROWTH_MB, `resident memory ${baseline.toFixed(0)} MB after the first wave, then ${samples.map(s => s.toFixed(0)).join(', ')} MB (at most ${ALLOWED_GROWTH_MB} MB more)`)

  // None of them is of an account, and each keeps a note instead of its pad.
  const list = await call(sandbox.base, 'GET', `/__sandbox/requests?limit=${WARM_UP + WAVES * PER_WAVE}`)
  t.equal(list.status, 200)
  const entries = list.json().requests as Array<{ accountId: number | null, request: { body: unknown } }>
  t.equal(entries.length, WARM_UP + WAVES * PER_WAVE, 'all of them kept in the one bucket of no account')
  t.ok(entries.every(e => e.accountId === null), 'none of them belongs to an account')
  t.match(entries[0].request.body, /^\[a body of \d+ bytes, not kept\]$/)
})
