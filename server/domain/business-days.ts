/**
 * Calendar dates and Brazilian business days, for the rules of API Pix that count days: a due
 * charge's due date moves to the next business day, and some fines, interest and discounts count
 * business days ("dias úteis"). Dates are ISO `YYYY-MM-DD` calendar days of São Paulo (a payment's
 * day comes from `saoPauloTime(ms).day`, calendar.ts); nothing here reads a clock or a time zone.
 *
 * A business day is a Monday to Friday that is not a national holiday. The holidays counted, for
 * every year (computed, not a table, so any year works; the tests pin 2020 to 2035 against published dates):
 * - fixed: 1 January (Confraternização Universal), 21 April (Tiradentes), 1 May (Dia do Trabalho),
 *   7 September (Independência), 12 October (Nossa Senhora Aparecida), 2 November (Finados),
 *   15 November (Proclamação da República), 20 November (Consciência Negra, national from 2024
 *   only), 25 December (Natal);
 * - from Easter: Carnival Monday and Tuesday (48 and 47 days before), Good Friday (2 days before),
 *   Corpus Christi (60 days after). Carnival and Corpus Christi are not holidays by federal law, but
 *   banks do not open and the financial system does not count them as business days, which is
 *   what "dias úteis" of a charge means.
 * Not counted: state and municipal holidays (a payer's city may have more: API Pix lets a payer's
 * PSP use them, the sandbox does not know where the payer is), Ash Wednesday (banks open at noon),
 * 24 and 31 December (business days with no counter service).
 */

/** A calendar date, `YYYY-MM-DD` (year 0000 to 9999). */
export type IsoDate = string

export interface Holiday { date: IsoDate, name: string }

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/*
 * Day numbers (days since 1970-01-01) by integer arithmetic on the proleptic Gregorian calendar,
 * rather than Date: no 0-99 year quirk of Date.UTC and no float.
 */
function daysFromCivil (year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

function civilFromDays (n: number): { year: number, month: number, day: number } {
  const z = n + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

function iso (year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Days since 1970-01-01 of a date. Throws RangeError on anything but a real `YYYY-MM-DD` date. */
export function dayNumber (date: IsoDate): number {
  const m = DATE.exec(date)
  if (m === null) throw new RangeError(`not a YYYY-MM-DD date: ${date}`)
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const n = daysFromCivil(year, month, day)
  const back = civilFromDays(n)
  if (back.month !== month || back.day !== day) throw new RangeError(`no such date: ${date}`)
  return n
}

/** The date of a day number. Throws RangeError outside years 0000 to 9999. */
export function dateOfDayNumber (n: number): IsoDate {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a day number: ${n}`)
  const { year, month, day } = civilFromDays(n)
  if (year < 0 || year > 9999) throw new RangeError(`year ${year} is outside 0000-9999`)
  return iso(year, month, day)
}

/** The date `days` calendar days after `date` (before it when negative). */
export function addCalendarDays (date: IsoDate, days: number): IsoDate {
  return dateOfDayNumber(dayNumber(date) + days)
}

/** Calendar days from `from` to `to`: positive when `to` is later, 0 on the same day. */
export function calendarDaysBetween (from: IsoDate, to: IsoDate): number {
  return dayNumber(to) - dayNumber(from)
}

/** 0 Sunday ... 6 Saturday. 1970-01-01 was a Thursday. */
function weekdayOf (n: number): number {
  return ((n + 4) % 7 + 7) % 7
}

/** Day number of Easter Sunday: the Gregorian computus (Meeus, Jones, Butcher), for any year. */
function easterDay (year: number): number {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return daysFromCivil(year, month, day)
}

/** Easter Sunday of a year (0000 to 9999). */
export function easterSunday (year: number): IsoDate {
  if (!Number.isInteger(year)) throw new RangeError(`not a year: ${year}`)
  return dateOfDayNumber(easterDay(year))
}

const FIXED_HOLIDAYS: ReadonlyArray<{ month: number, day: number, name: string, from?: number }> = [
  { month: 1, day: 1, name: 'Confraternização Universal' },
  { month: 4, day: 21, name: 'Tiradentes' },
  { month: 5, day: 1, name: 'Dia do Trabalho' },
  { month: 9, day: 7, name: 'Independência do Brasil' },
  { month: 10, day: 12, name: 'Nossa Senhora Aparecida' },
  { month: 11, day: 2, name: 'Finados' },
  { month: 11, day: 15, name: 'Proclamação da República' },
  { month: 11, day: 20, name: 'Dia Nacional de Zumbi e da Consciência Negra', from: 2024 },
  { month: 12, day: 25, name: 'Natal' },
]

const EASTER_HOLIDAYS: ReadonlyArray<{ offset: number, name: string }> = [
  { offset: -48, name: 'Carnaval (segunda-feira)' },
  { offset: -47, name: 'Carnaval (terça-feira)' },
  { offset: -2, name: 'Sexta-feira Santa' },
  { offset: 60, name: 'Corpus Christi' },
]

function holidayList (year: number): Array<{ day: number, name: string }> {
  const easter = easterDay(year)
  return [
    ...FIXED_HOLIDAYS.filter(h => h.from === undefined || year >= h.from).map(h => ({ day: daysFromCivil(year, h.month, h.day), name: h.name })),
    ...EASTER_HOLIDAYS.map(h => ({ day: easter + h.offset, name: h.name })),
  ].sort((x, y) => x.day - y.day)
}

/**
 * The national holidays of a year (0000 to 9999), in date order. Good Friday and Tiradentes can
 * fall on the same day (2000, 2079): both are listed.
 */
export function nationalHolidays (year: number): readonly Holiday[] {
  if (!Number.isInteger(year)) throw new RangeError(`not a year: ${year}`)
  return holidayList(year).map(h => ({ date: dateOfDayNumber(h.day), name: h.name }))
}

// Per year, the day numbers of its holidays: business-day counts over long spans ask for the same years again.
const holidayDays = new Map<number, ReadonlySet<number>>()

function holidaysOf (year: number): ReadonlySet<number> {
  let days = holidayDays.get(year)
  if (days === undefined) {
    days = new Set(holidayList(year).map(h => h.day))
    holidayDays.set(year, days)
  }
  return days
}

function isBusinessDayNumber (n: number): boolean {
  const weekday = weekdayOf(n)
  return weekday !== 0 && weekday !== 6 && !holidaysOf(civilFromDays(n).year).has(n)
}

export function isNationalHoliday (date: IsoDate): boolean {
  const n = dayNumber(date)
  return holidaysOf(civilFromDays(n).year).has(n)
}

/** Monday to Friday and not a national holiday. */
export function isBusinessDay (date: IsoDate): boolean {
  return isBusinessDayNumber(dayNumber(date))
}

/** The date itself when it is a business day, else the first business day after it. */
export function businessDayOnOrAfter (date: IsoDate): IsoDate {
  let n = dayNumber(date)
  while (!isBusinessDayNumber(n)) n++ // at most a weekend plus Carnival: a few steps
  return dateOfDayNumber(n)
}

/** Mondays to Fridays in [monday0, n), for any n: a prefix count, so a span is a difference of two. */
const MONDAY = 4 // 1970-01-05
function weekdaysBefore (n: number): number {
  const k = n - MONDAY
  const weeks = Math.floor(k / 7)
  return weeks * 5 + Math.min(k - weeks * 7, 5)
}

/**
 * Business days in (from, to]: those after `from` up to and including `to` (0 when they are the same
 * day; negative, the count of (to, from], when `to` is earlier). Paid on Thursday for a charge due on
 * Monday is 2 business days early (Friday, Monday); paid on Saturday after a Friday due date is 0
 * business days late, on Monday 1.
 */
export function businessDaysBetween (from: IsoDate, to: IsoDate): number {
  const a = dayNumber(from)
  const b = dayNumber(to)
  if (b < a) return -businessDaysBetween(to, from)
  let count = weekdaysBefore(b + 1) - weekdaysBefore(a + 1)
  // Counted per year rather than per day, so a span of centuries costs centuries, not days.
  for (let year = civilFromDays(a).year; year <= civilFromDays(b).year; year++) {
    for (const n of holidaysOf(year)) {
      if (n > a && n <= b && weekdayOf(n) !== 0 && weekdayOf(n) !== 6) count--
    }
  }
  return count
}
