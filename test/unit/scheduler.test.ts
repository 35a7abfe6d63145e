import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { Clock } from '../../server/engine/clock.js'
import { Scheduler } from '../../server/engine/scheduler.js'

/** The scheduler (server/engine/scheduler.ts), driven directly: order, due instants, cascades, cancel, clear, timers. */

// The scheduler's timer is unref'd (it must not keep a server process alive on its own); keep this
// test process alive while the timer-driven tests wait for it.
const keepAlive = setInterval(() => {}, 1000)
t.teardown(() => clearInterval(keepAlive))

const T0 = Date.parse('2026-03-10T15:00:00.000Z')

function frozenScheduler () {
  const clock = new Clock(() => T0)
  clock.freeze()
  const errors: unknown[] = []
  const scheduler = new Scheduler({ clock, onError: err => errors.push(err) })
  return { clock, scheduler, errors }
}

t.test('jobs at the same instant run in scheduling order; different instants in time order', async t => {
  const { scheduler } = frozenScheduler()
  const ran: string[] = []
  scheduler.at(T0 + 300, 'x', () => { ran.push('c@300') })
  for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) scheduler.at(T0 + 100, 'x', () => { ran.push(`${name}@100`) })
  scheduler.at(T0 + 200, 'x', () => { ran.push('b@200') })
  scheduler.after(100, 'x', () => { ran.push('a6@100') })
  t.equal(scheduler.pending(), 8)
  t.equal(scheduler.nextDueAt(), T0 + 100)
  await scheduler.advance(1000)
  t.same(ran, ['a1@100', 'a2@100', 'a3@100', 'a4@100', 'a5@100', 'a6@100', 'b@200', 'c@300'])
  t.equal(scheduler.pending(), 0)
  t.equal(scheduler.nextDueAt(), null)
})

t.test('each job sees clock.now() equal to its due time; the advance ends at its target', async t => {
  const { clock, scheduler } = frozenScheduler()
  const seen: Array<[number, number]> = []
  for (const d of [250, 10, 999, 500]) scheduler.at(T0 + d, 'x', () => { seen.push([d, clock.now() - T0]) })
  await scheduler.advance(1000)
  t.same(seen, [[10, 10], [250, 250], [500, 500], [999, 999]])
  t.equal(clock.now(), T0 + 1000)
})

t.test('only jobs inside the window run; the rest wait for a later advance', async t => {
  const { clock, scheduler } = frozenScheduler()
  const ran: number[] = []
  scheduler.at(T0 + 100, 'x', () => { ran.push(100) })
  scheduler.at(T0 + 101, 'x', () => { ran.push(101) })
  await scheduler.advance(100)
  t.same(ran, [100], 'a job due exactly at the target runs; one after it does not')
  t.equal(scheduler.pending(), 1)
  t.equal(clock.now(), T0 + 100)
  await scheduler.advance(1)
  t.same(ran, [100, 101])
})

t.test('a job scheduling another one due inside the advance window runs it in the same advance', async t => {
  const { clock, scheduler } = frozenScheduler()
  const ran: Array<[string, number]> = []
  scheduler.at(T0 + 100, 'first', () => {
    ran.push(['first', clock.now() - T0])
    scheduler.after(50, 'second', () => {
      ran.push(['second', clock.now() - T0])
      scheduler.after(1000, 'third', () => { ran.push(['third', clock.now() - T0]) })
    })
  })
  scheduler.at(T0 + 120, 'between', () => { ran.push(['between', clock.now() - T0]) })
  await scheduler.advance(500)
  t.same(ran, [['first', 100], ['between', 120], ['second', 150]], 'the cascade respects time order')
  t.equal(scheduler.pending(), 1, 'the third job (due at 1150) waits')
  t.equal(scheduler.nextDueAt(), T0 + 1150)
  await scheduler.advance(650)
  t.same(ran.at(-1), ['third', 1150])
})

t.test('a job scheduled in the past (or due now) runs on the next drain, at the current instant', async t => {
  const { clock, scheduler } = frozenScheduler()
  let at = -1
  scheduler.at(T0 - 5000, 'late', () => { at = clock.now() })
  await scheduler.runDue()
  t.equal(at, T0, 'the clock never moves backwards for a late job')
})

t.test('async jobs are awaited in order before the advance returns', async t => {
  const { scheduler } = frozenScheduler()
  const ran: string[] = []
  scheduler.at(T0 + 1, 'slow', async () => { await sleep(20); ran.push('slow') })
  scheduler.at(T0 + 2, 'fast', () => { ran.push('fast') })
  await scheduler.advance(10)
  t.same(ran, ['slow', 'fast'])
})

t.test('cancelled jobs do not run and do not count as pending', async t => {
  const { scheduler } = frozenScheduler()
  const ran: string[] = []
  const a = scheduler.at(T0 + 10, 'a', () => { ran.push('a') })
  scheduler.at(T0 + 20, 'b', () => { ran.push('b') })
  const c = scheduler.at(T0 + 30, 'c', () => { ran.push('c') })
  scheduler.cancel(a)
  scheduler.cancel(undefined)
  t.equal(scheduler.pending(), 2)
  t.equal(scheduler.nextDueAt(), T0 + 20, 'a cancelled head is skipped')
  scheduler.at(T0 + 25, 'canceller', () => { scheduler.cancel(c) })
  await scheduler.advance(100)
  t.same(ran, ['b'], 'a job cancelled by an earlier job in the same advance does not run')
})

t.test('clear() forgets every job', async t => {
  const { scheduler } = frozenScheduler()
  const ran: string[] = []
  scheduler.at(T0 + 10, 'a', () => { ran.push('a') })
  scheduler.at(T0 + 20, 'b', () => { ran.push('b') })
  scheduler.clear()
  t.equal(scheduler.pending(), 0)
  t.equal(scheduler.nextDueAt(), null)
  await scheduler.advance(1000)
  t.same(ran, [])
  scheduler.at(T0 + 2000, 'after-clear', () => { ran.push('after-clear') })
  await scheduler.advance(1000)
  t.same(ran, ['after-clear'], 'the scheduler keeps working after clear')
})

t.test('a failing job is reported and does not stop the others', async t => {
  const { scheduler, errors } = frozenScheduler()
  const ran: string[] = []
  scheduler.at(T0 + 1, 'boom', () => { throw new Error('boom') })
  scheduler.at(T0 + 2, 'async-boom', async () => { throw new Error('async boom') })
  scheduler.at(T0 + 3, 'ok', () => { ran.push('ok') })
  await scheduler.advance(10)
  t.same(ran, ['ok'])
  t.same(errors.map(e => (e as Error).message), ['boom', 'async boom'])
})

t.test('concurrent advances never run a job twice', async t => {
  const { scheduler } = frozenScheduler()
  let runs = 0
  scheduler.at(T0 + 10, 'once', async () => { runs++; await sleep(5) })
  await Promise.all([scheduler.advance(100), scheduler.advance(100), scheduler.runDue()])
  t.equal(runs, 1)
})

t.test('with a running clock, a real timer runs due jobs without any advance', async t => {
  const clock = new Clock()
  const scheduler = new Scheduler({ clock })
  t.teardown(() => scheduler.close())
  const ran: Array<[string, number]> = []
  const start = clock.now()
  await new Promise<void>(resolve => {
    scheduler.after(30, 'later', () => { ran.push(['later', clock.now() - start]); resolve() })
    scheduler.after(5, 'sooner', () => { ran.push(['sooner', clock.now() - start]) })
  })
  t.same(ran.map(r => r[0]), ['sooner', 'later'])
  t.ok(ran[1][1] >= 30, 'not before its due time')
  t.equal(scheduler.pending(), 0)
})

t.test('a frozen clock arms no timer; resume lets the timer run what is due', async t => {
  const clock = new Clock()
  clock.freeze()
  const scheduler = new Scheduler({ clock })
  t.teardown(() => scheduler.close())
  let ran = false
  scheduler.after(5, 'x', () => { ran = true })
  await sleep(40)
  t.equal(ran, false, 'nothing runs while frozen')
  clock.resume()
  scheduler.at(clock.now() + 10_000, 'far', () => {}) // any scheduling re-arms the timer
  await sleep(40)
  t.equal(ran, true, 'runs once the clock runs again')
})

t.test('close() stops the timer and drops the jobs', async t => {
  const clock = new Clock()
  const scheduler = new Scheduler({ clock })
  let ran = false
  scheduler.after(10, 'x', () => { ran = true })
  scheduler.close()
  await sleep(40)
  t.equal(ran, false)
  t.equal(scheduler.pending(), 0)
})

t.test('paused, no job runs and no timer is armed; resumed, the due jobs run in order', async t => {
  const clock = new Clock()
  clock.freeze()
  const scheduler = new Scheduler({ clock })
  const ran: string[] = []
  scheduler.after(0, 'a', () => { ran.push('a') })
  scheduler.after(10, 'b', () => { ran.push('b') })
  scheduler.pause()
  t.equal(scheduler.isPaused(), true)
  await scheduler.advance(20)
  t.same(ran, [], 'an advance while paused moves the clock only')
  scheduler.resume()
  scheduler.resume()
  await scheduler.runDue()
  t.same(ran, ['a', 'b'])
  t.equal(scheduler.isPaused(), false)
})

t.test('runJob wraps every job (the app makes each one a unit of the store)', async t => {
  const clock = new Clock()
  clock.freeze()
  const wrapped: string[] = []
  const scheduler = new Scheduler({ clock, runJob: (run, job) => { wrapped.push(job.kind); return run() } })
  let ran = 0
  scheduler.after(5, 'settle', () => { ran++ })
  await scheduler.advance(5)
  t.same(wrapped, ['settle'])
  t.equal(ran, 1)
})

t.test('cancelled jobs that never reach the top do not pile up: the heap is rebuilt without them, in order', async t => {
  const { scheduler } = frozenScheduler()
  const ran: number[] = []
  const jobs = Array.from({ length: 3000 }, (_, i) => scheduler.at(T0 + 1000 + (i * 7919) % 3000, 'x', () => { ran.push(i) }))
  // Cancelled far in the future, with a frozen clock: without the rebuild they would stay forever.
  for (const [i, job] of jobs.entries()) if (i % 10 !== 0) scheduler.cancel(job)
  scheduler.cancel(jobs[1]) // twice is once
  t.equal(scheduler.pending(), 300)
  t.ok((scheduler as unknown as { heap: unknown[] }).heap.length < 1500, 'the heap was rebuilt without most cancelled jobs')
  await scheduler.advance(10_000)
  const expected = jobs.map((j, i) => ({ i, dueAt: j.dueAt })).filter(({ i }) => i % 10 === 0).sort((a, b) => a.dueAt - b.dueAt || a.i - b.i).map(({ i }) => i)
  t.same(ran, expected, 'the jobs left run in due order')
  t.equal(scheduler.pending(), 0)
})

t.test('a job that fails every time and is put back due at once (a rollback restores its pending record) waits, longer each time, instead of running again in the same pass', async t => {
  const clock = new Clock(() => T0)
  clock.freeze()
  const errors: unknown[] = []
  // What the app's runJob does when a unit fails: the lifecycle mends the jobs of the records put back, due again at their time.
  const scheduler: Scheduler = new Scheduler({
    clock,
    onError: err => errors.push(err),
    runJob: (run, job) => {
      try { return run() } catch (err) {
        scheduler.at(job.dueAt, job.kind, run)
        throw err
      }
    },
  })
  let runs = 0
  const failing = () => {
    // A bound, so that the scheduler without the wait ends the test instead of spinning forever.
    if (++runs > 1000) return
    throw new Error('a bug in the job')
  }
  let other = 0
  scheduler.at(T0 + 100, 'settle', failing)
  scheduler.at(T0 + 100, 'other', () => { other++ })
  await scheduler.advance(1000)
  t.equal(runs, 1, 'one failure in this pass')
  t.equal(other, 1, 'the other jobs run')
  t.equal(scheduler.pending(), 1, 'the failed job is kept, for later')
  t.ok(scheduler.nextDueAt()! > T0 + 1000, 'due after a wait')
  await scheduler.advance(60 * 60_000)
  t.ok(runs > 2 && runs < 20, `waits grow: ${runs} runs in an hour`)
  t.equal(errors.length, runs, 'each failure reported')
})

// ---- a running clock that moves (docs/reliability.md, "A long jump of the clock") ----

/** Resolves with `what` once `run` is called, or with 'late' after `ms` of real time. */
function ranWithin (ms: number): { run: () => void, ran: Promise<'ran' | 'late'> } {
  let run!: () => void
  const ran = new Promise<'ran' | 'late'>(resolve => {
    const timer = setTimeout(() => resolve('late'), ms)
    run = () => { clearTimeout(timer); resolve('ran') }
  })
  return { run, ran }
}

t.test('with a running clock, after an advance what falls due runs on time: no timer left from before the move', async t => {
  const clock = new Clock()
  const scheduler = new Scheduler({ clock })
  t.teardown(() => scheduler.close())
  // A timer armed for the job due in a minute, and a job due in an hour after it.
  let expired = false
  scheduler.after(60_000, 'expiry', () => { expired = true })
  scheduler.after(3_600_000, 'far', () => {})
  await scheduler.advance(120_000)
  t.equal(expired, true, 'the advance ran the job the timer was armed for')
  const { run, ran } = ranWithin(5000)
  scheduler.after(20, 'batch', run)
  t.equal(await ran, 'ran', 'a job due 20 ms after the advance runs then, not when the real minute of the old timer ends')
  t.ok(scheduler.nextDueAt()! > clock.now(), 'the next job is not in the past')
})

t.test('with a running clock, a move of the clock itself (set, a restore) arms the timer for the clock as it is now', async t => {
  const clock = new Clock()
  const scheduler = new Scheduler({ clock })
  t.teardown(() => scheduler.close())
  const { run, ran } = ranWithin(5000)
  scheduler.after(60_000, 'settlement', run)
  clock.set(clock.now() + 120_000)
  t.equal(await ran, 'ran', 'the job the move made due runs at once, not a real minute later')

  const later = ranWithin(5000)
  scheduler.after(50, 'later', later.run)
  clock.freeze()
  clock.resume()
  t.equal(await later.ran, 'ran', 'after freeze and resume too')
})

t.test('a key holds one job per record and purpose: a later one replaces it, and cancelKey drops it', async t => {
  const { scheduler } = frozenScheduler()
  const ran: string[] = []
  for (let i = 0; i < 2000; i++) scheduler.at(T0 + 1000 + i, 'batch', () => { ran.push(`batch@${i}`) }, 'batch:1')
  t.equal(scheduler.pending(), 1, '2,000 schedules of one record and purpose are one job')
  t.equal(scheduler.nextDueAt(), T0 + 1000 + 1999, 'the latest one')
  scheduler.at(T0 + 10, 'other', () => { ran.push('other') }, 'batch:2')
  scheduler.at(T0 + 20, 'expiry', () => { ran.push('expiry') }, 'expiry:1')
  scheduler.cancelKey('expiry:1')
  scheduler.cancelKey('unknown')
  t.equal(scheduler.pending(), 2)
  await scheduler.advance(10_000)
  t.same(ran, ['other', 'batch@1999'])
  t.equal(scheduler.pending(), 0)
  scheduler.cancelKey('batch:1')
  t.equal(scheduler.pending(), 0, 'cancelling the key of a job that ran counts nothing')
})

t.test('a keyed job that schedules its own key again while it runs keeps the new one; cancelling a job that ran counts nothing', async t => {
  const { scheduler } = frozenScheduler()
  let runs = 0
  const step = (): void => {
    runs++
    if (runs < 3) scheduler.after(100, 'step', step, 'step:1')
  }
  const first = scheduler.at(T0 + 100, 'step', step, 'step:1')
  await scheduler.advance(1000)
  t.equal(runs, 3, 'each run scheduled the next under the same key')
  scheduler.cancel(first)
  t.equal(scheduler.pending(), 0, 'a job that already ran is not counted when cancelled')
  scheduler.at(T0 + 2000, 'x', () => {})
  t.equal(scheduler.pending(), 1)
})

t.test('a long run of jobs yields: other work runs before the advance ends, and sees the clock where the run has got to', async t => {
  const { clock, scheduler } = frozenScheduler()
  const seen: number[] = []
  let done = false
  // 400 jobs of 1 ms of work each: without a yield the advance holds the thread for 400 ms.
  for (let i = 1; i <= 400; i++) {
    scheduler.at(T0 + i * 1000, 'busy', () => {
      const until = performance.now() + 1
      while (performance.now() < until) { /* work */ }
    })
  }
  const probe = setInterval(() => { if (!done) seen.push(clock.now()) }, 1)
  t.teardown(() => clearInterval(probe))
  await scheduler.advance(1_000_000)
  done = true
  const midway = seen.filter(at => at > T0 && at < T0 + 1_000_000)
  t.ok(midway.length > 0, `timers ran during the advance (${midway.length} of ${seen.length} saw it midway)`)
  t.same(midway, [...midway].sort((a, b) => a - b), 'and saw the clock only move forward')
  t.equal(clock.now(), T0 + 1_000_000)
})

t.test('clear() during a long run (a reset, an import) ends it: nothing more of it runs, and the clock stays where the reset put it', async t => {
  const { clock, scheduler } = frozenScheduler()
  const ran: number[] = []
  for (let i = 1; i <= 400; i++) {
    scheduler.at(T0 + i * 1000, 'busy', () => {
      ran.push(i)
      const until = performance.now() + 1
      while (performance.now() < until) { /* work */ }
    })
  }
  let resetAt = -1
  let after = false
  const reset = setImmediate(() => {
    resetAt = ran.length
    scheduler.clear()
    clock.set(T0 + 5_000_000)
    scheduler.at(T0 + 5_000_001, 'after-reset', () => { after = true })
  })
  t.teardown(() => clearImmediate(reset))
  await scheduler.advance(1_000_000)
  t.ok(resetAt > 0 && resetAt < 400, `the reset came midway (after ${resetAt} jobs)`)
  t.equal(ran.length, resetAt, 'no job of the run after the reset')
  t.equal(clock.now(), T0 + 5_000_000, 'the advance did not move the clock the reset set')
  t.equal(after, false, 'nor ran a job the reset scheduled')
  t.equal(scheduler.pending(), 1)
})

t.test('moves of the clock go one after another: the second starts from where the first ended', async t => {
  const { clock, scheduler } = frozenScheduler()
  for (let i = 1; i <= 100; i++) {
    scheduler.at(T0 + i * 1000, 'busy', () => {
      const until = performance.now() + 1
      while (performance.now() < until) { /* work */ }
    })
  }
  const order: string[] = []
  const first = scheduler.move(async () => {
    await scheduler.advanceTo(T0 + 100_000)
    order.push('first')
  })
  // Sent while the first runs: its target is reckoned once the first has ended.
  const second = scheduler.move(async () => {
    const from = clock.now()
    await scheduler.advance(1000)
    order.push(`second from ${from - T0}`)
  })
  const failing = scheduler.move(() => { throw new Error('refused') })
  await Promise.all([first, second])
  await t.rejects(failing, { message: 'refused' }, 'a move that throws answers its own caller')
  t.same(order, ['first', 'second from 100000'])
  t.equal(clock.now(), T0 + 101_000)
  await scheduler.move(async () => { await scheduler.advance(1) })
  t.equal(clock.now(), T0 + 101_001, 'and a refused move does not stop the ones after it')
})
