import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { randomUUID } from 'node:crypto'
import { VERSION } from './version.js'
import type { Config } from './config.js'
import { ConfigError, defaultConfig } from './config.js'
import { gatewayCnpjForm } from './domain/documents.js'
import { API_PIX_SCOPES, type ApiPixScope } from './domain/scopes.js'
import type { Fixtures } from './fixtures.js'
import type { StoreOptions } from './store/store.js'
import { createSandbox, type Sandbox } from './sandbox.js'
import type { Account } from './store/state.js'
import type { TokenClaims } from './auth/tokens.js'
import type { AppliedScenario } from '../scenarios/types.js'
import type { ApiPixRoute } from './routes/api-pix/route.js'
import captureRequests from './journal/capture.js'
import { webhookLines } from './journal/console.js'
import { frameworkErrorHandler, registerErrorHandlers, storageUnavailable } from './errors/handler.js'
import { declareErrorResponses, toOpenApi30 } from './schemas/declared.js'
import { sharedSchemas } from './schemas/common.js'
import { buildSerializer, validatorCompiler } from './schemas/compilers.js'
import authPlugin from './auth/plugin.js'
import faultsPlugin from './faults.js'
import standardRoutes from './routes/standard/index.js'
import centralBankRoutes from './routes/central-bank/index.js'
import sandboxRoutes from './routes/sandbox/index.js'
import apiPixRoutes, { apiPixRoutingUrl, baseCollision } from './routes/api-pix/index.js'
import apiPixToken from './routes/api-pix/oauth.js'
import apiPixPayloads from './routes/api-pix/payload.js'
import type { ReadOnlyReplies } from './routes/plugin.js'
import { named } from './routes/named.js'
import { GatewayNotifier } from './dialects/gateway/notifier.js'
import { ApiPixNotifier } from './dialects/api-pix/notifier.js'
import { apiPixViews } from './dialects/api-pix/views/index.js'

declare module 'fastify' {
  interface FastifyInstance {
    sandbox: Sandbox
  }
  interface FastifyRequest {
    /** The account of the bearer token, set by the authenticate hook. */
    account?: Account
    /**
     * The claims of the bearer token the authenticate hook found signed by the sandbox, expired or not,
     * so the request journal need not parse and look the token up again.
     */
    tokenClaims?: TokenClaims
    /** The scenarios of this request, once resolved (applied-scenarios.ts). */
    scenarios?: AppliedScenario[]
  }
  interface FastifyContextConfig {
    /** Routes that need `Authorization: Bearer`. */
    auth?: boolean
    /**
     * A gateway route that an API Pix scope covers (the root family's cob, pix and devolução): a token
     * of /oauth/token needs it there as on API Pix (docs/api-pix.md, Scopes). API Pix's routes name
     * theirs in `apiPix`.
     */
    scope?: ApiPixScope
    /** A route of BACEN's API Pix (docs/api-pix.md): its errors are problem details, its scope is checked. */
    apiPix?: ApiPixRoute
  }
}

export interface BuildOptions {
  config?: Partial<Config>
  /** Wall-clock source; tests may pass a fake. */
  realNow?: () => number
  fixtures?: Fixtures
  /** Fastify logger option; silent unless given (main.ts passes pino settings). */
  logger?: FastifyServerOptions['logger']
  /** TLS options (node:https); with them the sandbox serves HTTPS and can ask for client certificates. */
  https?: import('node:https').ServerOptions
  /** Store tuning for tests (a compaction floor, a file system that fails on cue). */
  store?: Omit<StoreOptions, 'file'>
}

/** Builds the whole sandbox without listening: tests call this; main.ts adds the process around it. */
export async function buildApp (opts: BuildOptions = {}): Promise<FastifyInstance> {
  const config = defaultConfig(opts.config)
  // The logger exists only once the app does; failures no request sees go to it from then on.
  let log: FastifyInstance['log'] | undefined
  const sandbox = createSandbox(config, VERSION, {
    realNow: opts.realNow,
    fixtures: opts.fixtures,
    store: opts.store,
    logError: (err, message, context) => log?.error({ err, ...context }, message),
    webhookLines: webhookLines({ warn: (obj, msg) => log?.warn(obj, msg), error: (obj, msg) => log?.error(obj, msg) }),
    notifiers: sb => [
      new GatewayNotifier({ store: sb.store, clock: sb.clock, webhooks: sb.webhooks }),
      new ApiPixNotifier({ store: sb.store, webhooks: sb.webhooks, webhookUrls: sb.apiPixWebhooks, chaveOf: tx => sb.apiPixPix.chaveOf(tx), views: apiPixViews(sb) }),
    ],
  })
  const { clock, store } = sandbox

  const app = Fastify({
    logger: opts.logger ?? false,
    ...(opts.https ? { https: opts.https } : {}),
    bodyLimit: 1024 * 1024,
    // A caller's x-request-id is honoured when it is a sane token (it ends up in logs), else one is made.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID()
    },
    // One log line per request, written by the onResponse hook below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // A bad percent-encoding or an over-long path parameter is answered in the family's error shape too.
    frameworkErrors: frameworkErrorHandler,
    rewriteUrl: (req) => apiPixRoutingUrl(config.apiPixBasePath, req.url ?? '/'),
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<ReadOnlyReplies>()

  // Every body is JSON: text/plain would otherwise reach the schema as a string (a 400 instead of 415).
  app.removeContentTypeParser('text/plain')

  // Every route of the sandbox, so that API Pix's base path is refused when it would take one over.
  const routes: Array<{ method: string, url: string }> = []
  app.addHook('onRoute', route => { for (const method of [route.method].flat()) routes.push({ method, url: route.url }) })

  for (const s of sharedSchemas) app.addSchema(s)
  app.setValidatorCompiler(validatorCompiler(gatewayCnpjForm(config.alphanumericCnpj)))

  log = app.log
  // A plugin of its own, so the plugins that use `app.sandbox` can name it in their dependencies.
  await app.register(fp(async (instance) => { instance.decorate('sandbox', sandbox) }, { name: 'sandbox' }))

  // Callback hooks, not async ones: they run on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-sandbox-version', VERSION)
    done()
  })
  registerErrorHandlers(app, routes)
  app.addHook('onRoute', declareErrorResponses)

  if (store.persistent) {
    /*
     * The commit point of every request: before an answer leaves, every change made so far (this
     * request's and any other it may have seen) is on disk. A failed write has rolled those changes
     * back, so the answer becomes a 503 in the family's shape: never a success for what is not stored.
     * Memory mode has nothing to wait for and no hook at all (the hot path pays nothing).
     */
    app.addHook('onSend', (request, reply, payload, done) => {
      // Health reports the store's state itself (degraded, with the reason) and never waits for it.
      if (!store.hasUndurableChanges() || request.routeOptions.url === '/__sandbox/health') return done(null, payload)
      store.commit().then(() => done(null, payload), (err: unknown) => {
        request.log.error({ err }, 'the data file could not be written; the change was rolled back')
        const failure = storageUnavailable(request, err)
        void reply.code(failure.status).headers(failure.headers).header('retry-after', '1')
        done(null, failure.body)
      })
    })
  }

  const accountOfClaims = (claims: TokenClaims): number | null => {
    const account = store.account(Number(claims.sub))
    return account && sandbox.tokens.issuedTo(claims, account) ? account.id : null
  }
  // After the commit point's onSend: the journal keeps the answer that really went out (a 503 when the write failed).
  await app.register(captureRequests, {
    journal: sandbox.journal,
    now: () => clock.now(),
    // A token's account even once it expired: its 401 belongs to the integration that sent it (the report reads that).
    token: (token) => { const c = sandbox.tokens.signed(token); return c ? { id: c.jti, accountId: accountOfClaims(c) } : null },
    accountOfClaims,
    accountOfClientId: (clientId) => store.accountByClientId(clientId)?.id ?? null,
    accountOfTransaction: (id) => store.transaction(id)?.accountId ?? null,
    secrets: config.adminToken ? [config.adminToken] : [],
    keepBodies: config.journalBodies,
    // Without a logger (LOG_LEVEL=silent) the line is not even built.
    log: opts.logger !== undefined && opts.logger !== false,
  })

  await app.register(swagger, {
    // Shared schemas keep their $id as their component name (SimpleError, not def-0).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}` },
    transformObject: (generated) => toOpenApi30('openapiObject' in generated ? generated.openapiObject : generated.swaggerObject),
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'pix-sandbox',
        version: VERSION,
        description: 'A local, stateful sandbox of the PIX gateway. Standard family under /api, central-bank-compatible family without prefix, BACEN\'s API Pix under /v2 (settable), control plane under /__sandbox.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          sandboxAdmin: { type: 'apiKey', in: 'header', name: 'X-Sandbox-Admin-Token', description: 'Needed only when the sandbox runs with SANDBOX_ADMIN_TOKEN; `Authorization: Bearer <admin token>` works too' },
          oauth2: {
            type: 'oauth2',
            description: 'BACEN\'s API Pix: client credentials with HTTP Basic and the client certificate (POST /oauth/token); a token of POST /api/auth/token carries the account\'s whole grant',
            flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: Object.fromEntries(API_PIX_SCOPES.map(s => [s, `API Pix: ${s.endsWith('.read') ? 'read' : 'change'} ${s.slice(0, s.lastIndexOf('.'))}`])) } },
          },
        },
      },
      tags: [
        { name: 'Standard', description: 'Standard family (/api), extended error shape' },
        { name: 'Central bank', description: 'Central-bank-compatible family, simple error shape' },
        { name: 'Sandbox', description: 'Control plane: state, clock, scenarios, webhooks (sandbox only)' },
        { name: 'API Pix', description: `BACEN's API Pix 2.9.0 under its base path (${config.apiPixBasePath} here), with OAuth; problem details on errors` },
      ],
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  await app.register(authPlugin)
  await app.register(faultsPlugin)
  await app.register(named('standard', standardRoutes))
  await app.register(named('central-bank', centralBankRoutes))
  await app.register(named('sandbox-control-plane', sandboxRoutes), { prefix: '/__sandbox' })
  await app.register(named('dashboard', (await import('./routes/dashboard.js')).default))
  await app.register(named('api-pix-oauth', apiPixToken))
  await app.register(named('api-pix-payloads', apiPixPayloads))
  const collision = baseCollision(config.apiPixBasePath, routes)
  if (collision !== undefined) {
    await app.close()
    throw new ConfigError([`apiPixBasePath (--api-pix-base-path / SANDBOX_API_PIX_BASE_PATH): ${JSON.stringify(config.apiPixBasePath)} would take over the route ${collision}: choose a path no route of the sandbox is at or under, such as /v2`])
  }
  await app.register(named('api-pix', apiPixRoutes), { prefix: config.apiPixBasePath })

  // Where the server really listens (port 0 becomes a real port, `localhost` two addresses): the
  // webhook rules refuse receivers that would reach the sandbox itself.
  app.addHook('onListen', (done) => {
    sandbox.webhooks.listeningOn(app.addresses().flatMap(a => typeof a === 'string' ? [] : [a]))
    done()
  })

  app.addHook('onClose', async () => {
    sandbox.scheduler.close()
    await store.close()
  })

  await sandbox.open()
  for (const notice of sandbox.notices) app.log.warn({ data: config.data }, notice)
  await app.ready()
  sandbox.ready = true
  return app
}
