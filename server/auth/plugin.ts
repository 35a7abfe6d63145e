import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Refusal } from '../errors/refusal.js'

const unauthorized = (message: string): Refusal => new Refusal('UNAUTHORIZED', message)

/**
 * Scopes each request of a route with `config: { auth: true }` to the account of its bearer token.
 * Runs on onRequest, before the body is parsed or validated, so a missing token is a 401 whatever the
 * body says. A token outlives neither its 1800 s of sandbox time nor its account (reset removes it).
 */
async function authPlugin (app: FastifyInstance): Promise<void> {
  app.decorateRequest('account', undefined)
  app.decorateRequest('tokenClaims', undefined)
  // A callback hook (an async one costs a promise on every request).
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    if (!request.routeOptions.config.auth) return done()
    const header = request.headers.authorization
    if (!header) return done(unauthorized('Token de acesso ausente'))
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match) return done(unauthorized('Cabeçalho Authorization malformado; use Bearer <token>'))
    const claims = app.sandbox.tokens.signed(match[1])
    if (!claims) return done(unauthorized('Token de acesso inválido ou expirado'))
    request.tokenClaims = claims
    if (app.sandbox.tokens.expired(claims)) return done(unauthorized('Token de acesso inválido ou expirado'))
    const account = app.sandbox.store.account(Number(claims.sub))
    if (!account || account.clientId !== claims.clientId) return done(unauthorized('Token de acesso inválido ou expirado'))
    request.account = account
    done()
  })
}

export default fp(authPlugin, { name: 'auth', dependencies: ['sandbox'] })
