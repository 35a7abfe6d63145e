import t from 'tap'
import { isNight, nextMidnight, parseLocalBound, saoPauloTime } from '../../server/domain/calendar.js'

// docs/gateway.md §8: the daily and night limits follow São Paulo's calendar; splits run at its midnight.

t.test('day and hour in São Paulo: UTC-3 today, whatever hour was asked before', async t => {
  t.same(saoPauloTime(Date.parse('2026-03-11T02:59:59Z')), { day: '2026-03-10', hour: 23 })
  t.same(saoPauloTime(Date.parse('2026-03-11T03:00:00Z')), { day: '2026-03-11', hour: 0 })
  t.same(saoPauloTime(Date.parse('2026-03-11T02:00:00Z')), { day: '2026-03-10', hour: 23 }, 'the per-hour cache answers for the hour asked')
})

t.test('summer time before 2019 is UTC-2', async t => {
  // 2018-01-15 was in Brazilian summer time: midnight was 02:00 UTC.
  t.same(saoPauloTime(Date.parse('2018-01-15T01:59:59Z')), { day: '2018-01-14', hour: 23 })
  t.same(saoPauloTime(Date.parse('2018-01-15T02:00:00Z')), { day: '2018-01-15', hour: 0 })
  t.equal(nextMidnight(Date.parse('2018-01-15T12:00:00Z')), Date.parse('2018-01-16T02:00:00Z'))
  t.equal(parseLocalBound('2018-01-15', 'start'), Date.parse('2018-01-15T02:00:00Z'))
})

t.test('night is 20:00 to 06:00', async t => {
  t.equal(isNight(Date.parse('2026-03-10T22:59:59Z')), false)
  t.equal(isNight(Date.parse('2026-03-10T23:00:00Z')), true)
  t.equal(isNight(Date.parse('2026-03-11T08:59:59Z')), true)
  t.equal(isNight(Date.parse('2026-03-11T09:00:00Z')), false)
})

t.test('the next midnight is strictly after the instant', async t => {
  t.equal(nextMidnight(Date.parse('2026-03-10T15:00:00Z')), Date.parse('2026-03-11T03:00:00Z'))
  t.equal(nextMidnight(Date.parse('2026-03-11T03:00:00Z')), Date.parse('2026-03-12T03:00:00Z'), 'at midnight: the next one')
  t.equal(nextMidnight(Date.parse('2026-03-11T02:59:59.999Z')), Date.parse('2026-03-11T03:00:00Z'))
})

t.test('local bounds: a date covers its whole day, a time without offset is local, one with an offset is kept', async t => {
  t.equal(parseLocalBound('2026-03-10', 'start'), Date.parse('2026-03-10T03:00:00Z'))
  t.equal(parseLocalBound('2026-03-10', 'end'), Date.parse('2026-03-11T02:59:59.999Z'))
  t.equal(parseLocalBound('2026-03-10T12:00:00', 'start'), Date.parse('2026-03-10T15:00:00Z'))
  t.equal(parseLocalBound('2026-03-10T12:00:00Z', 'end'), Date.parse('2026-03-10T12:00:00Z'))
  t.equal(parseLocalBound('2026-02-30', 'start'), null, 'no such day')
  t.equal(parseLocalBound('yesterday', 'start'), null)
})
