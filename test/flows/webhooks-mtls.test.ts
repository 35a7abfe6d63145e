import t, { type Test } from 'tap'
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../server/config.js'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'
import { oauthToken } from '../helpers/api-pix.js'

/**
 * API Pix's callbacks over mutual TLS, as a PSP posts them (docs/webhooks.md, mutual TLS): real TLS on
 * 127.0.0.1, certificates made here with openssl as a user makes them. The sandbox presents its client
 * certificate (its CA served at GET /__sandbox/webhooks/ca.pem, or the one given by
 * --webhook-client-cert, else the one shipped in fixtures/certs/), verifies the receiver's server
 * certificate against --webhook-receiver-ca, and checks an https receiver's mutual TLS when a webhook
 * is configured, as Efí does (by default: --webhook-mtls-check disabled or the account's
 * webhookMtlsCheck false turn it off; x-skip-mtls-checking: true skips its first request). A plain
 * http receiver is accepted unchecked and marked so.
 */

const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-webhooks-mtls-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string) => join(dir, name)
const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' })

/** A CA, and a certificate it issues with the given extensions. */
function ca (name: string): void {
  openssl('req', '-x509', ...ec, '-days', '2', '-subj', `/CN=${name}`, '-keyout', file(`${name}.key`), '-out', file(`${name}.crt`),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign')
}
function issue (issuer: string, name: string, subject: string, extensions: string): void {
  writeFileSync(file(`${name}.ext`), extensions)
  openssl('req', '-new', ...ec, '-subj', `/CN=${subject}`, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`))
  openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${issuer}.crt`), '-CAkey', file(`${issuer}.key`), '-set_serial', String(Date.now()),
    '-days', '2', '-extfile', file(`${name}.ext`), '-out', file(`${name}.crt`))
}

// The receiver's server certificate for 127.0.0.1, from a CA of the receiver's own.
ca('receiver-ca')
issue('receiver-ca', 'receiver', '127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
// A client certificate the user gives the sandbox (--webhook-client-cert), from a CA of the user's.
ca('psp-ca')
issue('psp-ca', 'psp-client', 'my PSP webhooks', 'extendedKeyUsage=clientAuth\n')
writeFileSync(file('psp-client-chain.crt'), readFileSync(file('psp-client.crt'), 'utf8') + readFileSync(file('psp-ca.crt'), 'utf8'))
// A CA the sandbox's certificate does not come from.
ca('other-ca')

const read = (name: string) => readFileSync(file(name), 'utf8')
const TRUSTED: Partial<Config> = { webhookReceiverCa: file('receiver-ca.crt') }
/** The check is on by default: no setting asks for it. */
const CHECKED: Partial<Config> = TRUSTED

interface Arrival {
  path: string
  body: string
  /** Whether the TLS layer accepted a client certificate (requestCert without rejectUnauthorized). */
  authorized: boolean
  /** The subject CN of the certificate the client presented, if any. */
  peer: string | null
}

/**
 * An https receiver on 127.0.0.1 with the receiver's certificate. `requireCa`: it asks for a client
 * certificate of that CA and answers 401 without one, as Efí's Node example does, or refuses the
 * handshake itself (`inHandshake`, as Apache's SSLVerifyClient require); without it, it asks for none
 * and answers anyone.
 */
async function httpsReceiver (t: Test, opts: { requireCa?: string, inHandshake?: boolean } = {}) {
  const arrivals: Arrival[] = []
  const waiting: Array<() => void> = []
  const server: Server = createServer({
    cert: read('receiver.crt'),
    key: read('receiver.key'),
    ...(opts.requireCa !== undefined ? { requestCert: true, rejectUnauthorized: opts.inHandshake === true, ca: opts.requireCa } : {}),
  }, (req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString('utf8') })
    req.on('end', () => {
      const socket = req.socket as TLSSocket
      const peer = socket.getPeerCertificate()
      arrivals.push({ path: req.url ?? '', body, authorized: socket.authorized, peer: typeof peer?.subject?.CN === 'string' ? peer.subject.CN : null })
      res.statusCode = opts.requireCa !== undefined && !socket.authorized ? 401 : 200
      res.end()
      waiting.shift()?.()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  // The next request, within 10 s: a callback that never arrives fails its test instead of holding the file.
  const arrived = () => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no request arrived at the receiver within 10 s')), 10_000)
    waiting.push(() => { clearTimeout(timer); resolve() })
  })
  return { url, arrivals, arrived }
}

const DOCUMENT = '11222333000181'
const KEY = 'loja@example.com'

/** An account holding KEY, and how it calls API Pix. */
async function keyHolder (app: FastifyInstance) {
  const acc = await newAccount(app, { document: DOCUMENT, balance: 0 })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })
  const token = await oauthToken(app, acc)
  const configure = (webhookUrl: string, headers: Record<string, string> = {}, path = `/v2/webhook/${KEY}`) =>
    app.inject({ method: 'PUT', url: path, headers: { ...bearer(token), ...headers }, payload: { webhookUrl } })
  const pay = async (n: number) => {
    const cob = (await app.inject({ method: 'PUT', url: `/v2/cob/${aTxid(n)}`, headers: bearer(token), payload: { calendario: {}, valor: { original: '25.00' }, chave: KEY } })).json()
    const paid = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cob.pixCopiaECola } })
    if (paid.statusCode !== 201) throw new Error(paid.body)
  }
  const webhook = () => app.inject({ method: 'GET', url: `/v2/webhook/${KEY}`, headers: bearer(token) })
  /** How the control plane says the key's webhook was checked. */
  const checkedAs = async () => (await app.inject({ method: 'GET', url: `/__sandbox/api-pix-webhooks?accountId=${acc.accountId}` })).json().webhooks.find((w: { chave?: string }) => w.chave === KEY)?.mtlsCheck
  /** The account's switch of the check (PATCH /__sandbox/accounts/{id}). */
  const mtlsCheck = async (webhookMtlsCheck: boolean) => {
    const res = await app.inject({ method: 'PATCH', url: `/__sandbox/accounts/${acc.accountId}`, payload: { webhookMtlsCheck } })
    if (res.statusCode !== 200) throw new Error(res.body)
  }
  const deliveries = async () => (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}&eventType=pix` })).json().deliveries as any[]
  return { acc, configure, pay, webhook, deliveries, checkedAs, mtlsCheck }
}

const caOf = async (t: Test, app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/ca.pem' })
  t.equal(res.statusCode, 200, 'GET /__sandbox/webhooks/ca.pem')
  t.match(res.headers['content-type'], /^application\/x-pem-file/)
  return res.body
}

t.test('a callback to an https receiver that requires a client certificate of the CA at /__sandbox/webhooks/ca.pem arrives over mutual TLS', async t => {
  const app = await buildTestApp(t, TRUSTED)
  const sandboxCa = await caOf(t, app)
  t.match(sandboxCa, /^-----BEGIN CERTIFICATE-----\n/)
  t.equal(await caOf(t, app), sandboxCa, 'one CA for the life of the sandbox')
  const r = await httpsReceiver(t, { requireCa: sandboxCa })
  const { configure, pay, deliveries } = await keyHolder(app)
  t.equal((await configure(r.url)).statusCode, 200)
  const arrived = r.arrived()
  await pay(1)
  await arrived
  t.match(r.arrivals, [{ path: '/hook', authorized: false, peer: null }, { path: '/hook', authorized: true }, { path: '/hook/pix', authorized: true, peer: 'pix-sandbox webhooks' }],
    'the check at registration (refused without the certificate, accepted with it), then the callback; the receiver verified the sandbox\'s certificate against its CA')
  await app.sandbox.webhooks.idle()
  t.match(await deliveries(), [{ status: 'delivered', attempts: [{ statusCode: 200, clientCertificate: true }] }], 'the log says the attempt went over mutual TLS')
})

t.test('without --webhook-client-cert, the identity is the one shipped in fixtures/certs/: a receiver trusts its CA ahead of time, across starts', async t => {
  const shipped = readFileSync(new URL('../../fixtures/certs/webhook-ca.crt.pem', import.meta.url), 'utf8')
  // The receiver is set up with the repository's file before any sandbox exists.
  const r = await httpsReceiver(t, { requireCa: shipped, inHandshake: true })
  for (const n of [1, 2]) {
    const app = await buildTestApp(t, TRUSTED)
    t.equal(await caOf(t, app), shipped, `start ${n}: GET /__sandbox/webhooks/ca.pem is fixtures/certs/webhook-ca.crt.pem`)
    const { configure, pay } = await keyHolder(app)
    t.equal((await configure(r.url)).statusCode, 200)
    const arrived = r.arrived()
    await pay(n)
    await arrived
    t.match(r.arrivals.at(-1), { path: '/hook/pix', authorized: true, peer: 'pix-sandbox webhooks' }, `start ${n}: the callback was accepted over mutual TLS`)
    await app.close()
  }
})

t.test('the certificate of --webhook-client-cert/--webhook-client-key is the one presented, and its CA the one served', async t => {
  const app = await buildTestApp(t, { ...TRUSTED, webhookClientCert: file('psp-client-chain.crt'), webhookClientKey: file('psp-client.key') })
  t.equal((await caOf(t, app)).trim(), read('psp-ca.crt').trim())
  const r = await httpsReceiver(t, { requireCa: read('psp-ca.crt') })
  const { configure, pay } = await keyHolder(app)
  t.equal((await configure(r.url)).statusCode, 200)
  const arrived = r.arrived()
  await pay(1)
  await arrived
  t.match(r.arrivals, [{ path: '/hook', authorized: false }, { path: '/hook', authorized: true, peer: 'my PSP webhooks' }, { path: '/hook/pix', authorized: true, peer: 'my PSP webhooks' }])
})

t.test('a receiver whose server certificate the sandbox does not trust: the delivery fails, and the log says why and what trusts it', async t => {
  const app = await buildTestApp(t) // no --webhook-receiver-ca: the receiver's CA is nobody's Node trusts
  const r = await httpsReceiver(t)
  const { configure, pay, deliveries, mtlsCheck } = await keyHolder(app)
  await mtlsCheck(false)
  t.equal((await configure(r.url)).statusCode, 200, 'without the check (the account\'s switch off), the URL is kept as it is')
  await pay(1)
  await app.sandbox.webhooks.idle()
  const [delivery] = await deliveries()
  t.equal(delivery.attempts.length, 1)
  t.match(delivery.attempts[0], { statusCode: null, error: /^UNABLE_TO_VERIFY_LEAF_SIGNATURE: .*o certificado TLS do receptor não foi aceito.*--webhook-receiver-ca/ })
  t.same(r.arrivals, [], 'nothing reached the receiver')
})

t.test('with the check: a receiver that asks for no client certificate is refused with Efí\'s message, and nothing is kept', async t => {
  const app = await buildTestApp(t, CHECKED)
  const r = await httpsReceiver(t)
  const { configure, webhook } = await keyHolder(app)
  const res = await configure(r.url)
  t.equal(res.statusCode, 400)
  t.match(res.json(), {
    type: 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida',
    detail: 'A autenticação de TLS mútuo não está configurada na URL informada',
    violacoes: [{ razao: 'A autenticação de TLS mútuo não está configurada na URL informada', propriedade: 'webhook.webhookUrl' }],
    nome: 'webhook_invalido',
    mensagem: 'A autenticação de TLS mútuo não está configurada na URL informada',
  }, 'BACEN\'s problem, with Efí\'s nome and mensagem')
  t.equal((await webhook()).statusCode, 404, 'no webhook was configured')
  t.equal(r.arrivals.length, 1, 'one request: without a certificate, answered 200')
  t.match(r.arrivals[0], { path: '/hook', peer: null })
  t.match(JSON.parse(r.arrivals[0].body), { evento: 'teste_webhook', data_criacao: String })
})

t.test('with the check: x-skip-mtls-checking: true makes only the request with the certificate, which must be answered', async t => {
  const app = await buildTestApp(t, CHECKED)
  const r = await httpsReceiver(t)
  const { configure, webhook, checkedAs } = await keyHolder(app)
  const res = await configure(r.url, { 'x-skip-mtls-checking': 'TRUE' })
  t.equal(res.statusCode, 200, res.body)
  t.match((await webhook()).json(), { webhookUrl: r.url })
  t.equal(await checkedAs(), 'certificate-only', 'the control plane says only the request with the certificate was made')
  t.equal(r.arrivals.length, 1, 'the request without a certificate was not made')
  t.equal((await configure(r.url, { 'x-skip-mtls-checking': 'false' })).statusCode, 400, 'false is the whole check')
})

t.test('the account\'s switch: with webhookMtlsCheck false its receivers are kept unchecked; PATCH turns the check back on', async t => {
  const app = await buildTestApp(t, CHECKED)
  const r = await httpsReceiver(t)
  const { acc, configure, webhook } = await keyHolder(app)
  const patch = (webhookMtlsCheck: boolean) => app.inject({ method: 'PATCH', url: `/__sandbox/accounts/${acc.accountId}`, payload: { webhookMtlsCheck } })
  t.equal((await patch(false)).statusCode, 200)
  t.equal((await configure(r.url)).statusCode, 200, 'a receiver that asks for no certificate is accepted')
  t.same(r.arrivals, [], 'no request was made to check it')
  t.equal((await patch(true)).statusCode, 200)
  const res = await configure(`${r.url}/again`)
  t.equal(res.statusCode, 400)
  t.equal(res.json().detail, 'A autenticação de TLS mútuo não está configurada na URL informada')
  t.match((await webhook()).json(), { webhookUrl: r.url }, 'the webhook kept its URL')
})

t.test('with the check: a receiver that requires the sandbox\'s certificate passes, for /webhook/{chave}, /webhookrec and /webhookcobr', async t => {
  const app = await buildTestApp(t, CHECKED)
  const r = await httpsReceiver(t, { requireCa: await caOf(t, app) })
  const { configure } = await keyHolder(app)
  for (const path of [`/v2/webhook/${KEY}`, '/v2/webhookrec', '/v2/webhookcobr']) {
    const before = r.arrivals.length
    const res = await configure(r.url, {}, path)
    t.equal(res.statusCode, 200, `${path}: ${res.body}`)
    t.match(r.arrivals.slice(before), [{ path: '/hook', authorized: false, peer: null }, { path: '/hook', authorized: true, peer: 'pix-sandbox webhooks' }],
      `${path}: refused without the certificate (401), answered with it`)
  }
})

t.test('with the check: a receiver that refuses a handshake without a certificate passes; one that refuses the sandbox\'s does not', async t => {
  const app = await buildTestApp(t, CHECKED)
  const { configure, webhook } = await keyHolder(app)
  const r = await httpsReceiver(t, { requireCa: await caOf(t, app), inHandshake: true })
  t.equal((await configure(r.url)).statusCode, 200, 'the refused handshake is the refusal Efí asks for')
  t.match(r.arrivals, [{ path: '/hook', authorized: true, peer: 'pix-sandbox webhooks' }], 'only the request with the certificate got through')
  const other = await httpsReceiver(t, { requireCa: read('other-ca.crt'), inHandshake: true })
  const res = await configure(other.url)
  t.equal(res.statusCode, 400)
  t.match(res.json().detail, /^A requisição na URL informada falhou com o erro: [A-Z_0-9]+$/)
  t.match((await webhook()).json(), { webhookUrl: r.url }, 'the webhook kept its URL')
})

t.test('with the check: a receiver that does not accept the sandbox\'s certificate is refused with the reason', async t => {
  const app = await buildTestApp(t, CHECKED)
  const r = await httpsReceiver(t, { requireCa: read('other-ca.crt') })
  const { configure, webhook } = await keyHolder(app)
  const res = await configure(r.url)
  t.equal(res.statusCode, 400)
  t.equal(res.json().detail, 'A URL informada respondeu com o código HTTP 401')
  t.equal((await webhook()).statusCode, 404)
})

t.test('with the check: a receiver whose server certificate is not trusted, or that nothing answers, is refused with Efí\'s words', async t => {
  const app = await buildTestApp(t) // the check on by default, no --webhook-receiver-ca
  const r = await httpsReceiver(t)
  const { configure } = await keyHolder(app)
  t.equal((await configure(r.url)).json().detail, 'A requisição na URL informada falhou com o erro: UNABLE_TO_VERIFY_LEAF_SIGNATURE')
  const closed = createHttpServer()
  closed.listen(0, '127.0.0.1')
  await once(closed, 'listening')
  const port = (closed.address() as AddressInfo).port
  closed.close()
  await once(closed, 'close')
  t.equal((await configure(`https://127.0.0.1:${port}/hook`)).json().detail, 'A URL informada está inacessível')
})

t.test('plain http is accepted unchecked wherever it points, marked plain-http, and its callbacks marked plainHttp', async t => {
  const app = await buildTestApp(t)
  const seen: string[] = []
  const plain = createHttpServer((req, res) => { seen.push(req.url ?? ''); res.end() })
  plain.listen(0, '127.0.0.1')
  await once(plain, 'listening')
  t.teardown(() => plain.close())
  const { configure, checkedAs, pay, deliveries } = await keyHolder(app)
  const port = (plain.address() as AddressInfo).port
  for (const host of ['192.0.2.10', 'host.docker.internal', 'localhost', '[::1]', '127.0.0.1']) {
    t.equal((await configure(`http://${host}:${port}/hook`)).statusCode, 200, host)
    t.equal(await checkedAs(), 'plain-http', `${host}: marked plain-http`)
  }
  t.same(seen, [], 'no request was made to check it')
  await pay(1)
  await app.sandbox.webhooks.idle()
  const [delivery] = await deliveries()
  t.match(delivery, { status: 'delivered', attempts: [{ statusCode: 200, plainHttp: true }] }, 'the attempt says it went without TLS')
  t.notOk('clientCertificate' in delivery.attempts[0])
  t.same(seen, ['/hook/pix'])
})

t.test('by default an https receiver is checked and marked checked; --webhook-mtls-check disabled keeps any one unchecked, marked unchecked', async t => {
  const app = await buildTestApp(t, TRUSTED)
  const open = await httpsReceiver(t)
  const { configure, checkedAs, pay, deliveries } = await keyHolder(app)
  t.equal((await configure(open.url)).json().detail, 'A autenticação de TLS mútuo não está configurada na URL informada', 'no setting: the check is on')
  const strict = await httpsReceiver(t, { requireCa: await caOf(t, app) })
  t.equal((await configure(strict.url)).statusCode, 200)
  t.equal(await checkedAs(), 'checked')
  const arrived = strict.arrived()
  await pay(1)
  await arrived
  await app.sandbox.webhooks.idle()
  const [delivery] = await deliveries()
  t.match(delivery.attempts, [{ statusCode: 200, clientCertificate: true }])
  t.notOk('plainHttp' in delivery.attempts[0], 'over mutual TLS: not marked plain http')

  const off = await buildTestApp(t, { ...TRUSTED, webhookMtlsCheck: 'disabled' })
  const other = await keyHolder(off)
  t.equal((await other.configure(open.url)).statusCode, 200, 'disabled: accepted as it is')
  t.equal(await other.checkedAs(), 'unchecked')
  t.equal(open.arrivals.length, 1, 'only the first sandbox\'s check reached the receiver')
})

t.test('?ignorar=: /pix is appended to the URL as configured, so the path stays; the check posts to the URL as configured', async t => {
  const app = await buildTestApp(t, CHECKED)
  const r = await httpsReceiver(t, { requireCa: await caOf(t, app) })
  const { configure, pay, deliveries } = await keyHolder(app)
  t.equal((await configure(`${r.url}?ignorar=`)).statusCode, 200)
  t.match(r.arrivals, [{ path: '/hook?ignorar=' }, { path: '/hook?ignorar=' }])
  const arrived = r.arrived()
  await pay(1)
  await arrived
  t.equal(r.arrivals[2].path, '/hook?ignorar=/pix')
  await app.sandbox.webhooks.idle()
  t.match(await deliveries(), [{ url: `${r.url}?ignorar=/pix`, status: 'delivered' }])
})
