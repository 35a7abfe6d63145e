import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { randomUUID } from 'node:crypto'
import { VERSION } from './version.js'
import type { Config } from './config.js'
import { defaultConfig } from './config.js'
import { gatewayCnpjForm } from './domain/documents.js'
import type { OAuthScope } from './domain/scopes.js'
import type { Fixtures } from './fixtures.js'
import type { StoreOptions } from './store/store.js'
import { createSandbox, type Sandbox } from './sandbox.js'
import type { Account } from './store/state.js'
import type { TokenClaims } from './auth/tokens.js'
import type { AppliedScenario } from '../scenarios/types.js'
import captureRequests from './journal/capture.js'
import { webhookLines } from './journal/console.js'
import { errorHandling } from './errors/handler.js'
import type { RouteUrl } from './errors/families.js'
import { declareErrorResponses, toOpenApi30 } from './schemas/declared.js'
import { SandboxError } from './schemas/common.js'
import { buildSerializer, validatorCompiler } from './schemas/compilers.js'
import authPlugin from './auth/plugin.js'
import faultsPlugin from './faults.js'
import sandboxRoutes from './routes/sandbox/index.js'
import dashboardRoutes from './routes/dashboard.js'
import { CONTROL_PLANE } from './routes/sandbox/errors.js'
import type { ReadOnlyReplies } from './route-plugin.js'
import { named } from './named-plugins.js'
import { dialects as registry } from './dialects/index.js'
import type { Dialect } from './dialects/types.js'
import { endpointOf, type ScenarioEndpoints } from '../scenarios/operations.js'
import { catalogueOf } from './report/checks.js'

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
     * A route outside API Pix that an OAuth scope covers (the gateway's cob, pix and devolução; Efí's
     * own routes, docs/efi.md): a token of /oauth/token needs it there as on API Pix (docs/api-pix.md,
     * Scopes). API Pix's routes name theirs in `apiPix` (server/dialects/api-pix/routes/route.ts).
     */
    scope?: OAuthScope
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
  /** The dialects the app speaks, in order (server/dialects/index.ts's unless given: a test adds one). */
  dialects?: readonly Dialect[]
  /** A built webhook sender thread to run (SandboxOptions' `senderScript`). */
  senderScript?: URL
}

/** Builds the whole sandbox without listening: tests call this; main.ts adds the process around it. */
export async function buildApp (opts: BuildOptions = {}): Promise<FastifyInstance> {
  const config = defaultConfig(opts.config)
  const dialects = opts.dialects ?? registry
  // The control plane's errors first, then each dialect's families, in order.
  const errors = errorHandling([CONTROL_PLANE, ...dialects.flatMap(d => d.families)], config)
  const scenarioEndpoints: ScenarioEndpoints = {
    tags: new Set(dialects.flatMap(d => d.tags(config).map(t => t.name))),
    endpoints: Object.assign({}, ...dialects.map(d => d.scenarioEndpoints)),
  }
  /** Each operation's dialect, by operationId: a scenario of one dialect alone bends its operations only. */
  const dialectOfOperation = new Map(dialects.flatMap(d => Object.keys(d.scenarioEndpoints).map(id => [id, d.name] as const)))
  // The logger exists only once the app does; failures no request sees go to it from then on.
  let log: FastifyInstance['log'] | undefined
  const sandbox = createSandbox(config, VERSION, {
    realNow: opts.realNow,
    fixtures: opts.fixtures,
    store: opts.store,
    ...(opts.senderScript !== undefined ? { senderScript: opts.senderScript } : {}),
    logError: (err, message, context) => log?.error({ err, ...context }, message),
    webhookLines: webhookLines({ warn: (obj, msg) => log?.warn(obj, msg), error: (obj, msg) => log?.error(obj, msg) }),
    // Each domain event goes to every dialect's notifier, in the registry's order.
    notifiers: sb => dialects.flatMap(d => d.notifier === undefined ? [] : [d.notifier(sb)]),
    deliveries: sb => dialects.flatMap(d => d.deliveries === undefined ? [] : [d.deliveries(sb)]),
    report: {
      dialects: dialects.flatMap(d => d.report === undefined ? [] : [{ name: d.name, title: d.report.title, grades: (method: string, route: string) => d.report!.grades(method, route, config), ...(d.report.fields !== undefined ? { fields: d.report.fields } : {}) }]),
      checks: catalogueOf(dialects.map(d => d.report ?? {})),
    },
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
    frameworkErrors: errors.frameworkErrorHandler,
    // Each dialect may read its URLs its own way (API Pix ignores a trailing slash under its base path).
    rewriteUrl: (req) => dialects.reduce((url, d) => d.routingUrl?.(url, config) ?? url, req.url ?? '/'),
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<ReadOnlyReplies>()

  // Every body is JSON: text/plain would otherwise reach the schema as a string (a 400 instead of 415).
  app.removeContentTypeParser('text/plain')

  // Every route of the sandbox, with its family: a dialect refuses settings that would take one over, a 404 tells a wrong prefix.
  const routes: RouteUrl[] = []
  app.addHook('onRoute', route => {
    const family = errors.familyOfRoute(route).name
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, family })
  })

  // The schemas the routes `$ref` (the error bodies): each dialect's, then the control plane's.
  const sharedSchemas = [...dialects.flatMap(d => d.schemas ?? []), SandboxError]
  for (const s of sharedSchemas) app.addSchema(s)
  app.setValidatorCompiler(validatorCompiler(gatewayCnpjForm(config.alphanumericCnpj), sharedSchemas))

  log = app.log
  // A plugin of its own, so the plugins that use `app.sandbox` can name it in their dependencies.
  await app.register(fp(async (instance) => { instance.decorate('sandbox', sandbox) }, { name: 'sandbox' }))

  // Callback hooks, not async ones: they run on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-sandbox-version', VERSION)
    done()
  })
  errors.register(app, routes)
  app.addHook('onRoute', declareErrorResponses(route => errors.familyOfRoute(route), route => endpointOf(route, scenarioEndpoints)))

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
        const failure = errors.storageUnavailable(request, err)
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
    // The code of an error, whichever family's shape rendered it (the simple shape has no `code`).
    answerFor: errors.answerFor,
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
          ...Object.assign({}, ...dialects.map(d => d.securitySchemes?.(config) ?? {})),
        },
      },
      tags: [
        ...dialects.flatMap(d => d.tags(config)),
        { name: 'Sandbox', description: 'Control plane: state, clock, scenarios, webhooks (sandbox only)' },
      ],
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  await app.register(authPlugin)
  await app.register(faultsPlugin, {
    endpointOf: route => endpointOf(route, scenarioEndpoints),
    dialectOf: route => dialectOfOperation.get((route.schema as { operationId?: string } | undefined)?.operationId ?? '') ?? null,
  })
  // The sandbox's own routes, then each dialect's, in the registry's order: a dialect sees every route
  // registered before it (API Pix refuses a base path that would take one over).
  await app.register(named('sandbox-control-plane', sandboxRoutes), { prefix: '/__sandbox', dialects })
  await app.register(named('dashboard', dashboardRoutes))
  for (const dialect of dialects) {
    try {
      await dialect.register(app, { config, routes })
    } catch (err) {
      await app.close()
      throw err
    }
  }

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
