import { isIsoDate, parseInstant } from './instant.js'

/**
 * The one calendar of the sandbox: America/Sao_Paulo, as the tz database has it (UTC-3, with summer
 * time in the years before 2019, which the sandbox clock reaches). Daily and night limits, charge
 * expiry, the DAILY split run and MED's date filters all read local time here and nowhere else.
 */
const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

const SAO_PAULO = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
})

let cachedUtcHour = Number.NaN
let cachedOffsetMs = 0
let cachedTime: { day: string, hour: number } = { day: '', hour: 0 }

/**
 * The offset of São Paulo from UTC at an instant, in milliseconds (-3 h; -2 h in a summer before 2019).
 * Its offsets are whole hours and change on whole UTC hours, so the answer is constant within a UTC hour:
 * cached per hour, because formatToParts is the most expensive step of a cash-out otherwise (measured
 * with --cpu-prof).
 */
function offsetMsAt (ms: number): number {
  const utcHour = Math.floor(ms / HOUR_MS)
  if (utcHour !== cachedUtcHour) {
    const p = Object.fromEntries(SAO_PAULO.formatToParts(ms).map(x => [x.type, x.value]))
    const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute))
    cachedOffsetMs = Math.round((wall - ms) / HOUR_MS) * HOUR_MS
    cachedTime = { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) % 24 }
    cachedUtcHour = utcHour
  }
  return cachedOffsetMs
}

/** The calendar day (YYYY-MM-DD) and hour (0-23) of an instant in São Paulo. */
export function saoPauloTime (ms: number): { day: string, hour: number } {
  offsetMsAt(ms)
  return cachedTime
}

/** docs/gateway.md §8: the reduced night limit applies from 20:00 to 06:00. */
export function isNight (ms: number): boolean {
  const { hour } = saoPauloTime(ms)
  return hour >= 20 || hour < 6
}

/** The next midnight in São Paulo strictly after an instant. */
export function nextMidnight (ms: number): number {
  const offset = offsetMsAt(ms)
  const today = saoPauloTime(ms).day
  const nextLocal = (Math.floor((ms + offset) / DAY_MS) + 1) * DAY_MS
  // Across a change of offset, midnight is read with the offset of the day it begins; on the day
  // summer time began at 00:00 there was no midnight, and the day began at the change (01:00 local),
  // which is midnight read with today's offset. The earlier of the two that is already the next day.
  const withToday = nextLocal - offset
  const withNext = nextLocal - offsetMsAt(withToday)
  const earlier = Math.min(withToday, withNext)
  return saoPauloTime(earlier).day !== today ? earlier : Math.max(withToday, withNext)
}

/**
 * An ISO 8601 instant; one without an offset is São Paulo wall time. A date alone is a whole day
 * there: its first instant as a `start` bound, its last as an `end` bound. Null when it is no real
 * date or time (February 30th, 24:00).
 */
export function parseLocalBound (text: string, edge: 'start' | 'end'): number | null {
  const full = isIsoDate(text) ? `${text}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}` : text
  // Read first as UTC-3, then again with the offset São Paulo really had then (it differs only in old summers).
  const guess = parseInstant(full, -180)
  if (guess === null) return null
  const offsetMinutes = offsetMsAt(guess) / 60_000
  if (offsetMinutes === -180) return guess
  const local = parseInstant(full, offsetMinutes)
  // A wall time the change to summer time skipped (00:00-00:59 of its first day) did not exist: it is
  // read forward across the gap, as the first instant of that day is 01:00.
  return local !== null && offsetMsAt(local) / 60_000 !== offsetMinutes ? guess : local
}

const two = (n: number): string => String(n).padStart(2, '0')

/**
 * An instant as a person reads it (the CLI, the console): São Paulo wall time with its offset,
 * `2026-11-25T22:26:47.123-03:00` (docs/assumptions.md, "Time as a person reads it"). The same ISO 8601
 * instant as the API's `...Z`, so it can be pasted back (`pix-sandbox clock set`); the wire keeps UTC.
 */
export function saoPauloInstant (ms: number): string {
  const offset = offsetMsAt(ms)
  const minutes = Math.abs(offset) / 60_000
  return `${new Date(ms + offset).toISOString().slice(0, 23)}${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`
}
