import t from 'tap'
import fc from 'fast-check'
import { addCalendarDays, dateOfDayNumber, dayNumber } from '../../server/domain/business-days.js'
import type { Periodicidade, RecCalendario } from '../../server/domain/rec.js'
import { recCycleOf, recDueDate, recDueDates, recNextDueDate } from '../../server/domain/rec-schedule.js'

// A recurrence's due dates and cycles (server/domain/rec-schedule.ts), worked by hand.

const cal = (dataInicial: string, periodicidade: Periodicidade, dataFinal?: string): RecCalendario =>
  ({ dataInicial, periodicidade, ...(dataFinal === undefined ? {} : { dataFinal }) })

t.test('due dates by periodicity, counted from dataInicial, a missing day becoming the month\'s last', async t => {
  t.same(recDueDates(cal('2024-01-31', 'MENSAL', '2024-12-31'), '9999-12-31'), [
    '2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31', '2024-06-30',
    '2024-07-31', '2024-08-31', '2024-09-30', '2024-10-31', '2024-11-30', '2024-12-31',
  ], 'the 31st comes back after a short month: counted from dataInicial, not from the previous due date')
  t.same(recDueDates(cal('2025-01-31', 'MENSAL'), '2025-03-31'), ['2025-01-31', '2025-02-28', '2025-03-31'], 'a common year\'s February')
  t.same(recDueDates(cal('2025-01-30', 'MENSAL'), '2025-03-31'), ['2025-01-30', '2025-02-28', '2025-03-30'])
  t.same(recDueDates(cal('2024-02-29', 'ANUAL'), '2028-12-31'), ['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29'])
  t.same(recDueDates(cal('2024-04-01', 'SEMANAL', '2024-04-30'), '9999-12-31'), ['2024-04-01', '2024-04-08', '2024-04-15', '2024-04-22', '2024-04-29'])
  t.same(recDueDates(cal('2024-12-26', 'SEMANAL'), '2025-01-10'), ['2024-12-26', '2025-01-02', '2025-01-09'], 'across a year')
  t.same(recDueDates(cal('2024-11-30', 'TRIMESTRAL'), '2025-12-31'), ['2024-11-30', '2025-02-28', '2025-05-30', '2025-08-30', '2025-11-30'])
  t.same(recDueDates(cal('2024-08-31', 'SEMESTRAL'), '2025-12-31'), ['2024-08-31', '2025-02-28', '2025-08-31'])
  t.equal(recDueDates(cal('2024-04-01', 'MENSAL', '2025-04-01'), '9999-12-31').length, 13, 'recBody1: 1 April 2024 to 1 April 2025, both included')
  t.same(recDueDates(cal('2024-04-01', 'MENSAL', '2024-04-15'), '9999-12-31'), ['2024-04-01'], 'a term shorter than a period: one due date')
  t.same(recDueDates(cal('2024-04-01', 'MENSAL'), '2024-03-31'), [], 'nothing up to a date before the start')
  t.equal(recDueDate(cal('2024-04-01', 'MENSAL', '2025-04-01'), 12), '2025-04-01')
  t.equal(recDueDate(cal('2024-04-01', 'MENSAL', '2025-03-31'), 12), null, 'after dataFinal')
  t.equal(recDueDate(cal('9999-12-01', 'MENSAL'), 1), null, 'after 9999-12-31')
  t.equal(recDueDate(cal('9999-12-25', 'SEMANAL'), 1), null)
  t.throws(() => recDueDate(cal('2024-04-01', 'MENSAL'), -1), RangeError)
  t.throws(() => recDueDate(cal('2024-04-01', 'MENSAL'), 1.5), RangeError)
})

t.test('the cycle of a date runs from its due date to the day before the next, the last up to dataFinal', async t => {
  const monthly = cal('2024-01-31', 'MENSAL', '2024-12-15')
  t.same(recCycleOf(monthly, '2024-01-31'), { ciclo: 0, inicio: '2024-01-31', fim: '2024-02-28' })
  t.same(recCycleOf(monthly, '2024-02-29'), { ciclo: 1, inicio: '2024-02-29', fim: '2024-03-30' })
  t.same(recCycleOf(monthly, '2024-03-30'), { ciclo: 1, inicio: '2024-02-29', fim: '2024-03-30' })
  t.same(recCycleOf(monthly, '2024-03-31'), { ciclo: 2, inicio: '2024-03-31', fim: '2024-04-29' })
  t.same(recCycleOf(monthly, '2024-12-15'), { ciclo: 10, inicio: '2024-11-30', fim: '2024-12-15' }, 'the last cycle ends with the term')
  t.equal(recCycleOf(monthly, '2024-12-16'), null, 'after dataFinal')
  t.equal(recCycleOf(monthly, '2024-01-30'), null, 'before dataInicial')
  t.same(recCycleOf(cal('2024-04-03', 'SEMANAL'), '2024-04-16'), { ciclo: 1, inicio: '2024-04-10', fim: '2024-04-16' })
  t.same(recCycleOf(cal('9999-12-01', 'MENSAL'), '9999-12-31'), { ciclo: 0, inicio: '9999-12-01', fim: '9999-12-31' }, 'no next due date: up to the last date')
  t.throws(() => recCycleOf(monthly, '2024-02-30'), RangeError)
})

t.test('the next due date after a date', async t => {
  const monthly = cal('2024-01-31', 'MENSAL', '2024-12-31')
  t.equal(recNextDueDate(monthly, '2024-01-01'), '2024-01-31', 'before the start: the first')
  t.equal(recNextDueDate(monthly, '2024-01-31'), '2024-02-29', 'strictly after')
  t.equal(recNextDueDate(monthly, '2024-03-01'), '2024-03-31')
  t.equal(recNextDueDate(monthly, '2024-12-31'), null, 'none after the last')
  t.equal(recNextDueDate(cal('2024-01-31', 'MENSAL', '2024-01-31'), '2023-12-31'), '2024-01-31')
  t.equal(recNextDueDate(cal('2024-06-05', 'ANUAL'), '2030-06-04'), '2030-06-05')
})

// --- properties ----------------------------------------------------------------------------------

const FIRST = dayNumber('2000-01-01')
const LAST = dayNumber('2100-12-31')
const calendario = fc.record({
  inicio: fc.integer({ min: FIRST, max: LAST }),
  dias: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }),
  periodicidade: fc.constantFrom<Periodicidade>('SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'),
}).map(({ inicio, dias, periodicidade }) => cal(dateOfDayNumber(inicio), periodicidade, dias === undefined ? undefined : dateOfDayNumber(inicio + dias)))

/** A calendar and a date from a year before its start to a year after its end (or 20 years after an open start). */
const withDate = calendario.chain(c => fc.tuple(fc.constant(c), fc.integer({
  min: dayNumber(c.dataInicial) - 366,
  max: dayNumber(c.dataFinal ?? c.dataInicial) + (c.dataFinal === undefined ? 7300 : 366),
}).map(dateOfDayNumber)))

const MONTHS = { SEMANAL: 0, MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 }

t.test('the schedule is strictly increasing, starts on dataInicial, stays within the term, one period apart', async t => {
  fc.assert(fc.property(withDate, ([c, ate]) => {
    const dates = recDueDates(c, ate)
    const end = c.dataFinal !== undefined && c.dataFinal < ate ? c.dataFinal : ate
    if (ate < c.dataInicial) return dates.length === 0
    const months = (d: string): number => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7))
    return dates[0] === c.dataInicial &&
      dates.every((d, i) => i === 0 || d > dates[i - 1]) &&
      dates.every(d => d >= c.dataInicial && d <= end) &&
      // nothing left out: the next one is past the end (or past 9999)
      (recDueDate(c, dates.length) ?? '9999-12-31~') > end &&
      dates.every((d, i) => c.periodicidade === 'SEMANAL'
        ? dayNumber(d) - dayNumber(c.dataInicial) === 7 * i
        : months(d) - months(c.dataInicial) === MONTHS[c.periodicidade] * i)
  }), { numRuns: 3000 })
})

/** The last day of a date's month. */
const monthEnd = (d: string): number => Number(addCalendarDays(`${addCalendarDays(`${d.slice(0, 8)}01`, 32).slice(0, 8)}01`, -1).slice(8))

t.test('a monthly due date keeps dataInicial\'s day, or the month\'s last when the month is shorter', async t => {
  fc.assert(fc.property(withDate, ([c, ate]) => {
    if (c.periodicidade === 'SEMANAL') return true
    const day0 = Number(c.dataInicial.slice(8))
    return recDueDates(c, ate).every(d => Number(d.slice(8)) === Math.min(day0, monthEnd(d)))
  }), { numRuns: 3000 })
})

t.test('cycles tile the term: a date is in one cycle, from its due date to the day before the next', async t => {
  fc.assert(fc.property(withDate, ([c, date]) => {
    const cycle = recCycleOf(c, date)
    if (date < c.dataInicial || (c.dataFinal !== undefined && date > c.dataFinal)) return cycle === null
    if (cycle === null) return false
    const next = recDueDate(c, cycle.ciclo + 1)
    return cycle.inicio <= date && date <= cycle.fim &&
      recDueDate(c, cycle.ciclo) === cycle.inicio &&
      (next === null ? cycle.fim === (c.dataFinal ?? '9999-12-31') : addCalendarDays(cycle.fim, 1) === next) &&
      recNextDueDate(c, date) === next
  }), { numRuns: 3000 })
})

t.test('consecutive days move through the cycles one at a time', async t => {
  fc.assert(fc.property(calendario, fc.integer({ min: 0, max: 400 }), (c, offset) => {
    let previous = -1
    for (let n = 0; n < 60; n++) {
      const date = addCalendarDays(c.dataInicial, offset + n)
      const cycle = recCycleOf(c, date)
      if (cycle === null) return c.dataFinal !== undefined && date > c.dataFinal
      if (previous >= 0 && cycle.ciclo !== previous && cycle.ciclo !== previous + 1) return false
      if (cycle.ciclo !== previous && previous >= 0 && cycle.inicio !== date) return false
      previous = cycle.ciclo
    }
    return true
  }), { numRuns: 1000 })
})
