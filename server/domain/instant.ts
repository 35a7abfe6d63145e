/**
 * Instants of sandbox time: the strict ISO 8601 reading every date that comes in goes through, and
 * the range of sandbox time the clock may take.
 *
 * `Date.parse` is too lenient to be the gate: it reads `23:59:60` as NaN (which then slips past every
 * comparison), `T24:00:00` as the next midnight, and depends on the engine for anything but the one
 * format it must accept. Here a date-time is accepted only when every field is a real one.
 */

/**
 * The range of sandbox time. Every date the sandbox derives from the clock must stay representable:
 * endToEndId and rtrId carry a 4-digit year, refund deadlines add 89 days, a settlement can be delayed
 * by up to 10^10 ms (116 days) and webhook backoff can reach about 60 years. Year 9000 leaves a
 * millennium of margin under 9999; the start is before any PIX (2020) a test could want.
 */
export const SANDBOX_TIME_MIN = Date.UTC(2000, 0, 1)
export const SANDBOX_TIME_MAX = Date.UTC(9000, 0, 1) - 1
export const SANDBOX_TIME_BOUNDS = { min: new Date(SANDBOX_TIME_MIN).toISOString(), max: new Date(SANDBOX_TIME_MAX).toISOString() }
export const SANDBOX_TIME_RANGE = `${SANDBOX_TIME_BOUNDS.min} to ${SANDBOX_TIME_BOUNDS.max}`

export function withinSandboxTime (ms: number): boolean {
  return Number.isFinite(ms) && ms >= SANDBOX_TIME_MIN && ms <= SANDBOX_TIME_MAX
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2})?$/

function daysInMonth (year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

function isRealDate (year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/** A calendar date `YYYY-MM-DD` that exists (no February 30th). */
export function isIsoDate (text: string): boolean {
  const m = DATE.exec(text)
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))
}

/**
 * Milliseconds since the epoch of an ISO 8601 date-time (`2026-03-10T12:00:00Z`, seconds and
 * fraction optional, `Z` or `±hh:mm`), or null when any field is out of its range: month 13,
 * February 30th, hour 24, second 60 (a leap second has no millisecond of its own), offset +24:00.
 * Without an offset the text is refused, unless the caller says which one applies (in minutes).
 */
export function parseInstant (text: string, defaultOffsetMinutes?: number): number | null {
  const m = DATE_TIME.exec(text)
  if (!m) return null
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number)
  const second = m[6] === undefined ? 0 : Number(m[6])
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null
  let offsetMinutes: number
  const zone = m[8]
  if (zone === undefined) {
    if (defaultOffsetMinutes === undefined) return null
    offsetMinutes = defaultOffsetMinutes
  } else if (zone === 'Z' || zone === 'z') {
    offsetMinutes = 0
  } else {
    const oh = Number(zone.slice(1, 3))
    const om = Number(zone.slice(4, 6))
    if (oh > 23 || om > 59) return null
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om)
  }
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'))
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms))
  date.setUTCFullYear(year)
  return date.getTime() - offsetMinutes * 60_000
}

/** An ISO 8601 date alone (a whole São Paulo day) or date-time, as the date filters take them. */
export const ISO_DATE_OR_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?)?$'
