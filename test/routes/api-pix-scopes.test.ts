import t from 'tap'
import type { RouteOptions } from 'fastify'
import { securityOfScope } from '../../server/dialects/api-pix/routes/route.js'
import { bearer, buildTestApp, fixtureAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'

/**
 * A route of API Pix names its scope once, in its config (`config.apiPix.scope`, what a token is
 * checked against): its OpenAPI security is derived from it (docs/api-pix.md, Scopes), so what the
 * document declares is what the server checks.
 */

const route = (config: object, schema?: object): RouteOptions => ({ method: 'GET', url: '/v2/x', handler: () => undefined, config, ...(schema !== undefined ? { schema } : {}) }) as RouteOptions

t.test('the security of a route of API Pix is the scope its config names, and naming it twice refuses to start', async t => {
  const named = route({ apiPix: { scope: 'cob.read' } }, { querystring: {} })
  securityOfScope(named)
  t.same((named.schema as { security: unknown }).security, [{ oauth2: ['cob.read'] }])
  const without = route({ apiPix: {} }, {})
  securityOfScope(without)
  t.equal((without.schema as { security?: unknown }).security, undefined, 'a route of API Pix without a scope (its payloads, its 404) declares none')
  t.throws(() => securityOfScope(route({ apiPix: { scope: 'cob.read' } }, { security: [{ oauth2: ['cob.read'] }] })), /config\.apiPix\.scope alone/)
})

t.test('every operation of API Pix the document declares with a scope: a token of that scope alone is let through, a token of another is 403', async t => {
  const app = await buildTestApp(t)
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, { operationId: string, tags?: string[], security?: Array<{ oauth2?: string[] }> }>> }
  const tokens = new Map<string, string>()
  const scoped = async (scope: string): Promise<string> => {
    if (!tokens.has(scope)) tokens.set(scope, await oauthToken(app, fixtureAccount, scope))
    return tokens.get(scope)!
  }
  let checked = 0
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const scope = op.security?.[0]?.oauth2?.[0]
      if (!(op.tags ?? []).includes('API Pix') || scope === undefined) continue
      const url = path.replace(/\{[^}]+\}/g, 'x1')
      const call = async (token: string) => (await app.inject({ method: method.toUpperCase() as 'GET', url, headers: bearer(token) })).statusCode
      t.not(await call(await scoped(scope)), 403, `${op.operationId}: a token of ${scope}`)
      const other = scope === 'cob.read' ? 'pix.read' : 'cob.read'
      t.equal(await call(await scoped(other)), 403, `${op.operationId}: a token of ${other}`)
      checked++
    }
  }
  t.ok(checked >= 40, `every operation of API Pix behind a scope (${checked})`)
})
