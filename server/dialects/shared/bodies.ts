import type { FastifyInstance } from 'fastify'
import { Refusal } from '../../errors/refusal.js'

/**
 * The body parsers of a PSP's routes, in the plugin that calls it: an operation that takes no body
 * ignores an empty one that names JSON as its type, as PSPs do (gn-api-sdk-node sends Content-Type:
 * application/json with Content-Length: 0 on DELETE); one that takes a body still refuses it empty.
 * `emptyForms`: an empty body sent as a form is ignored there too (sdk-node-apis-efi's axios names
 * `application/x-www-form-urlencoded` on every bodiless POST and PUT, docs/efi.md), and a form with
 * content stays 415.
 */
export function bodilessTolerantParsers (app: FastifyInstance, opts: { emptyForms?: boolean } = {}): void {
  const json = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) return done(null, undefined)
    json(request, body as string, done)
  })
  if (opts.emptyForms !== true) return
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) return done(null, undefined)
    done(new Refusal('UNSUPPORTED_MEDIA_TYPE', 'Content-Type application/x-www-form-urlencoded não é aceito: envie application/json'), undefined)
  })
}
