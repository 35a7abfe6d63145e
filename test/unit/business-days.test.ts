import t from 'tap'
import fc from 'fast-check'
import {
  addCalendarDays, businessDayOnOrAfter, businessDaysBetween, calendarDaysBetween, dateOfDayNumber, dayNumber,
  easterSunday, isBusinessDay, isNationalHoliday, nationalHolidays
} from '../../server/domain/business-days.js'

// The business days of API Pix's due charges (server/domain/cobv.ts): weekends and national holidays are not.

// Published dates, not derived from the code: Easter, Carnival Monday, Good Friday, Corpus Christi.
const MOVEABLE: Array<[number, string, string, string, string]> = [
  [2020, '2020-04-12', '2020-02-24', '2020-04-10', '2020-06-11'],
  [2021, '2021-04-04', '2021-02-15', '2021-04-02', '2021-06-03'],
  [2022, '2022-04-17', '2022-02-28', '2022-04-15', '2022-06-16'],
  [2023, '2023-04-09', '2023-02-20', '2023-04-07', '2023-06-08'],
  [2024, '2024-03-31', '2024-02-12', '2024-03-29', '2024-05-30'],
  [2025, '2025-04-20', '2025-03-03', '2025-04-18', '2025-06-19'],
  [2026, '2026-04-05', '2026-02-16', '2026-04-03', '2026-06-04'],
  [2027, '2027-03-28', '2027-02-08', '2027-03-26', '2027-05-27'],
  [2028, '2028-04-16', '2028-02-28', '2028-04-14', '2028-06-15'],
  [2029, '2029-04-01', '2029-02-12', '2029-03-30', '2029-05-31'],
  [2030, '2030-04-21', '2030-03-04', '2030-04-19', '2030-06-20'],
  [2031, '2031-04-13', '2031-02-24', '2031-04-11', '2031-06-12'],
  [2032, '2032-03-28', '2032-02-09', '2032-03-26', '2032-05-27'],
  [2033, '2033-04-17', '2033-02-28', '2033-04-15', '2033-06-16'],
  [2034, '2034-04-09', '2034-02-20', '2034-04-07', '2034-06-08'],
  [2035, '2035-03-25', '2035-02-05', '2035-03-23', '2035-05-24'],
]

t.test('national holidays 2020-2035: the fixed ones and those that follow Easter', async t => {
  for (const [year, easter, carnival, goodFriday, corpusChristi] of MOVEABLE) {
    t.equal(easterSunday(year), easter, `Easter ${year}`)
    const fixed = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', ...(year >= 2024 ? ['11-20'] : []), '12-25'].map(d => `${year}-${d}`)
    const expected = [...fixed, carnival, addCalendarDays(carnival, 1), goodFriday, corpusChristi].sort()
    t.same(nationalHolidays(year).map(h => h.date), expected, `${year}: ${expected.length} holidays, in date order`)
  }
})

t.test('holidays by name; Consciência Negra is national from 2024; Good Friday and Tiradentes can coincide', async t => {
  t.same(nationalHolidays(2026).map(h => `${h.date} ${h.name}`), [
    '2026-01-01 Confraternização Universal',
    '2026-02-16 Carnaval (segunda-feira)',
    '2026-02-17 Carnaval (terça-feira)',
    '2026-04-03 Sexta-feira Santa',
    '2026-04-21 Tiradentes',
    '2026-05-01 Dia do Trabalho',
    '2026-06-04 Corpus Christi',
    '2026-09-07 Independência do Brasil',
    '2026-10-12 Nossa Senhora Aparecida',
    '2026-11-02 Finados',
    '2026-11-15 Proclamação da República',
    '2026-11-20 Dia Nacional de Zumbi e da Consciência Negra',
    '2026-12-25 Natal',
  ])
  t.notOk(isNationalHoliday('2023-11-20'), 'a municipal holiday in 2023 (São Paulo\'s), not a national one')
  t.ok(isNationalHoliday('2024-11-20'))
  t.same(nationalHolidays(2000).filter(h => h.date === '2000-04-21').map(h => h.name), ['Tiradentes', 'Sexta-feira Santa'])
})

t.test('business days: Monday to Friday, not a national holiday', async t => {
  t.ok(isBusinessDay('2020-12-28'), 'a Monday')
  t.notOk(isBusinessDay('2020-12-25'), 'Natal, a Friday')
  t.notOk(isBusinessDay('2020-10-24'), 'a Saturday')
  t.notOk(isBusinessDay('2020-10-25'), 'a Sunday')
  t.notOk(isBusinessDay('2026-02-17'), 'Carnival Tuesday: banks closed')
  t.ok(isBusinessDay('2026-02-18'), 'Ash Wednesday: banks open at noon, a business day')
  t.ok(isBusinessDay('2020-12-31'), '31 December: no counter service, still a business day')
  t.ok(isBusinessDay('2026-12-24'))
  t.ok(isBusinessDay('2027-01-25'), 'São Paulo\'s anniversary is municipal: not counted')
  t.ok(isBusinessDay('2026-07-09'), 'São Paulo\'s state holiday is not counted')
})

t.test('the next business day: the day itself, or past weekends and holidays', async t => {
  t.equal(businessDayOnOrAfter('2020-12-28'), '2020-12-28')
  t.equal(businessDayOnOrAfter('2020-12-25'), '2020-12-28', 'Natal on a Friday, then the weekend')
  t.equal(businessDayOnOrAfter('2021-09-04'), '2021-09-06', 'a Saturday: Monday, as the 7th is the Tuesday after')
  t.equal(businessDayOnOrAfter('2026-02-14'), '2026-02-18', 'the Saturday before Carnival: Ash Wednesday')
  t.equal(businessDayOnOrAfter('2026-04-03'), '2026-04-06', 'Good Friday')
})

t.test('business days between two dates: after the first, up to and including the second', async t => {
  t.equal(businessDaysBetween('2021-08-26', '2021-08-30'), 2, 'Thursday to Monday: Friday and Monday')
  t.equal(businessDaysBetween('2021-08-27', '2021-08-28'), 0, 'Friday to Saturday')
  t.equal(businessDaysBetween('2021-08-27', '2021-08-30'), 1, 'Friday to Monday')
  t.equal(businessDaysBetween('2021-08-27', '2021-08-27'), 0)
  t.equal(businessDaysBetween('2021-08-30', '2021-08-26'), -2, 'backwards: the same count, negative')
  t.equal(businessDaysBetween('2020-12-24', '2020-12-31'), 4, 'over Natal: 28, 29, 30, 31')
  t.equal(businessDaysBetween('2026-04-02', '2026-04-22'), 12, 'Good Friday and Tiradentes skipped')
  t.equal(businessDaysBetween('2025-12-31', '2026-12-31'), 249, 'a whole year: 261 weekdays, 12 holidays on weekdays')
})

t.test('calendar days', async t => {
  t.equal(dayNumber('1970-01-01'), 0)
  t.equal(dayNumber('2000-03-01') - dayNumber('2000-02-28'), 2, '2000 is a leap year')
  t.equal(addCalendarDays('2100-02-28', 1), '2100-03-01', '2100 is not')
  t.equal(addCalendarDays('2020-12-31', 30), '2021-01-30')
  t.equal(addCalendarDays('2021-01-01', -1), '2020-12-31')
  t.equal(calendarDaysBetween('2020-12-31', '2021-02-01'), 32)
  t.equal(calendarDaysBetween('2021-02-01', '2020-12-31'), -32)
  t.equal(dateOfDayNumber(dayNumber('9999-12-31')), '9999-12-31')
  for (const bad of ['2021-02-29', '2021-13-01', '2021-1-01', '20210101', '']) t.throws(() => dayNumber(bad), RangeError, bad)
  t.throws(() => addCalendarDays('9999-12-31', 1), RangeError, 'no 5-digit years')
  t.throws(() => dateOfDayNumber(0.5), RangeError)
})

const DAY_2000 = dayNumber('2000-01-01')
const DAY_2100 = dayNumber('2100-12-31')
const aDate = fc.integer({ min: DAY_2000, max: DAY_2100 }).map(dateOfDayNumber)

t.test('day numbers agree with Date.UTC, both ways', async t => {
  fc.assert(fc.property(fc.integer({ min: dayNumber('1000-01-01'), max: dayNumber('9999-12-31') }), n => {
    const date = dateOfDayNumber(n)
    return dayNumber(date) === n && new Date(n * 86_400_000).toISOString().slice(0, 10) === date
  }), { numRuns: 2000 })
})

t.test('business days between two dates is the count day by day, and adds up over consecutive spans', async t => {
  fc.assert(fc.property(aDate, fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 400 }), (from, span, more) => {
    const to = addCalendarDays(from, span)
    let naive = 0
    for (let d = addCalendarDays(from, 1); d <= to; d = addCalendarDays(d, 1)) if (isBusinessDay(d)) naive++
    const further = addCalendarDays(to, more)
    return businessDaysBetween(from, to) === naive &&
      businessDaysBetween(from, to) + businessDaysBetween(to, further) === businessDaysBetween(from, further)
  }), { numRuns: 300 })
})

t.test('the next business day is one, and no business day lies before it', async t => {
  fc.assert(fc.property(aDate, date => {
    const next = businessDayOnOrAfter(date)
    return isBusinessDay(next) && next >= date && businessDaysBetween(date, next) === (next === date ? 0 : 1) &&
      calendarDaysBetween(date, next) <= 5
  }), { numRuns: 2000 })
})

t.test('a span of centuries is counted without walking it day by day', async t => {
  // 2000-01-01 to 9999-12-31 walked day by day is 2.9 million steps; per year it is 8,000.
  const n = businessDaysBetween('2000-01-01', '9999-12-31')
  t.ok(n > 2_000_000 && n < 2_100_000, `${n}`)
})
