import { amount, brl, positiveInteger, UsageError, type Command } from '../command.js'

/** `incoming --account N --amount X`: an unsolicited PIX arrives. */
export const incoming: Command = {
  name: 'incoming',
  summary: 'an unsolicited PIX arrives for an account: credits it and sends its cash_in webhook',
  usage: ['incoming --account N --amount BRL'],
  details: ['Example:', '  pix-sandbox incoming --account 1 --amount 250.00'],
  options: { account: { type: 'string' }, amount: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length > 0) throw new UsageError(`unexpected "${positionals.join(' ')}"`, this)
    const accountId = positiveInteger(values.account, '--account', this)
    const received = await ctx.sandbox.sandbox.incoming({ accountId, amount: amount(values.amount, '--amount', this) })
    ctx.print(received, () => [
      `Received ${brl(received.amount)} on account ${received.accountId}: ${received.kind} ${received.status}`,
      `  transactionId  ${received.transactionId}`,
      `  endToEndId     ${received.endToEndId}`,
    ])
  },
}
