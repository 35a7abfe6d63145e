import { createClient } from '../../client/index.js'
import { positiveInteger, type Command } from '../command.js'

/** `token --account N`: an access token of the account, issued by the gateway's own token endpoint. */
export const token: Command = {
  name: 'token',
  summary: 'issue an access token for an account (POST /api/auth/token with its credentials and certificate)',
  usage: ['token --account N'],
  details: [
    'Prints the token alone, for a shell variable:',
    '  TOKEN=$(pix-sandbox token --account 1)',
    '  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/balance',
  ],
  options: { account: { type: 'string' } },
  async run (ctx, positionals, values) {
    const accountId = positiveInteger(values.account, '--account', this)
    const account = await ctx.sandbox.sandbox.account(accountId)
    const gateway = createClient({ baseUrl: ctx.url, clientId: account.clientId, clientSecret: account.clientSecret, certificate: account.certificate, fetch: ctx.io.fetch })
    const issued = await gateway.issueToken()
    ctx.print({ accountId, ...issued }, () => [issued.access_token])
  },
}
