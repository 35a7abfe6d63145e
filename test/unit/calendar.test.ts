import t from 'tap'
import { isNight, nextMidnight, parseLocalBound, saoPauloInstant, saoPauloTime } from '../../server/domain/calendar.js'

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

// The last summers: 2018-02-18 00:00 (UTC-2) fell back to 2018-02-17 23:00 (UTC-3); 2018-11-04 00:00
// (UTC-3) sprang to 01:00 (UTC-2), so that day had no midnight; 2019-02-17 00:00 (UTC-2) fell back again.
const day = (ms: number | null) => ms === null ? null : saoPauloTime(ms).day

t.test('the day summer time began (2018-11-04, no 00:00): the day starts at 01:00 local, 03:00 UTC', async t => {
  t.same(saoPauloTime(Date.parse('2018-11-04T02:59:59Z')), { day: '2018-11-03', hour: 23 })
  t.same(saoPauloTime(Date.parse('2018-11-04T03:00:00Z')), { day: '2018-11-04', hour: 1 })
  const midnight = nextMidnight(Date.parse('2018-11-03T12:00:00Z'))
  t.equal(midnight, Date.parse('2018-11-04T03:00:00Z'), 'the daily split run waits for the new day')
  t.equal(day(midnight), '2018-11-04')
  t.equal(day(midnight - 1), '2018-11-03')
  t.equal(parseLocalBound('2018-11-04', 'start'), Date.parse('2018-11-04T03:00:00Z'), 'a date filter starts with the day, not an hour before')
  t.equal(parseLocalBound('2018-11-03', 'end'), Date.parse('2018-11-04T02:59:59.999Z'))
  t.equal(parseLocalBound('2018-11-04T00:30:00', 'start'), Date.parse('2018-11-04T03:30:00Z'), 'a wall time that did not exist moves forward across the gap')
  t.equal(nextMidnight(Date.parse('2018-11-04T12:00:00Z')), Date.parse('2018-11-05T02:00:00Z'), 'the next day begins at 00:00 UTC-2')
})

t.test('the day summer time ended (2019-02-17): the repeated hour belongs to the day before', async t => {
  t.same(saoPauloTime(Date.parse('2019-02-17T01:59:59Z')), { day: '2019-02-16', hour: 23 })
  t.same(saoPauloTime(Date.parse('2019-02-17T02:30:00Z')), { day: '2019-02-16', hour: 23 }, '23:30 again, now UTC-3')
  const midnight = nextMidnight(Date.parse('2019-02-16T12:00:00Z'))
  t.equal(midnight, Date.parse('2019-02-17T03:00:00Z'))
  t.equal(day(midnight - 1), '2019-02-16')
  t.equal(parseLocalBound('2019-02-16', 'start'), Date.parse('2019-02-16T02:00:00Z'), 'began in summer time')
  t.equal(parseLocalBound('2019-02-16', 'end'), Date.parse('2019-02-17T02:59:59.999Z'), 'ends after the repeated hour')
  t.equal(parseLocalBound('2019-02-17', 'start'), Date.parse('2019-02-17T03:00:00Z'))
  t.same(saoPauloTime(Date.parse('2019-11-03T03:30:00Z')), { day: '2019-11-03', hour: 0 }, 'no summer time from 2019 on')
})

t.test('every hour from 2017 to 2020: the next midnight begins the next local day and the instant before it ends this one', async t => {
  const bad: string[] = []
  for (let ms = Date.parse('2017-01-01T00:30:00Z'); ms < Date.parse('2020-01-01T00:00:00Z'); ms += 3_600_000) {
    const today = day(ms)!
    const next = nextMidnight(ms)
    if (!(next > ms) || day(next) === today || day(next - 1) !== today) bad.push(new Date(ms).toISOString())
  }
  t.same(bad, [], 'no instant whose next midnight is wrong')
})

t.test('night across the change of offset: 20:00 and 06:00 local, in summer time too', async t => {
  t.equal(isNight(Date.parse('2018-12-10T21:59:59Z')), false, '19:59:59 UTC-2')
  t.equal(isNight(Date.parse('2018-12-10T22:00:00Z')), true, '20:00 UTC-2')
  t.equal(isNight(Date.parse('2018-12-11T07:59:59Z')), true, '05:59:59 UTC-2')
  t.equal(isNight(Date.parse('2018-12-11T08:00:00Z')), false, '06:00 UTC-2')
})

t.test('an instant as a person reads it: São Paulo wall time with its offset, the same instant as the API\'s UTC', async t => {
  t.equal(saoPauloInstant(Date.parse('2026-11-26T01:26:47.000Z')), '2026-11-25T22:26:47.000-03:00', 'the date is São Paulo\'s')
  t.equal(saoPauloInstant(Date.parse('2018-01-15T02:00:00.5Z')), '2018-01-15T00:00:00.500-02:00', 'summer time before 2019')
  for (const iso of ['2026-03-10T15:00:00.000Z', '2000-01-01T00:00:00.000Z', '2017-10-15T03:00:00.000Z']) {
    t.equal(parseLocalBound(saoPauloInstant(Date.parse(iso)), 'start'), Date.parse(iso), `${iso} reads back`)
  }
})
