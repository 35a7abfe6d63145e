import t from 'tap'
import { Validator } from '@seriousme/openapi-schema-validator'
import { readFileSync } from 'node:fs'
import { buildTestApp } from '../helpers/app.js'
import { openApiDocument, openApiFile, serialize } from '../../openapi/write.js'

/** The OpenAPI document is generated from the route schemas; the committed copy must not drift. */

const methods = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const
type Operation = { tags?: string[], operationId?: string, requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }, responses?: Record<string, unknown> }
type Doc = { openapi: string, info: { version: string }, paths: Record<string, Partial<Record<typeof methods[number], Operation>>>, components: { schemas: Record<string, unknown> } }

t.test('GET /openapi.json equals openapi/openapi.json on disk', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(res.statusCode, 200)
  const onDisk = JSON.parse(readFileSync(openApiFile, 'utf8'))
  t.same(res.json(), onDisk, 'openapi/openapi.json is out of date: run `npm run openapi` and commit the result')
})

t.test('the writer is deterministic: two generations give the same bytes', async t => {
  const [a, b] = [serialize(await openApiDocument()), serialize(await openApiDocument())]
  t.equal(a, b)
  t.notMatch(a, /20\d\d-\d\d-\d\dT\d\d:\d\d/, 'no timestamps in the document')
})

t.test('the document describes the foundation routes with the shared error components', async t => {
  const app = await buildTestApp(t)
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Doc
  t.equal(doc.openapi, '3.0.3')
  t.equal(doc.info.version, app.sandbox.version)
  for (const [path, method] of [
    ['/api/auth/token', 'post'], ['/balance', 'get'], ['/api/balance', 'get'], ['/accounts/balances', 'get'],
    ['/__sandbox/health', 'get'], ['/__sandbox/reset', 'post'], ['/__sandbox/accounts', 'post'], ['/__sandbox/accounts/{id}', 'get'],
    ['/__sandbox/accounts/{id}/balance', 'post'], ['/__sandbox/clock', 'get'], ['/__sandbox/clock/advance', 'post'],
    ['/__sandbox/clock/freeze', 'post'], ['/__sandbox/clock/resume', 'post'], ['/__sandbox/clock/set', 'post'],
    ['/__sandbox/snapshot', 'get'], ['/__sandbox/snapshot', 'put'], ['/__sandbox/requests', 'get'],
  ] as const) {
    t.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`)
  }
  for (const name of ['SimpleError', 'ExtendedError', 'SandboxError']) t.ok(doc.components.schemas[name], `component ${name} keeps its name`)
  t.same(Object.keys(doc.paths['/api/auth/token'].post!.responses!).sort(), ['201', '400', '401', '403', '413', '415', '429', '503'])
  t.notOk(doc.paths['/openapi.json'], 'the document itself is hidden')
})

t.test('every /__sandbox route is tagged Sandbox, and only those', async t => {
  const app = await buildTestApp(t)
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Doc
  let sandboxOps = 0
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of methods) {
      const op = item[m]
      if (!op) continue
      if (path.startsWith('/__sandbox')) {
        sandboxOps++
        t.ok(op.tags?.includes('Sandbox'), `${m.toUpperCase()} ${path} is tagged Sandbox`)
      } else {
        t.notOk(op.tags?.includes('Sandbox'), `${m.toUpperCase()} ${path} is not a Sandbox route`)
        t.ok((op.tags ?? []).length > 0, `${m.toUpperCase()} ${path} has a tag`)
      }
    }
  }
  t.ok(sandboxOps >= 15)
})

t.test('/docs serves Swagger UI', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'GET', url: '/docs' })
  t.ok([200, 302].includes(res.statusCode), `/docs answers (${res.statusCode})`)
  const page = await app.inject({ method: 'GET', url: res.statusCode === 302 ? String(res.headers.location).replace(/^\.\//, '/docs/') : '/docs' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  t.match(page.body, /swagger/i)
  const json = await app.inject({ method: 'GET', url: '/docs/json' })
  t.equal(json.statusCode, 200)
  t.equal(json.json().openapi, '3.0.3')
})

t.test('the committed document is valid OpenAPI 3.0 by an independent validator', async t => {
  const doc = JSON.parse(readFileSync(openApiFile, 'utf8'))
  const result = await new Validator().validate(doc)
  t.ok(result.valid, `openapi/openapi.json is not valid OpenAPI 3.0: ${JSON.stringify(result.errors, null, 1)?.slice(0, 2000)}`)
  // Ajv's draft 7 bound (`exclusiveMinimum: 0`) is written the 3.0 way; the validator itself keeps the number.
  const amount = (doc as Doc).paths['/dict/pix'].post!.requestBody!.content['application/json'].schema as { properties: { payment: { properties: { amount: Record<string, unknown> } } } }
  t.match(amount.properties.payment.properties.amount, { minimum: 0, exclusiveMinimum: true })
})

t.test('every operation has a unique, stable operationId', async t => {
  const doc = JSON.parse(readFileSync(openApiFile, 'utf8')) as Doc
  const ids: string[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of methods) {
      const op = item[m]
      if (!op) continue
      t.match(op.operationId, /^[a-z][A-Za-z]+$/, `${m.toUpperCase()} ${path} has a camelCase operationId`)
      if (path.startsWith('/__sandbox')) t.match(op.operationId, /^sandbox[A-Z]/, `${m.toUpperCase()} ${path}: control-plane ids start with sandbox`)
      ids.push(op.operationId!)
    }
  }
  t.equal(new Set(ids).size, ids.length, 'no operationId is used twice')
  t.equal(doc.paths['/api/pix/cash-out'].post!.operationId, 'cashOut')
  t.equal(doc.paths['/__sandbox/webhooks/deliveries/wait'].get!.operationId, 'sandboxWaitForDelivery')
})

t.test('every operation that takes a body declares 400, 413 and 415 in its family\'s shape; POST /api/webhooks documents its body', async t => {
  const doc = JSON.parse(readFileSync(openApiFile, 'utf8')) as Doc
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of ['post', 'put', 'patch', 'delete'] as const) {
      const op = item[m]
      if (!op) continue
      const shape = path.startsWith('/__sandbox')
        ? 'SandboxError'
        : path.startsWith('/v1/payments') ? 'MercadoPagoError' : path === '/oauth/token' ? 'OAuthError' : /^\/v[23]\/gn\//.test(path) ? 'EfiError' : path.startsWith('/v2/') ? 'ApiPixProblem' : path === '/api/auth/token' || !(path.startsWith('/api/') || path === '/balance') ? 'SimpleError' : 'ExtendedError'
      for (const status of ['400', '413', '415']) {
        t.match(JSON.stringify(op.responses?.[status]), `#/components/schemas/${shape}`, `${m.toUpperCase()} ${path} declares ${status} as ${shape}`)
      }
    }
  }
  const register = doc.paths['/api/webhooks'].post!
  t.match(register.requestBody?.content['application/json'].schema, { required: ['url', 'eventType'], properties: { url: {}, eventType: {}, headers: {} } })
})
