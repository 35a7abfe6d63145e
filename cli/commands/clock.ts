import type { Clock } from '../../client/index.js'
import { parseLocalBound } from '../../server/domain/calendar.js'
import { localTime, meant, UsageError, type Command } from '../command.js'

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** What parseDuration reads, in the words of the help and of its usage errors. */
export const DURATION = 'a duration such as 1h, 30m, 90s, 2d, 500ms, 1h30m, or plain milliseconds'

/** `1h`, `90s`, `1h30m`, `2d`, `500ms`, or plain milliseconds; null when it is none of these. */
export function parseDuration (text: string): number | null {
  if (/^\d{1,13}$/.test(text)) return Number(text)
  if (!/^(\d{1,9}(ms|s|m|h|d))+$/.test(text)) return null
  let ms = 0
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(n) * UNITS[unit]
  return ms
}

/**
 * What `clock set` reads: an ISO 8601 instant with its offset, or without one a São Paulo wall time (the
 * sandbox's days are São Paulo days, docs/assumptions.md), checked here so that `yesterday` or February
 * 30th is a usage error that says the form, not the sandbox's refusal of a malformed body.
 */
export const INSTANT = 'an instant such as 2026-03-10T23:00:00-03:00 or 2026-03-11T02:00:00Z, a São Paulo time such as 2026-03-10T23:00, or a date (its midnight in São Paulo)'

const ACTIONS = ['advance', 'set', 'next-due', 'freeze', 'resume']

/** `clock [advance D | set ISO | next-due [ACCOUNT] | freeze | resume]`: the sandbox clock, which timed effects follow. */
export const clock: Command = {
  name: 'clock',
  summary: 'show the sandbox clock, or advance, set, freeze or resume it, or move it to the next debit of a recurring charge (timed effects due on the way run)',
  usage: ['clock', 'clock advance DURATION', 'clock set TIME', 'clock next-due [ACCOUNT]', 'clock freeze', 'clock resume'],
  details: [
    'DURATION: 1h, 30m, 90s, 2d, 500ms, combined as 1h30m, or plain milliseconds (d, h, m, s and ms).',
    'TIME: an ISO 8601 instant with its offset (2026-03-10T23:00:00-03:00, 2026-03-11T02:00:00Z); without one,',
    'São Paulo time (2026-03-10T23:00); a date alone is its midnight in São Paulo (2026-03-11).',
    'next-due: to the next debit of a live recurring charge of API Pix (of ACCOUNT, an account id, when given),',
    'which runs; nothing moves when none is to come.',
    'Examples:',
    '  pix-sandbox clock advance 31m      expires the access tokens issued so far',
    '  pix-sandbox clock set 2026-03-10T23:00:00-03:00',
  ],
  async run (ctx, positionals) {
    const [action, arg, ...extra] = positionals
    const api = ctx.sandbox.sandbox
    let now: Clock
    const needs = (what: string): string => {
      if (arg === undefined) throw new UsageError(`clock ${action} needs ${what}`, this)
      if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}"`, this)
      return arg
    }
    const none = (): void => { if (arg !== undefined) throw new UsageError(`unexpected "${[arg, ...extra].join(' ')}"`, this) }
    switch (action) {
      case undefined: now = await api.clock(); break
      case 'advance': {
        const text = needs(DURATION)
        const ms = parseDuration(text)
        if (ms === null) throw new UsageError(`"${text}" is not ${DURATION}`, this)
        now = await api.advanceClock(ms)
        break
      }
      case 'set': {
        const text = needs(INSTANT)
        const at = parseLocalBound(text, 'start')
        if (at === null) throw new UsageError(`"${text}" is not a time: clock set needs ${INSTANT}`, this)
        now = await api.setClock(new Date(at))
        break
      }
      case 'next-due': {
        if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}"`, this)
        const accountId = arg === undefined ? undefined : Number(arg)
        if (accountId !== undefined && !(Number.isSafeInteger(accountId) && accountId >= 1)) throw new UsageError(`"${arg}" is not an account id`, this)
        const next = await api.advanceToNextDue(accountId)
        const { debit } = next
        ctx.print(next, () => [
          debit === null ? 'no recurring charge has a debit to come: the clock did not move' : `debit of recurring charge ${debit.txid} (account ${debit.accountId}) at ${localTime(debit.at)}: ${debit.status}`,
          `${localTime(next.clock.now)} (${next.clock.frozen ? 'frozen' : 'running'})`,
        ])
        return
      }
      case 'freeze': none(); now = await api.freezeClock(); break
      case 'resume': none(); now = await api.resumeClock(); break
      default: throw new UsageError(`unknown clock action "${action}"${meant(action, ACTIONS) || ': advance, set, next-due, freeze or resume'}`, this)
    }
    ctx.print(now, () => [
      `${localTime(now.now)} (${now.frozen ? 'frozen' : 'running'})`,
      now.pendingJobs === 0 ? 'no timed effect pending' : `${now.pendingJobs} timed effect(s) pending, the next at ${localTime(now.nextJobAt ?? '-')}`,
    ])
  },
}
