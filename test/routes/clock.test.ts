import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import { loadConfig } from '../../server/config.js'
import { parseInstant } from '../../server/domain/instant.js'
import { T0, bearer, buildTestApp, tokenFor } from '../helpers/app.js'
import { cashOutBody } from '../helpers/payouts.js'

/**
 * The clock cannot break money flows (docs/assumptions.md, State and clock): sandbox time stays within a range every date
 * of the system can represent, dates are read strictly, the clock is kept with --data and comes back
 * with a snapshot, and a full reset brings it back to where the settings start it.
 */
const clockOf = async (app: Awaited<ReturnType<typeof buildTestApp>>) => (await app.inject({ method: 'GET', url: '/__sandbox/clock' })).json()

t.test('dates are read strictly: no leap second, no February 30th, no 24:00', async t => {
  t.equal(parseInstant('2026-03-10T12:00:00Z'), Date.parse('2026-03-10T12:00:00Z'))
  t.equal(parseInstant('2026-03-10T12:00Z'), Date.parse('2026-03-10T12:00:00Z'), 'seconds are optional')
  t.equal(parseInstant('2026-03-10T09:00:00.123456-03:00'), Date.parse('2026-03-10T12:00:00.123Z'), 'a fraction is cut to milliseconds')
  t.equal(parseInstant('2024-02-29T00:00:00Z'), Date.parse('2024-02-29T00:00:00Z'), 'a leap day')
  t.equal(parseInstant('0099-01-01T00:00:00Z'), Date.parse('0099-01-01T00:00:00Z'), 'a two-digit year is not read as 19xx')
  for (const bad of ['2035-10-17T23:59:60Z', '2026-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '2035-10-17T24:00:00Z', '2026-13-01T00:00:00Z',
    '2026-04-31T00:00:00Z', '2026-03-10T12:60:00Z', '2026-03-10T12:00:00+24:00', '2026-03-10T12:00:00', '2026-03-10', 'tomorrow', '']) {
    t.equal(parseInstant(bad), null, bad)
  }
  t.equal(parseInstant('2026-03-10T12:00:00', -180), Date.parse('2026-03-10T15:00:00Z'), 'without an offset only when the caller names one')
})

t.test('setting the clock outside sandbox time is 400 with the range; dates that do not exist are 400, not NaN', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const pending = (await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody() })).json().transactionId
  for (const now of ['9999-12-31T23:59:59Z', '9000-01-01T00:00:00Z', '1999-12-31T23:59:59Z']) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now } })
    t.equal(res.statusCode, 400, now)
    t.equal(res.json().code, 'CLOCK_OUT_OF_RANGE')
    t.match(res.json().message, /2000-01-01T00:00:00\.000Z to 8999-12-31T23:59:59\.999Z/, 'the range is in the message')
  }
  for (const now of ['2035-10-17T23:59:60Z', '2026-02-30T00:00:00Z', '2035-10-17T24:00:00Z']) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now } })
    t.equal(res.statusCode, 400, now)
    t.equal(res.json().code, 'HTTP_ERROR')
    t.match(res.json().message, /ISO 8601|RFC 3339 date-time/, 'refused by the schema or by the strict reading')
  }
  t.equal((await clockOf(app)).now, T0, 'nothing moved')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${pending}` })).json().status, 'PENDING', 'and no job ran')

  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '8999-12-31T00:00:00Z' } })).statusCode, 200, 'the end of the range is reachable')
  const far = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 2 * 86_400_000 } })
  t.equal(far.statusCode, 400, 'and an advance past it is refused')
  t.equal(far.json().code, 'CLOCK_OUT_OF_RANGE')
  // At the edge of sandbox time every money flow still works: identifiers keep their 4-digit year.
  const paid = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: 1, amount: 1 } })
  t.equal(paid.statusCode, 201)
  t.match(paid.json().endToEndId, /^E\d{8}8999/)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${pending}` })).json().status, 'CONFIRMED', 'the pending pay-out settled on the way')
})

t.test('--clock-start outside sandbox time, or not a real instant, stops the start', async t => {
  t.throws(() => loadConfig({}, ['--clock-start', '9999-12-31T23:59:59Z']), { message: /outside sandbox time \(2000-01-01T00:00:00.000Z to 8999-12-31T23:59:59.999Z\)/ })
  t.throws(() => loadConfig({}, ['--clock-start', '2035-10-17T23:59:60Z']), { message: /"2035-10-17T23:59:60Z" is invalid: expected an ISO 8601 instant/ })
  await t.rejects(buildApp({ config: { clockStart: '1990-01-01T00:00:00Z' } }), { name: 'StartupError', message: /--clock-start 1990-01-01T00:00:00Z is not an instant/ }, 'buildApp checks it too')
})

t.test('a full reset brings the clock back to where the settings start it', async t => {
  const app = await buildTestApp(t)
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 86_400_000 } })
  await app.inject({ method: 'POST', url: '/__sandbox/clock/resume' })
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  const c = await clockOf(app)
  t.same({ now: c.now, frozen: c.frozen }, { now: T0, frozen: true }, '--clock-start and --clock frozen again')
  const fixture = (await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json()
  t.equal(fixture.createdAt, T0, 'the fixtures are dated by the clock as reset')

  const running = await buildTestApp(t, { clock: 'running', clockStart: undefined })
  await running.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2030-01-01T00:00:00Z' } })
  await running.inject({ method: 'POST', url: '/__sandbox/reset' })
  const r = await clockOf(running)
  t.equal(r.frozen, false)
  t.ok(Math.abs(Date.parse(r.now) - Date.now()) < 5000, 'real time again')
  t.ok(Math.abs(r.offsetMs) < 5000)
})

t.test('a full reset starts the clock at clockStart, earlier than now too, running or frozen as asked, for that reset alone', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody() })
  await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-06-01T12:00:00Z' } })
  // What CLOCK_BACKWARDS says to do, done: back to a date before --clock-start (T0).
  const earlier = '2026-01-05T09:00:00-03:00'
  const refused = await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: earlier } })
  t.equal(refused.json().code, 'CLOCK_BACKWARDS')
  const reset = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { clockStart: earlier } })
  t.equal(reset.statusCode, 200, reset.body)
  t.same(reset.json(), { reset: 'all' })
  const c = await clockOf(app)
  t.same({ now: c.now, frozen: c.frozen, pendingJobs: c.pendingJobs }, { now: '2026-01-05T12:00:00.000Z', frozen: true, pendingJobs: 0 }, 'frozen as --clock says, nothing pending')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().createdAt, '2026-01-05T12:00:00.000Z', 'the fixtures are dated by the clock as reset')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/transactions' })).json().transactions.length, 0, 'a full reset: nothing of before')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-01-06T12:00:00Z' } })).statusCode, 200, 'and the clock moves on from there')

  const running = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { clockStart: '2030-02-01T00:00:00Z', clock: 'running' } })
  t.equal(running.statusCode, 200)
  const r = await clockOf(app)
  t.equal(r.frozen, false, 'running, as asked')
  t.ok(Date.parse(r.now) >= Date.parse('2030-02-01T00:00:00Z') && Date.parse(r.now) < Date.parse('2030-02-01T00:01:00Z'), r.now)
  t.same((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { clock: 'frozen' } })).json(), { reset: 'all' })
  t.same(await clockOf(app).then(x => [x.now, x.frozen]), [T0, true], 'clock alone: --clock-start\'s instant, frozen')

  await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { clockStart: earlier } })
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  t.same(await clockOf(app).then(x => [x.now, x.frozen]), [T0, true], 'the next plain reset goes back to the settings')

  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  const before = (await clockOf(app)).now
  for (const [payload, code, message] of [
    [{ clockStart: '1999-12-31T23:59:59Z' }, 'CLOCK_OUT_OF_RANGE', /2000-01-01T00:00:00\.000Z to 8999-12-31T23:59:59\.999Z/],
    [{ clockStart: '2026-02-30T00:00:00Z' }, 'HTTP_ERROR', /clockStart must be an ISO 8601 instant with its offset/],
    [{ clockStart: 'yesterday' }, 'HTTP_ERROR', /not "yesterday"/],
    [{ clock: 'stopped' }, 'HTTP_ERROR', /clock must be one of: running, frozen/],
    [{ accountId: 1, clockStart: earlier }, 'HTTP_ERROR', /the clock is every account's: leave out accountId/],
    [{ accountId: 1, clock: 'running' }, 'HTTP_ERROR', /leave out accountId/],
  ] as const) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload })
    t.equal(res.statusCode, 400, JSON.stringify(payload))
    t.equal(res.json().code, code)
    t.match(res.json().message, message)
  }
  t.equal((await clockOf(app)).now, before, 'a refused reset changed nothing')
})

t.test('a snapshot brings its clock back', async t => {
  const app = await buildTestApp(t)
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.same(snapshot.clock, { now: T0, frozen: true })
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 3_600_000 } })
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.equal((await clockOf(app)).now, T0)
})

function dataDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-clock-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('with --data the clock continues after a restart, and a pending settlement does not wait for time to catch up', async t => {
  const file = join(dataDir(t), 'state.json')
  const config: Partial<Config> = { data: file, seed: 'clock-seed', clockStart: T0, clock: 'running', settlementDelayMs: 300, jwtSecret: 'clock-test-jwt-secret-0123456789' }
  const first = await buildApp({ config })
  await first.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 86_400_000 } })
  const token = await tokenFor(first)
  const pending = (await first.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody() })).json().transactionId
  const before = Date.parse((await clockOf(first)).now)
  await first.close()

  // The same settings, --clock-start included: a data file that holds a state brings its own clock.
  const second = await buildApp({ config })
  t.teardown(() => second.close())
  const after = Date.parse((await clockOf(second)).now)
  t.ok(after >= before, `the clock continues (${new Date(after).toISOString()}), not back at --clock-start`)
  t.ok(after - before < 10_000)
  let status = ''
  for (let i = 0; i < 100 && status !== 'CONFIRMED'; i++) {
    status = (await second.inject({ method: 'GET', url: `/__sandbox/transactions/${pending}` })).json().status
    if (status !== 'CONFIRMED') await new Promise(resolve => setTimeout(resolve, 20))
  }
  t.equal(status, 'CONFIRMED', 'the settlement due before the restart ran')

  // A frozen clock stays where it was frozen.
  await second.inject({ method: 'POST', url: '/__sandbox/clock/freeze' })
  const frozenAt = (await clockOf(second)).now
  await second.close()
  const third = await buildApp({ config })
  t.teardown(() => third.close())
  const c = await clockOf(third)
  t.same({ now: c.now, frozen: c.frozen }, { now: frozenAt, frozen: true })
})

t.test('MED date filters are read strictly too', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  for (const q of ['startDate=2026-02-30', 'endDate=2026-03-10T24:00:00Z', 'startDate=2026-03-10T23:59:60Z']) {
    const res = await app.inject({ method: 'GET', url: `/api/med?${q}`, headers: bearer(token) })
    t.equal(res.statusCode, 400, q)
  }
})
