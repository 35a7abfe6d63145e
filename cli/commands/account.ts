import { amount, brl, UsageError, type Command } from '../command.js'

/** `account create`: a fresh isolated account, its credentials and a first access token. */
export const account: Command = {
  name: 'account',
  summary: 'create an isolated account: prints its credentials (Mercado Pago\'s too), client certificate, private key and an access token',
  usage: ['account create [--balance BRL] [--name NAME]'],
  details: [
    'Options:',
    '  --balance BRL   opening available balance (default: the sandbox\'s default for new accounts)',
    '  --name NAME     the holder\'s name',
    '',
    'The private key is shown only here, once. Example:',
    '  pix-sandbox account create --balance 1000 --json > account.json',
  ],
  options: { balance: { type: 'string' }, name: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals[0] !== 'create' || positionals.length > 1) {
      throw new UsageError(positionals.length === 0 ? 'account needs a subcommand: create' : `unexpected "${positionals.join(' ')}"`, this)
    }
    const created = await ctx.sandbox.sandbox.createAccount({
      ...(values.balance === undefined ? {} : { balance: amount(values.balance, '--balance', this) }),
      ...(typeof values.name === 'string' ? { name: values.name } : {}),
    })
    const token = await ctx.sandbox.sandbox.issueToken(created.accountId)
    ctx.print({ ...created, token }, () => [
      `Account ${created.accountId} created: ${created.name}, document ${created.document}, balance ${brl(created.balance.available)}`,
      `  clientId       ${created.clientId}`,
      `  clientSecret   ${created.clientSecret}`,
      `  access token   ${token.access_token}`,
      `                 (${token.token_type}, expires in ${token.expires_in} s of sandbox time; pix-sandbox token --account ${created.accountId} issues another)`,
      ...(created.mercadoPago === undefined
        ? []
        : [
            'Mercado Pago (docs/mercado-pago.md):',
            `  accessToken    ${created.mercadoPago.accessToken}`,
            `  publicKey      ${created.mercadoPago.publicKey}`,
            `  userId         ${created.mercadoPago.userId}`,
            `  webhookSecret  ${created.mercadoPago.webhookSecret}`,
          ]),
      '',
      'Client certificate (send it percent-encoded in X-SSL-Client-Cert):',
      created.certificate.trimEnd(),
      '',
      'Private key (shown only now):',
      created.privateKey.trimEnd(),
    ])
  },
}
