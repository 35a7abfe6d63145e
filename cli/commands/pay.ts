import { amount, brl, UsageError, type Command } from '../command.js'

/** `pay <pixCode>`: pays a charge of this sandbox as a payer's bank app would. */
export const pay: Command = {
  name: 'pay',
  summary: 'pay a charge of this sandbox by its copy-and-paste code (cash-in, cob, or API Pix\'s cob at its payload location), as a payer\'s bank would',
  usage: ['pay <pixCode> [--amount BRL]'],
  details: [
    'Options:',
    '  --amount BRL   needed when the payer names the amount (a cob that lets the payer choose, a static',
    '                 code without one); otherwise it must equal what the charge asks now, or the static code\'s',
    '',
    'The charge\'s account is credited and its webhooks are sent. Quote the code: it contains spaces and *.',
    'A code whose tag 26-25 is a payload location of this sandbox (API Pix) pays the charge that location serves now,',
    'the amount it asks now: a dynamic code carries no amount, its payload does.',
  ],
  options: { amount: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'pay needs the charge\'s copy-and-paste code' : 'pay takes one code (quote it)', this)
    const paid = await ctx.sandbox.sandbox.pay(positionals[0], values.amount === undefined ? {} : { amount: amount(values.amount, '--amount', this) })
    ctx.print(paid, () => [
      `Paid ${brl(paid.amount)} to account ${paid.accountId}: ${paid.kind} ${paid.status}${paid.errorCode ? ` (${paid.errorCode})` : ''}`,
      `  transactionId  ${paid.transactionId}`,
      `  endToEndId     ${paid.endToEndId}`,
      ...(paid.txid ? [`  txid           ${paid.txid}`] : []),
    ])
  },
}
