import t from 'tap'
import { createHmac } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { bearer, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * Registrations that could never be delivered, or that forged the sandbox's headers.
 * `Expect`, `Upgrade`, `Keep-Alive` and values beyond Latin-1 were accepted and then failed every
 * delivery inside the HTTP client; a custom X-Sandbox-Signature was sent beside the real one; URLs
 * were stored as typed; and a receiver at the sandbox's own /__sandbox/reset wiped it.
 */
const reg = (app: FastifyInstance, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', ...body } })
const count = async (app: FastifyInstance): Promise<number> => (await app.inject({ method: 'GET', url: '/__sandbox/webhooks?accountId=1' })).json().total

t.test('hop-by-hop and X-Sandbox-* names are refused on the control plane and the public route', async t => {
  const app = await buildTestApp(t, { publicWebhooks: 'enabled' })
  const acc = await newAccount(app)
  const names = ['Expect', 'Upgrade', 'Keep-Alive', 'TE', 'Trailer', 'Proxy-Authorization', 'proxy-connection', 'HTTP2-Settings',
    'X-Sandbox-Signature', 'x-sandbox-timestamp', 'X-SANDBOX-DELIVERY-ID', 'X-Sandbox-Event-Type', 'X-Sandbox-Anything']
  for (const key of names) {
    const res = await reg(app, { url: 'http://r.test/h', headers: [{ key, value: 'x' }] })
    t.equal(res.statusCode, 400, `${key} on the control plane`)
    t.equal(res.json().code, 'WEBHOOK_HEADER_NOT_ALLOWED')
    // The control plane speaks English (the gateway's own route keeps Portuguese).
    t.match(res.json().message, `Header "${key}" is not allowed`)
    const pub = await app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(acc.token), payload: { url: 'https://r.test/h', eventType: 'cash_in', headers: [{ key, value: 'x' }] } })
    t.equal(pub.statusCode, 400, `${key} on /api/webhooks`)
    t.equal(pub.json().errorCode, 'WEBHOOK_HEADER_NOT_ALLOWED')
  }
  t.equal(await count(app), 0, 'nothing was registered')
  const patch = await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${(await reg(app, { url: 'http://r.test/ok' })).json().id}`, payload: { headers: [{ key: 'Expect', value: '100-continue' }] } })
  t.equal(patch.statusCode, 400, 'nor can a PATCH add one')
})

t.test('header values: visible Latin-1, spaces and tabs only inside', async t => {
  const app = await buildTestApp(t)
  const good = ['plain', 'café com açúcar', 'a b\tc', '', '~!@#$%^&*()', 'ÿ¡', 'a\u00a0b']
  // One registration per account (3 active URLs per event type is the limit).
  for (const value of good) {
    const { accountId } = await newAccount(app)
    t.equal((await reg(app, { accountId, url: 'http://r.test/good', headers: [{ key: 'X-V', value }] })).statusCode, 201, JSON.stringify(value))
  }
  const bad = ['日本', '€uro', 'emoji 😀', 'lone \ud800', ' leading', 'trailing ', '\ttab', 'del\x7f', 'c1\x85', 'nul\x00', 'a\r\nX-Evil: 1']
  for (const value of bad) {
    const res = await reg(app, { url: 'http://r.test/bad', headers: [{ key: 'X-V', value }] })
    t.equal(res.statusCode, 400, JSON.stringify(value))
    t.equal(res.json().code, 'INVALID_WEBHOOK_HEADER')
  }
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/webhooks' })).json().total, good.length, 'only the good ones were registered')
})

t.test('URLs are stored and compared in normalised form', async t => {
  const app = await buildTestApp(t)
  const created = await reg(app, { url: ' http://R.test:80/a?x=1#frag ' })
  t.equal(created.statusCode, 201)
  t.equal(created.json().url, 'http://r.test/a?x=1', 'trimmed, lower-case host, default port and fragment dropped')
  const again = await reg(app, { url: 'HTTP://r.TEST/a?x=1' })
  t.equal(again.statusCode, 200, 'the same receiver written differently updates the registration')
  t.equal(again.json().id, created.json().id)
  t.equal(again.json().version, 2)
  t.equal(await count(app), 1)
})

t.test('the sandbox\'s own address is refused as a receiver, unless SANDBOX_SELF_WEBHOOKS=enabled', async t => {
  // Not listening: the configured host (0.0.0.0, every address) and port (8080) are the sandbox's.
  const app = await buildTestApp(t, { host: '0.0.0.0' })
  const own = ['http://localhost:8080/__sandbox/reset', 'http://127.0.0.1:8080/x', 'http://0x7f.1:8080/', 'http://2130706433:8080/', 'http://127.9.9.9:8080/',
    'http://[::1]:8080/', 'http://[::ffff:127.0.0.1]:8080/', 'http://0.0.0.0:8080/', 'http://[::]:8080/', 'http://LOCALHOST.:8080/', 'http://app.localhost:8080/',
    `http://${hostname()}:8080/`]
  for (const url of own) {
    const res = await reg(app, { url })
    t.equal(res.statusCode, 400, url)
    t.equal(res.json().code, 'WEBHOOK_URL_IS_SANDBOX')
  }
  const others = ['http://127.0.0.1:8081/x', 'http://localhost/x', 'https://localhost/x', 'http://r.test:8080/x']
  for (const [i, url] of others.entries()) {
    t.equal((await reg(app, { url, eventType: ['cash_in', 'cash_out', 'refund_in', 'refund_out'][i] })).statusCode, 201, `${url} is another receiver`)
  }
  const allowed = await buildTestApp(t, { selfWebhooks: 'enabled' })
  t.equal((await reg(allowed, { url: 'http://localhost:8080/__sandbox/reset' })).statusCode, 201, 'the setting allows it')
})

t.test('a listening sandbox: its real port is its own, a receiver beside it is not, and a stored self URL is never called', async t => {
  const app = await buildTestApp(t, { port: 8080, host: '0.0.0.0' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const refused = await reg(app, { url: `http://localhost:${port}/__sandbox/reset` })
  t.equal(refused.statusCode, 400, 'the port it listens on')
  t.equal(refused.json().code, 'WEBHOOK_URL_IS_SANDBOX')
  t.equal((await reg(app, { url: 'http://127.0.0.1:8080/x' })).statusCode, 201, 'the configured port is no longer its own once it listens elsewhere')
  t.equal((await reg(app, { url: receiver.url })).statusCode, 201, 'another process on 127.0.0.1 is fine')

  // A state written before the rule, with a cash_in receiver at the sandbox's own reset.
  const acc = await newAccount(app, { balance: 10 })
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  snapshot.webhooks['999'] = { id: 999, accountId: acc.accountId, eventType: 'cash_in', url: `http://127.0.0.1:${port}/__sandbox/reset`, headers: {}, isActive: true, version: 1, createdAt: T0, updatedAt: T0 }
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const incoming = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: 5 } })
  t.equal(incoming.statusCode, 201)
  const failed = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?accountId=${acc.accountId}&eventType=cash_in&timeoutMs=5000` })).json()
  t.match(failed.attempts[0].error, /^SELF_ADDRESS: /, 'the attempt was not made, and says why')
  t.equal(failed.attempts[0].statusCode, null)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json().balance.available, 15, 'the sandbox was not reset')
})

t.test('a registration stored with forged or unsendable headers still delivers, with the sandbox\'s own headers only', async t => {
  const app = await buildTestApp(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  snapshot.webhooks['7'] = {
    id: 7,
    accountId: 1,
    eventType: 'cash_in',
    url: receiver.url,
    isActive: true,
    version: 1,
    createdAt: T0,
    updatedAt: T0,
    headers: { Expect: '100-continue', 'X-Sandbox-Signature': 'v1=forged', 'X-Sandbox-Timestamp': '1', 'X-Unicode': '日本', 'X-Api-Key': 'kept' },
  }
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 1, eventType: 'cash_in' } })
  const got = await Promise.race([receiver.next(), new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('no delivery arrived in 5 s')), 5000).unref())])
  t.equal(got.headers['x-api-key'], 'kept', 'a valid custom header is sent')
  t.equal(got.headers.expect, undefined, 'Expect is not')
  t.equal(got.headers['x-unicode'], undefined, 'nor a value beyond Latin-1')
  t.equal(typeof got.headers['x-sandbox-signature'], 'string', 'one signature, the sandbox\'s')
  const expected = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${String(got.headers['x-sandbox-timestamp'])}.${got.body}`).digest('hex')
  t.equal(got.headers['x-sandbox-signature'], expected, 'and it verifies')
  const delivered = (await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?accountId=1&status=delivered&timeoutMs=5000' })).json()
  t.equal(delivered.status, 'delivered')
})

t.test('SANDBOX_WEBHOOK_URL at the sandbox itself is not registered', async t => {
  const app = await buildTestApp(t, { webhookUrl: 'http://localhost:8080/__sandbox/reset' })
  t.equal(await count(app), 0)
  const allowed = await buildTestApp(t, { webhookUrl: 'http://localhost:8080/__sandbox/reset', selfWebhooks: 'enabled' })
  t.equal(await count(allowed), 7, 'unless self webhooks are enabled')
})

/**
 * Names of this machine that resolve to a loopback address but are no `localhost` spelling: its host
 * name, and the names /etc/hosts gives 127.x (a container's host name, a CI runner's aliases).
 */
async function loopbackNames (): Promise<string[]> {
  let hosts = ''
  try {
    hosts = readFileSync('/etc/hosts', 'utf8')
  } catch {}
  const listed = hosts.split('\n').map(l => l.replace(/#.*/, '').trim().split(/\s+/)).filter(f => f.length > 1 && f[0].startsWith('127.')).flatMap(f => f.slice(1))
  const names = [...new Set([hostname(), ...listed].map(n => n.toLowerCase()))].filter(n => n !== 'localhost' && !n.endsWith('.localhost') && !n.startsWith('localhost.') && !n.startsWith('ip6-'))
  const resolved = await Promise.all(names.map(async n => {
    try {
      return (await lookup(n, { all: true })).every(a => a.address.startsWith('127.') || a.address === '::1') ? n : null
    } catch {
      return null
    }
  }))
  return resolved.filter((n): n is string => n !== null)
}

t.test('a host name that resolves to the sandbox is refused by every door, and a stored one is never called, whatever the name', async t => {
  const names = await loopbackNames()
  if (names.length === 0) {
    t.plan(0, 'no name of this machine resolves to a loopback address (/etc/hosts); the resolver is injected in test/unit/services/webhooks.test.ts')
    return
  }
  const app = await buildTestApp(t, { publicWebhooks: 'enabled', webhookMaxAttempts: 1 })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  const acc = await newAccount(app, { balance: 10, document: '11222333000181' })
  const apiPix = bearer(await oauthToken(app, acc))
  for (const name of names) {
    const own = `http://${name}:${port}/__sandbox/reset`
    const sandbox = await reg(app, { accountId: acc.accountId, eventType: 'rec', url: own })
    t.equal(sandbox.statusCode, 400, `${name}: POST /__sandbox/webhooks`)
    t.equal(sandbox.json().code, 'WEBHOOK_URL_IS_SANDBOX')
    const gateway = await app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(acc.token), payload: { eventType: 'cash_in', url: `https://${name}:${port}/__sandbox/reset` } })
    t.equal(gateway.statusCode, 400, `${name}: POST /api/webhooks`)
    for (const path of ['/v2/webhookrec', '/v2/webhookcobr', '/v2/webhook/11222333000181']) {
      const res = await app.inject({ method: 'PUT', url: path, headers: apiPix, payload: { webhookUrl: `http://${name}:${port}/__sandbox` } })
      t.equal(res.statusCode, 400, `${name}: PUT ${path}`)
      t.match(res.json().detail, /próprio sandbox/)
    }
  }
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/webhooks?accountId=${acc.accountId}` })).json().webhooks, [], 'nothing was registered')
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/api-pix-webhooks?accountId=${acc.accountId}` })).json().webhooks, [])

  // A state written before the rule, with a receiver at the sandbox's reset under a name that resolves to it.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  snapshot.webhooks['999'] = { id: 999, accountId: acc.accountId, eventType: 'cash_in', url: `http://${names[0]}:${port}/__sandbox/reset`, headers: {}, isActive: true, version: 1, createdAt: T0, updatedAt: T0 }
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const incoming = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: 5 } })
  t.equal(incoming.statusCode, 201)
  // One attempt per delivery: the delivery is failed once its attempt is recorded.
  const delivery = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?accountId=${acc.accountId}&eventType=cash_in&status=failed&timeoutMs=10000` })).json()
  t.match(delivery.attempts[0].error, new RegExp(`^SELF_ADDRESS: .*${names[0]}, que resolve para 127`), 'the sender resolved the name and did not connect')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json().balance.available, 15, 'the sandbox was not reset')
})
