import { saoPauloInstant } from '../domain/calendar.js'
import type { FailedAttempt, GaveUp } from '../webhooks/types.js'
import type { Writable } from 'node:stream'

/**
 * The console in `--log-format pretty`: pino still writes its JSON line, and this stream turns each
 * into one readable line before it reaches the terminal:
 *
 *   12:00:01.532-03:00 POST /api/pix/cash-out 422 2.1ms acct=7 scenario=INSUFFICIENT_FUNDS code=PIX_INSUFFICIENT_BALANCE
 *   12:00:03.010-03:00 WARN webhook attempt 1/5 failed: cash_out to http://127.0.0.1:9/hook (ECONNREFUSED); retry at 2026-03-10T12:00:04.000-03:00
 *
 * Times are São Paulo's with their offset, as everywhere a person reads one (docs/assumptions.md).
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }
/** Fields every line has or that the line already says. */
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'requestId', 'reqId'])

/** The time of day of a line (the machine's clock when it was written). */
const clockTime = (ms: number): string => saoPauloInstant(ms).slice(11)

function value (v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v
  if (Array.isArray(v)) return v.map(value).join(',')
  return JSON.stringify(v)
}

/** One pretty line for one pino JSON line (the line itself when it is not JSON). */
export function prettyLine (json: string): string {
  let o: Record<string, unknown>
  try {
    o = JSON.parse(json) as Record<string, unknown>
  } catch {
    return json.trimEnd()
  }
  const level = typeof o.level === 'number' ? o.level : 30
  const head = `${clockTime(typeof o.time === 'number' ? o.time : Date.now())}${level === 30 ? '' : ` ${LEVELS[level] ?? level}`}`
  if (o.msg === 'request' && typeof o.method === 'string') {
    const parts = [head, o.method, o.path, o.statusCode, `${String(o.durationMs)}ms`]
    if (o.accountId !== undefined && o.accountId !== null) parts.push(`acct=${String(o.accountId)}`)
    if (Array.isArray(o.scenarios)) parts.push(`scenario=${o.scenarios.join(',')}`)
    if (o.code !== undefined) parts.push(`code=${String(o.code)}`)
    return parts.join(' ')
  }
  const rest: string[] = []
  for (const [k, v] of Object.entries(o)) {
    if (SKIP.has(k) || v === undefined || v === null) continue
    // What the message already says (a webhook line names its event, URL and error) is not repeated.
    if ((typeof v === 'string' || typeof v === 'number') && String(o.msg).includes(String(v))) continue
    if (k === 'err' && v !== null && typeof v === 'object') rest.push(`err=${value((v as { message?: unknown }).message ?? v)}`)
    else rest.push(`${k}=${value(v)}`)
  }
  return [head, String(o.msg ?? ''), ...rest].filter(Boolean).join(' ')
}

/** A stream for pino's `stream` option that writes pretty lines to `out`. */
export function prettyStream (out: Writable | NodeJS.WriteStream): { write: (chunk: string) => void } {
  return {
    write (chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') out.write(prettyLine(line) + '\n')
    },
  }
}

interface Logger {
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

/** The two webhook lines: a warning per failed attempt, an error per delivery given up. */
export function webhookLines (log: Logger): { onAttemptFailed: (a: FailedAttempt) => void, onGaveUp: (g: GaveUp) => void } {
  return {
    onAttemptFailed: a => log.warn(a, `webhook attempt ${a.attempt}/${a.maxAttempts} failed: ${a.eventType} to ${a.url ?? '(no URL)'} (${a.error})${a.retryAt ? `; retry at ${saoPauloInstant(Date.parse(a.retryAt))}` : ''}`),
    onGaveUp: g => log.error(g, `webhook delivery ${g.deliveryId} gave up after ${g.attempts} attempt(s): ${g.eventType} to ${g.url ?? '(no URL)'} (${g.reason})`),
  }
}
