import { parseLocalBound } from '../../server/domain/calendar.js'
import { localTime, positiveInteger, UsageError, type Command } from '../command.js'
import { INSTANT } from './clock.js'

/**
 * `reset [--account N] [--clock-start TIME] [--clock running|frozen]`: everything back to the fixtures, or
 * one account to its first state; a full reset may start the clock elsewhere than the settings say, earlier
 * than now too (the one way back, since the clock only moves forward).
 */
export const reset: Command = {
  name: 'reset',
  summary: 'put the whole sandbox back to its fixtures (its clock where you say, earlier too), or one account to its first state',
  usage: ['reset [--account N]', 'reset [--clock-start TIME] [--clock running|frozen]'],
  details: [
    'Options:',
    '  --account N          reset this account only (its balance, transactions, webhooks, armed scenarios)',
    '  --clock-start TIME   a full reset starts the clock at TIME instead of at the sandbox\'s --clock-start, earlier',
    '                       than now if need be (the clock otherwise only moves forward); for this reset alone',
    '  --clock MODE         running or frozen: how a full reset starts the clock, instead of the sandbox\'s --clock',
    'TIME: as clock set takes it, an ISO 8601 instant with its offset (2026-03-10T12:00:00-03:00), a São Paulo time',
    '(2026-03-10T12:00) or a date (its midnight in São Paulo).',
    'Example: replay dates of the past on a running sandbox',
    '  pix-sandbox reset --clock-start 2026-03-10T12:00:00-03:00 --clock frozen',
  ],
  options: { account: { type: 'string' }, 'clock-start': { type: 'string' }, clock: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length > 0) throw new UsageError(`unexpected "${positionals.join(' ')}"`, this)
    const accountId = values.account === undefined ? undefined : positiveInteger(values.account, '--account', this)
    const start = values['clock-start']
    const mode = values.clock
    if (accountId !== undefined && (start !== undefined || mode !== undefined)) {
      throw new UsageError('--clock-start and --clock start the clock of a full reset, which every account shares: leave out --account', this)
    }
    let clockStart: string | undefined
    if (start !== undefined) {
      const at = typeof start === 'string' ? parseLocalBound(start, 'start') : null
      if (at === null) throw new UsageError(`--clock-start needs ${INSTANT}${typeof start === 'string' ? `, not "${start}"` : ''}`, this)
      clockStart = new Date(at).toISOString()
    }
    if (mode !== undefined && mode !== 'running' && mode !== 'frozen') throw new UsageError(`--clock needs running or frozen${typeof mode === 'string' ? `, not "${mode}"` : ''}`, this)
    const api = ctx.sandbox.sandbox
    const done = await api.reset(accountId ?? { clockStart, clock: mode })
    if (clockStart === undefined && mode === undefined) {
      ctx.print(done, () => [done.reset === 'all' ? 'Sandbox reset to its fixtures' : `Account ${done.reset} reset to its first state`])
      return
    }
    const clock = await api.clock()
    ctx.print({ ...done, clock }, () => [`Sandbox reset to its fixtures, its clock at ${localTime(clock.now)} (${clock.frozen ? 'frozen' : 'running'})`])
  },
}
