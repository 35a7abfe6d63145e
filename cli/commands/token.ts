import { positiveInteger, type Command } from '../command.js'

/**
 * `token --account N`: an access token of the account, issued by the control plane for a tool: the
 * integration report grades the tokens the integration requests itself, so the developer's own do not
 * count against it (a second `TOKEN=$(pix-sandbox token ...)` is not a token fetched too early).
 */
export const token: Command = {
  name: 'token',
  summary: 'issue an access token for an account (POST /__sandbox/accounts/N/token: the integration report does not grade it)',
  usage: ['token --account N'],
  details: [
    'Prints the token alone, for a shell variable:',
    '  TOKEN=$(pix-sandbox token --account 1)',
    '  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/balance',
  ],
  options: { account: { type: 'string' } },
  async run (ctx, positionals, values) {
    const accountId = positiveInteger(values.account, '--account', this)
    const issued = await ctx.sandbox.sandbox.issueToken(accountId)
    ctx.print({ accountId, ...issued }, () => [issued.access_token])
  },
}
