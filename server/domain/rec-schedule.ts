/**
 * The calendar of a recurrence (Pix Automático, API Pix 2.9.0): its due dates from
 * `calendario.dataInicial` by `periodicidade` up to `dataFinal`, and the cycles they open. Pure:
 * dates are São Paulo calendar days (`YYYY-MM-DD`), passed in.
 *
 * API (for the services and scheduler jobs of Pix Automático):
 * - `recDueDate(calendario, ciclo)`: the due date of cycle `ciclo` (0 is dataInicial), or null when
 *   it falls after dataFinal or after 9999-12-31.
 * - `recDueDates(calendario, ate)`: the due dates up to and including `ate` (and dataFinal), in order.
 * - `recCycleOf(calendario, date)`: the cycle a date belongs to, `{ ciclo, inicio, fim }`
 *   (`inicio` its due date, `fim` the day before the next one or dataFinal), or null before
 *   dataInicial and after dataFinal.
 * - `recNextDueDate(calendario, after)`: the first due date strictly after `after`, or null.
 * A date that is no real `YYYY-MM-DD` day throws RangeError; calendario must come from parseRecTerms.
 *
 * The rules, with the YAML's lines (bacen-pix-api-2.9.0.yaml):
 * - 6701-6727 (RecBase.calendario): dataInicial is the estimated date of the first payment;
 *   dataFinal, optional, ends the authorisation's term (none: open-ended); periodicidade SEMANAL,
 *   MENSAL, TRIMESTRAL, SEMESTRAL or ANUAL.
 * - 296 (CobROperacaoInvalida): one charge per cycle, "Existe uma CobR ... com
 *   calendario.dataDeVencimento no mesmo ciclo": a cycle is where a charge's due date may fall.
 *
 * Decisions where API Pix says no more (docs/assumptions.md, Pix Automático):
 * - Due date n is dataInicial plus n weeks (SEMANAL) or n times 1, 3, 6 or 12 months, always counted
 *   from dataInicial, never from the previous due date. A day the month lacks becomes the month's
 *   last day: a monthly recurrence from 31 January falls on 28 (29) February, 31 March, 30 April,
 *   31 May; an annual one from 29 February on 28 February of common years. Counting from dataInicial
 *   keeps the 31st after a short month, as the payer agreed to "the 31st of each month", and is how
 *   a month is added in the market's date rules (a month after 31 January is the end of February).
 * - Cycle n runs from due date n up to the day before due date n + 1, so cycles tile the term with
 *   no gap: a receiver may set a charge's due date on any day of a cycle (a variable bill), once.
 *   Dates are not moved to business days here: that is the charge's `ajusteDiaUtil` (cobr.ts).
 */
import type { DeepReadonly } from './readonly.js'
import { addCalendarDays, dayNumber, type IsoDate } from './business-days.js'
import type { Periodicidade, RecCalendario } from './rec.js'

const MONTHS: Record<Exclude<Periodicidade, 'SEMANAL'>, number> = { MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 }
const LAST_DATE = '9999-12-31'

/** A cycle of a recurrence: its index, its due date (`inicio`) and its last day (`fim`). */
export interface RecCiclo { ciclo: number, inicio: IsoDate, fim: IsoDate }

function daysIn (year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** `months` months after `date`, the day kept or, when the month is shorter, its last day; null after 9999. */
function addMonthsClamped (date: IsoDate, months: number): IsoDate | null {
  const [y, m, d] = date.split('-').map(Number)
  const index = y * 12 + (m - 1) + months
  const year = Math.floor(index / 12)
  if (year > 9999) return null
  const month = index - year * 12 + 1
  const day = Math.min(d, daysIn(year, month))
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Due date n, ignoring dataFinal (null only past 9999-12-31). */
function nthDate (calendario: DeepReadonly<RecCalendario>, n: number): IsoDate | null {
  const { dataInicial, periodicidade } = calendario
  if (periodicidade === 'SEMANAL') {
    return dayNumber(dataInicial) + 7 * n > dayNumber(LAST_DATE) ? null : addCalendarDays(dataInicial, 7 * n)
  }
  return addMonthsClamped(dataInicial, MONTHS[periodicidade] * n)
}

function assertCiclo (ciclo: number): void {
  if (!Number.isSafeInteger(ciclo) || ciclo < 0) throw new RangeError(`ciclo must be a whole number from 0, got ${ciclo}`)
}

/** The due date of cycle `ciclo` (0 is dataInicial); null when it is after dataFinal or after 9999-12-31. */
export function recDueDate (calendario: DeepReadonly<RecCalendario>, ciclo: number): IsoDate | null {
  assertCiclo(ciclo)
  const date = nthDate(calendario, ciclo)
  return date === null || (calendario.dataFinal !== undefined && date > calendario.dataFinal) ? null : date
}

/** Every due date up to and including `ate` (and dataFinal), in order. */
export function recDueDates (calendario: DeepReadonly<RecCalendario>, ate: IsoDate): IsoDate[] {
  const dates: IsoDate[] = []
  for (let n = 0; ; n++) {
    const date = recDueDate(calendario, n)
    if (date === null || date > ate) return dates
    dates.push(date)
  }
}

/** The index of the last due date on or before `date` (date on or after dataInicial). */
function cycleIndex (calendario: DeepReadonly<RecCalendario>, date: IsoDate): number {
  const { dataInicial, periodicidade } = calendario
  if (periodicidade === 'SEMANAL') return Math.floor((dayNumber(date) - dayNumber(dataInicial)) / 7)
  const [y0, m0] = dataInicial.split('-').map(Number)
  const [y, m] = date.split('-').map(Number)
  let n = Math.floor(((y - y0) * 12 + (m - m0)) / MONTHS[periodicidade])
  // The month's count can overshoot by one when the day of the month is earlier than the due day.
  while (n > 0 && (nthDate(calendario, n) as IsoDate) > date) n--
  return n
}

/** The cycle `date` belongs to; null before dataInicial and after dataFinal. */
export function recCycleOf (calendario: DeepReadonly<RecCalendario>, date: IsoDate): RecCiclo | null {
  dayNumber(date) // a real date, or RangeError
  const { dataInicial, dataFinal } = calendario
  if (date < dataInicial || (dataFinal !== undefined && date > dataFinal)) return null
  const ciclo = cycleIndex(calendario, date)
  const inicio = nthDate(calendario, ciclo) as IsoDate
  const next = nthDate(calendario, ciclo + 1)
  let fim = next === null ? LAST_DATE : addCalendarDays(next, -1)
  if (dataFinal !== undefined && dataFinal < fim) fim = dataFinal
  return { ciclo, inicio, fim }
}

/** The first due date strictly after `after`, or null when none is left in the term. */
export function recNextDueDate (calendario: DeepReadonly<RecCalendario>, after: IsoDate): IsoDate | null {
  dayNumber(after)
  if (after < calendario.dataInicial) return recDueDate(calendario, 0)
  return recDueDate(calendario, cycleIndex(calendario, after) + 1)
}
