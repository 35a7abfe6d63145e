import t from 'tap'
import { Clock } from '../../server/engine/clock.js'

/** The sandbox clock: wall time plus an offset, or frozen; resume continues from the frozen instant. */

function fakeWall (start: number) {
  let now = start
  return { now: () => now, tick: (ms: number) => { now += ms } }
}

const T0 = Date.parse('2026-03-10T15:00:00.000Z')

t.test('runs with the wall clock by default', async t => {
  const wall = fakeWall(T0)
  const clock = new Clock(wall.now)
  t.equal(clock.now(), T0)
  wall.tick(1234)
  t.equal(clock.now(), T0 + 1234)
  t.same(clock.state(), { frozen: false, now: new Date(T0 + 1234).toISOString(), offsetMs: 0 })
})

t.test('freeze stops time, resume continues from the frozen instant (no jump)', async t => {
  const wall = fakeWall(T0)
  const clock = new Clock(wall.now)
  wall.tick(100)
  clock.freeze()
  t.ok(clock.isFrozen())
  wall.tick(60_000)
  t.equal(clock.now(), T0 + 100, 'frozen')
  clock.freeze()
  t.equal(clock.now(), T0 + 100, 'freezing twice changes nothing')
  clock.resume()
  t.notOk(clock.isFrozen())
  t.equal(clock.now(), T0 + 100, 'resumes where it stood')
  wall.tick(5)
  t.equal(clock.now(), T0 + 105)
  t.equal(clock.state().offsetMs, -60_000)
  clock.resume()
  t.equal(clock.now(), T0 + 105, 'resuming a running clock changes nothing')
})

t.test('set moves a running clock and a frozen one', async t => {
  const wall = fakeWall(T0)
  const clock = new Clock(wall.now)
  clock.set(T0 + 86_400_000)
  t.equal(clock.now(), T0 + 86_400_000)
  wall.tick(10)
  t.equal(clock.now(), T0 + 86_400_010, 'keeps running from there')
  clock.freeze()
  clock.set(T0)
  t.equal(clock.now(), T0)
  t.ok(clock.isFrozen(), 'still frozen after set')
})

t.test('the real wall clock is the default source', async t => {
  const clock = new Clock()
  const before = Date.now()
  const now = clock.now()
  t.ok(now >= before && now <= Date.now())
})

t.test('a range the clock keeps to, and what a state document carries', async t => {
  const wall = fakeWall(T0)
  const clock = new Clock(wall.now, { min: T0 - 1000, max: T0 + 1000 })
  const changes: number[] = []
  clock.onChange(() => changes.push(clock.now()))
  t.equal(clock.accepts(T0 + 1000), true)
  t.equal(clock.accepts(T0 + 1001), false)
  t.equal(clock.accepts(Number.NaN), false, 'NaN is no instant')
  t.throws(() => clock.set(T0 + 1001), RangeError)
  t.throws(() => clock.set(Number.NaN), RangeError)
  t.equal(clock.now(), T0, 'a refused set moves nothing')
  t.same(changes, [], 'and tells nobody')
  clock.set(T0 + 500)
  wall.tick(10)
  t.same(clock.snapshot(), { now: new Date(T0 + 510).toISOString(), frozen: false, offsetMs: 500 }, 'a running clock: its instant and its offset from wall time')
  clock.freeze()
  clock.freeze()
  t.same(clock.snapshot(), { now: new Date(T0 + 510).toISOString(), frozen: true }, 'a frozen one: its instant')
  clock.resume()
  clock.resume()
  t.equal(changes.length, 3, 'set, freeze and resume are changes; a repeated freeze or resume is none')
})

t.test('restore: a restart continues (wall time passed counts), an import goes back to the instant', async t => {
  const wall = fakeWall(T0)
  const clock = new Clock(wall.now)
  clock.restore({ now: new Date(T0 - 5000).toISOString(), frozen: false, offsetMs: 86_400_000 }, 'continue')
  t.equal(clock.now(), T0 + 86_400_000, 'continue: the offset from wall time')
  clock.restore({ now: new Date(T0 - 5000).toISOString(), frozen: false, offsetMs: 86_400_000 }, 'instant')
  t.equal(clock.now(), T0 - 5000, 'instant: the exported instant, running from there')
  wall.tick(100)
  t.equal(clock.now(), T0 - 4900)
  clock.restore({ now: new Date(T0 + 7).toISOString(), frozen: true }, 'continue')
  t.equal(clock.now(), T0 + 7)
  t.ok(clock.isFrozen())
  clock.restore({ now: new Date(T0 + 9).toISOString(), frozen: false }, 'continue')
  t.equal(clock.now(), T0 + 9, 'a running clock without an offset starts at its instant')
  t.notOk(clock.isFrozen())
})
