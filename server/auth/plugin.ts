import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Refusal } from '../errors/refusal.js'
import type { Account } from '../store/state.js'
import type { TokenClaims } from './tokens.js'
import { grantedScopes, scopeRefusal } from '../domain/scopes.js'

type Done = (err?: Error) => void

const unauthorized = (message: string): Refusal => new Refusal('UNAUTHORIZED', message)
const INVALID = 'Token de acesso inválido ou expirado'

/**
 * Scopes each request of a route with `config: { auth: true }` to the account of its bearer token, and
 * to what the token's scopes cover (`config.apiPix.scope` on API Pix, `config.scope` on the gateway).
 * Runs on onRequest, before the body is parsed or validated, so a missing token is a 401 whatever the
 * body says. A token outlives neither its 1800 s of sandbox time nor the life of its account: a full
 * reset, a reset of the account or a snapshot import ends it (docs/assumptions.md, Tokens).
 */
async function authPlugin (app: FastifyInstance): Promise<void> {
  const { store, tokens } = app.sandbox
  app.decorateRequest('account', undefined)
  app.decorateRequest('tokenClaims', undefined)

  /** The account a token names, as the store holds it now, or why the token no longer counts. */
  const accountOf = (claims: TokenClaims): Account | Refusal => {
    if (tokens.expired(claims)) return unauthorized(INVALID)
    const account = store.account(Number(claims.sub))
    if (account !== undefined && tokens.issuedTo(claims, account)) return account
    // The same credentials in another life: the account was reset or replaced after the token was issued.
    return unauthorized(account?.clientId === claims.clientId ? 'Token de acesso emitido antes de um reset ou de uma importação de snapshot; solicite um novo token' : INVALID)
  }

  // Callback hooks (an async one costs a promise on every request).
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
    if (!request.routeOptions.config.auth) return done()
    const header = request.headers.authorization
    if (!header) return done(unauthorized('Token de acesso ausente'))
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match) return done(unauthorized('Cabeçalho Authorization malformado; use Bearer <token>'))
    const claims = tokens.signed(match[1])
    if (!claims) return done(unauthorized(INVALID))
    request.tokenClaims = claims
    const account = accountOf(claims)
    if (account instanceof Refusal) return done(account)
    request.account = account
    // The scope, before the body too: a token of some scopes acts within them on every route (docs/api-pix.md, Scopes).
    // (The gateway's token on a gateway route, the hot path, has no scope to check.)
    const config = request.routeOptions.config
    const apiPix = config.apiPix !== undefined
    if (claims.scope === undefined && !apiPix) return done()
    const refused = scopeRefusal(claims.scope, grantedScopes(account), apiPix ? config.apiPix!.scope : config.scope, apiPix)
    if (refused !== null) return done(new Refusal('ACCESS_DENIED', refused))
    done()
  })

  // The body arrives after onRequest, as slowly as the client sends it: a reset or an import in the
  // meantime would leave the request holding an account that is no longer there, or another one under
  // its id. Checked again once the body is in, before the route's other hooks (the scenarios it resolves)
  // and its handler, which acts with no await before its unit (a service that awaits checks again).
  app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
    // A dialect that authenticates by its own credentials (Mercado Pago's access token) checks them itself.
    if (request.account === undefined || request.tokenClaims === undefined) return done()
    const account = accountOf(request.tokenClaims!)
    if (account instanceof Refusal) {
      request.account = undefined
      return done(account)
    }
    request.account = account
    done()
  })
}

export default fp(authPlugin, { name: 'auth', dependencies: ['sandbox'] })
