import type { FastifyPluginAsync } from 'fastify'
import { routeNotFound } from '../../../errors/handler.js'
import cob from './cob.js'
import cobv from './cobv.js'
import cobr from './cobr.js'
import webhookcobr from './webhookcobr.js'
import loc from './loc.js'
import rec from './rec.js'
import solicrec from './solicrec.js'
import locrec from './locrec.js'
import webhookrec from './webhookrec.js'
import pix from './pix.js'
import devolucao from './devolucao.js'
import webhook from './webhook.js'
import lotecobv from './lotecobv.js'
import { registerNamed } from '../../../named-plugins.js'
import { securityOfScope } from './route.js'
import { bodilessTolerantParsers } from '../../shared/bodies.js'

/**
 * BACEN's API Pix 2.9.0 under its base path (docs/api-pix.md): one plugin per resource, each route
 * naming in its config the scope a token needs and its problem types. A new resource is a route file
 * here, a schema file in server/schemas/api-pix/ and the service methods it calls.
 */
const apiPixRoutes: FastifyPluginAsync = async (app) => {
  // A token without the route's scope is 403 AcessoNegado: checked with the token (auth/plugin.ts, app-wide).
  // The scope is named once, in the route's config; its OpenAPI security follows from it.
  app.addHook('onRoute', securityOfScope)

  // An operation that takes no body ignores an empty JSON body, or an empty form as sdk-node-apis-efi sends
  // on its bodiless POST /locrec (shared/bodies.ts).
  bodilessTolerantParsers(app, { emptyForms: true })

  await registerNamed(app, { cob, loc, cobv, lotecobv, pix, devolucao, webhook, rec, solicrec, locrec, webhookrec, cobr, webhookcobr })

  // Whatever else is under the base path is API Pix's 404, before any body is read (so with or without
  // one), and never a gateway route whose parameter would match it (`/pix/v2/x/devolucao/y` under /pix/v2).
  app.all('/*', {
    schema: { hide: true },
    config: { apiPix: {} },
    onRequest: (request, _reply, done) => { done(routeNotFound(request)) },
  }, async () => undefined)
}

export default apiPixRoutes

/**
 * The route a base path would take over, if any: a route of the sandbox at the base path or under
 * it (`/pix` would take `GET /pix/:e2eid`), so the base is refused at start.
 */
export function baseCollision (base: string, routes: ReadonlyArray<{ method: string, url: string }>): string | undefined {
  const taken = routes.find(r => r.url === base || r.url.startsWith(`${base}/`))
  return taken && `${taken.method} ${taken.url}`
}

/**
 * The URL a request is routed by: under the base path without a trailing slash, since PSPs serve a
 * resource with one too and clients send it (Efí's SDKs list due charges at `GET /v2/cobv/`); any
 * other URL as it came, so the gateway's families answer as they did.
 */
export function apiPixRoutingUrl (base: string, url: string): string {
  if (!url.startsWith(`${base}/`)) return url
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  if (path.length <= base.length + 1 || !path.endsWith('/')) return url
  return path.slice(0, -1) + (query === -1 ? '' : url.slice(query))
}
