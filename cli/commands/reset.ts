import { positiveInteger, UsageError, type Command } from '../command.js'

/** `reset [--account N]`: everything back to the fixtures, or one account to its first state. */
export const reset: Command = {
  name: 'reset',
  summary: 'put the whole sandbox back to its fixtures, or one account to its first state',
  usage: ['reset [--account N]'],
  details: ['Options:', '  --account N   reset this account only (its balance, transactions, webhooks, armed scenarios)'],
  options: { account: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length > 0) throw new UsageError(`unexpected "${positionals.join(' ')}"`, this)
    const accountId = values.account === undefined ? undefined : positiveInteger(values.account, '--account', this)
    const done = await ctx.sandbox.sandbox.reset(accountId)
    ctx.print(done, () => [done.reset === 'all' ? 'Sandbox reset to its fixtures' : `Account ${done.reset} reset to its first state`])
  },
}
