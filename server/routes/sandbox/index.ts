import type { FastifyPluginAsync } from 'fastify'
import { Refusal } from '../../errors/refusal.js'
import { mayControl } from './admin.js'
import system from './system.js'
import accounts from './accounts.js'
import scenarios from './scenarios.js'
import webhooks from './webhooks.js'
import transactions from './transactions.js'
import directory from './directory.js'
import pix from './pix.js'
import med from './med.js'
import requests from './requests.js'
import report from './report.js'
import recurrences from './recurrences.js'
import locations from './locations.js'
import apiPix from './api-pix.js'
import { named, registerNamed } from '../../named-plugins.js'
import type { Dialect } from '../../dialects/types.js'

/**
 * The control plane under /__sandbox. With an admin token configured (a sandbox exposed on a shared
 * network), every control-plane request must carry it; health stays open for container probes (the seed
 * it shows only to those who may use the control plane).
 */
const sandboxRoutes: FastifyPluginAsync<{ dialects?: readonly Dialect[] }> = async (app, opts) => {
  const adminToken = app.sandbox.config.adminToken
  if (adminToken) {
    app.addHook('onRequest', async (request) => {
      // The route, not the target: `http://host/__sandbox/health` and `/__sandbox/%68ealth` reach it too.
      if (request.routeOptions.url === '/__sandbox/health') return
      if (!mayControl(request, adminToken)) {
        throw new Refusal('ADMIN_TOKEN_REQUIRED', 'The control plane needs the admin token (X-Sandbox-Admin-Token)')
      }
    })
  }
  // Control-plane calls are often body-less (`curl -X POST .../reset`, with or without a JSON
  // content type): an absent or empty body reads as `{}`, so optional bodies really are optional.
  const json = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined)
    else json(request, body as string, done)
  })
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH')) request.body = {}
  })
  await registerNamed(app, { system, requests, accounts, scenarios, webhooks, transactions, directory, pix, med, report, locations, apiPix, recurrences })
  // Each dialect's own part, under the same token and parsers.
  for (const dialect of opts.dialects ?? []) if (dialect.controlPlane !== undefined) await app.register(named(`${dialect.name}-control-plane`, dialect.controlPlane))
}

export default sandboxRoutes
