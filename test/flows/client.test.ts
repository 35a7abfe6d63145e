import t, { type Test } from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { createClient, operations, PixApiError, type OperationId, type PixClient } from '../../client/index.js'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../server/index.js'
import { openApiFile } from '../../openapi/write.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * pix-sandbox/client (client/): every operation of the API by its operationId, typed from the
 * server's schemas, the token fetched with the certificate and renewed, and refusals as PixApiError
 * carrying the family's body. Driven against a real sandbox on 127.0.0.1.
 */

async function started (t: Test, options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, clock: 'frozen', clockStart: '2026-03-10T15:00:00.000Z', ...options })
  t.teardown(() => sandbox.close())
  return sandbox
}

/** A fetch that records what the client sent, passing everything through. */
function recorder (): { fetch: typeof fetch, sent: Array<{ method: string, url: string, headers: Record<string, string> }> } {
  const sent: Array<{ method: string, url: string, headers: Record<string, string> }> = []
  return {
    sent,
    fetch: async (input, init) => {
      sent.push({ method: init?.method ?? 'GET', url: String(input), headers: { ...(init?.headers as Record<string, string>) } })
      return fetch(input, init)
    },
  }
}

const cashOut = (externalId: string, value = 10) => ({ value, externalId, details: { key: 'pix@example.com', keyType: 'EMAIL' as const, name: 'Fulano', document: '52998224725' } })

t.test('the client knows every operation of the OpenAPI document, by the same method, path and operationId', async t => {
  const doc = JSON.parse(readFileSync(openApiFile, 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> }
  const documented = new Map<string, string>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) documented.set(op.operationId, `${method.toUpperCase()} ${path}`)
  }
  const known = new Map(Object.entries(operations).map(([id, [method, path]]) => [id, `${method} ${path}`]))
  t.same([...known].sort(), [...documented].sort())
})

t.test('the client imports nothing at run time but its own files (no Fastify, lowdb or undici in a bundle)', async t => {
  const dir = new URL('../../client/', import.meta.url)
  for (const file of readdirSync(dir).filter(f => f.endsWith('.ts'))) {
    const source = readFileSync(new URL(file, dir), 'utf8')
    for (const [statement] of source.matchAll(/^(import|export)\b[^;]*?from\s+'[^']+'/gms)) {
      if (/^import type\b/.test(statement) || /^export type\b/.test(statement)) continue
      t.match(statement, /from '\.\/[\w-]+\.js'$/, `${file}: ${statement.split('\n')[0]} is a local import`)
    }
  }
})

t.test('a token is fetched with the certificate on the first gateway call, reused, and renewed when the sandbox clock expires it', async t => {
  const sandbox = await started(t)
  const acct = await sandbox.client.sandbox.createAccount({ balance: 100 })
  const { fetch, sent } = recorder()
  const client = createClient({ baseUrl: sandbox.url, clientId: acct.clientId, clientSecret: acct.clientSecret, certificate: acct.certificate, fetch })
  t.match(await client.balance(), { netBalance: 100 })
  t.match(await client.balance(), { netBalance: 100 })
  const tokens = () => sent.filter(s => s.url.endsWith('/api/auth/token'))
  t.equal(tokens().length, 1, 'one token for both calls')
  t.equal(tokens()[0].headers['x-ssl-client-cert'], encodeURIComponent(acct.certificate))
  t.match(sent[1].headers.authorization, /^Bearer ey/)

  await sandbox.advanceClock(1801 * 1000) // past the token's 1800 s of sandbox time
  t.match(await client.balance(), { netBalance: 100 }, 'the 401 was answered by a new token and the call repeated')
  t.equal(tokens().length, 2)
  t.same(sent.slice(-3).map(s => `${s.method} ${new URL(s.url).pathname}`), ['GET /balance', 'POST /api/auth/token', 'GET /balance'])
})

t.test('the token is renewed before it expires by the wall clock (renewBeforeMs)', async t => {
  const sandbox = await started(t)
  const acct = await sandbox.client.sandbox.createAccount()
  const { fetch, sent } = recorder()
  const client = createClient({ baseUrl: sandbox.url, clientId: acct.clientId, clientSecret: acct.clientSecret, certificate: acct.certificate, fetch, renewBeforeMs: 1800 * 1000 })
  await Promise.all([client.balance(), client.balance()])
  await client.balance()
  t.equal(sent.filter(s => s.url.endsWith('/api/auth/token')).length, 2, 'concurrent calls share one renewal; the next call renews again')
})

t.test('without credentials: a given token is used as is; none at all is a clear TypeError', async t => {
  const sandbox = await started(t)
  const acct = await sandbox.createAccount({ balance: 7 })
  t.match(await createClient({ baseUrl: `${sandbox.url}/`, token: acct.token }).balance(), { netBalance: 7 })
  const bare = createClient({ baseUrl: sandbox.url })
  await t.rejects(bare.balance(), { name: 'TypeError', message: /needs clientId, clientSecret and certificate/ })
  const stale = createClient({ baseUrl: sandbox.url, token: 'not-a-token' })
  await t.rejects(stale.balance(), { name: 'PixApiError', statusCode: 401 }, 'no credentials to renew with: the 401 stands')
})

t.test('refusals are PixApiError with the family\'s body: extended, simple and control plane', async t => {
  const sandbox = await started(t)
  const { client } = await sandbox.createAccount({ balance: 100 })

  const invalid = await client.cashOut({ ...cashOut('bad'), value: -1, externalId: '' }).catch((e: unknown) => e) as PixApiError
  t.ok(invalid instanceof PixApiError)
  t.match(invalid, { statusCode: 400, code: 'HTTP_ERROR', operationId: 'cashOut', method: 'POST' })
  t.ok(invalid.messages.length >= 2, 'one message per invalid field')
  t.match(invalid.body, { path: '/pix/cash-out', code: 'HTTP_ERROR', errorId: String })

  const scenario = await client.cashOut(cashOut('s1'), { scenario: 'INSUFFICIENT_FUNDS' }).catch((e: unknown) => e) as PixApiError
  t.match(scenario, { statusCode: 400, code: 'PIX_INSUFFICIENT_BALANCE' })
  const several = await client.cashOut(cashOut('s2'), { scenario: ['WEBHOOK_DROP', 'INSUFFICIENT_FUNDS'] }).catch((e: unknown) => e) as PixApiError
  t.match(several, { code: 'PIX_INSUFFICIENT_BALANCE' }, 'several scenarios go comma-separated')

  const simple = await client.centralBank.cob('a'.repeat(30)).catch((e: unknown) => e) as PixApiError
  t.match(simple, { statusCode: 404, code: 'HTTP_ERROR', body: { statusCode: 404, message: String } })
  t.notOk('code' in simple.body, 'the simple shape has no code of its own')

  const plane = await sandbox.client.sandbox.account(999).catch((e: unknown) => e) as PixApiError
  t.match(plane, { statusCode: 404, code: 'ACCOUNT_NOT_FOUND', body: { code: 'ACCOUNT_NOT_FOUND' } })

  const sample = await sandbox.client.sandbox.testWebhook({ accountId: 1, eventType: 'med_created' })
  const waited = await sandbox.client.sandbox.waitForDelivery({ accountId: 1, eventType: 'med_created', status: 'delivered', timeoutMs: 0 }).catch((e: unknown) => e) as PixApiError
  t.match(waited, { statusCode: 408, code: 'WAIT_TIMEOUT' })
  t.match(waited.message, /GET .*\/__sandbox\/webhooks\/deliveries\/wait\?accountId=1&eventType=med_created&status=delivered&timeoutMs=0 answered 408: No matching delivery within 0 ms; /)
  t.match(waited.message, `the closest: delivery ${sample.deliveries[0].id} (med_created, transaction ${sample.deliveries[0].transactionId}, account 1) is no receiver`, 'the error says why none came')
  t.match(waited.body, { details: { nearMisses: [{ id: sample.deliveries[0].id, status: 'no_receiver', differences: [{ field: 'status', expected: 'delivered', actual: 'no_receiver' }] }] } })
})

/**
 * Scenario names are typed from the catalogue (ScenarioSpec): each line under `@ts-expect-error` is a slip
 * that must not compile, and `tsc --noEmit`, the first step of `npm test`, fails on a directive that is not
 * needed. Never called: the compiler is what is under test.
 */
function scenarioNamesCompile (client: PixClient, unchecked: string): void {
  void client.cashOut(cashOut('a'), { scenario: 'INSUFFICIENT_FUNDS' })
  void client.cashOut(cashOut('b'), { scenario: 'SETTLEMENT_DELAY;ms=5000' })
  void client.cashOut(cashOut('c'), { scenario: ['WEBHOOK_DROP', 'INSUFFICIENT_FUNDS'] })
  void client.sandbox.armScenario({ accountId: 1, scenario: 'COBR_RETRY_REFUSED;codigo=AC05', endpoint: 'cobr-retry' })
  // @ts-expect-error a misspelt name
  void client.cashOut(cashOut('d'), { scenario: 'INSUFICIENT_FUNDS' })
  // @ts-expect-error with its parameters too
  void client.cashOut(cashOut('e'), { scenario: 'SETTLEMENT_DELEY;ms=5000' })
  // @ts-expect-error in a list
  void client.cashOut(cashOut('f'), { scenario: ['WEBHOOK_DROP', 'INSUFICIENT_FUNDS'] })
  // @ts-expect-error armed
  void client.sandbox.armScenario({ accountId: 1, scenario: 'INSUFICIENT_FUNDS' })
  // @ts-expect-error any string is no scenario name
  void client.cashOut(cashOut('g'), { scenario: unchecked })
  // Deliberately any text: the header itself.
  void client.cashOut(cashOut('h'), { headers: { 'x-sandbox-scenario': unchecked } })
}

t.test('scenario names are typed from the catalogue; the header itself takes any text, which the sandbox checks', async t => {
  t.type(scenarioNamesCompile, 'function', 'the calls above are checked by the compiler, never run')
  const sandbox = await started(t)
  const { client } = await sandbox.createAccount({ balance: 100 })
  await t.rejects(client.cashOut(cashOut('typed'), { scenario: 'INSUFFICIENT_FUNDS' }), { name: 'PixApiError', code: 'PIX_INSUFFICIENT_BALANCE' })
  const slip = await client.cashOut(cashOut('slip'), { headers: { 'x-sandbox-scenario': 'INSUFICIENT_FUNDS' } }).catch((e: unknown) => e) as PixApiError
  t.match(slip, { statusCode: 400, code: 'UNKNOWN_SCENARIO', body: { details: { didYouMean: 'INSUFFICIENT_FUNDS' } } })
})

t.test('a body that is not JSON still becomes a PixApiError', async t => {
  const client = createClient({ baseUrl: 'http://sandbox.invalid', fetch: async () => new Response('upstream down', { status: 502 }) })
  await t.rejects(client.sandbox.health(), { statusCode: 502, code: 'HTTP_ERROR', messages: ['upstream down'] })
  const empty = createClient({ baseUrl: 'http://sandbox.invalid', fetch: async () => new Response(null, { status: 503 }) })
  await t.rejects(empty.sandbox.health(), { name: 'PixApiError', statusCode: 503, messages: ['HTTP 503'] })
})

t.test('API Pix\'s problem details and its token\'s OAuth errors become PixApiError: the error type or the OAuth error is the code', async t => {
  const answering = (status: number, body: unknown) => createClient({ baseUrl: 'http://sandbox.invalid', clientId: 'c', clientSecret: 's', certificate: 'x', fetch: async () => new Response(JSON.stringify(body), { status }) })
  const problem = { type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', title: 'Cobrança inválida', status: 400, detail: 'a; b', violacoes: [{ razao: 'a', propriedade: 'cob.chave' }, { razao: 'b' }] }
  await t.rejects(answering(400, problem).apiPix.token(), { statusCode: 400, code: 'CobOperacaoInvalida', messages: ['a', 'b'] })
  await t.rejects(answering(401, { error: 'invalid_client', error_description: 'Credenciais inválidas' }).apiPix.token(), { statusCode: 401, code: 'invalid_client', messages: ['Credenciais inválidas'] })
})

t.test('the admin token and extra headers go where they belong', async t => {
  const sandbox = await started(t, { adminToken: 'client-admin-token' })
  const acct = await sandbox.createAccount()
  const { fetch, sent } = recorder()
  const client = createClient({ baseUrl: sandbox.url, adminToken: 'client-admin-token', clientId: acct.clientId, clientSecret: acct.clientSecret, certificate: acct.certificate, fetch, headers: { 'x-request-id': 'from-the-test' } })
  await client.sandbox.accounts()
  await client.balance()
  t.equal(sent[0].headers['x-sandbox-admin-token'], 'client-admin-token')
  t.notOk(sent.slice(1).some(s => 'x-sandbox-admin-token' in s.headers), 'the admin token never goes to the gateway API')
  t.ok(sent.every(s => s.headers['x-request-id'] === 'from-the-test'))
  await t.rejects(createClient({ baseUrl: sandbox.url }).sandbox.accounts(), { statusCode: 401, code: 'ADMIN_TOKEN_REQUIRED' })
})

t.test('registerWebhook throws, naming the fix, where the gateway\'s route is disabled (registering nothing), and registers where it is enabled', async t => {
  const sandbox = await started(t)
  const { client, accountId } = await sandbox.createAccount()
  const refused = await client.registerWebhook({ url: 'https://example.com/hook', eventType: 'cash_out' }).catch((e: unknown) => e) as PixApiError
  t.ok(refused instanceof PixApiError, 'not a success: nothing was registered')
  t.match(refused, { statusCode: 200, code: 'ROUTE_DISABLED', operationId: 'registerWebhook', method: 'POST', messages: ['Rota desativada'], body: { success: false } })
  t.match(refused.message, /^POST http:\/\/127\.0\.0\.1:\d+\/api\/webhooks answered 200: Rota desativada\. /)
  t.match(refused.message, 'client.sandbox.registerWebhook({ accountId, eventType, url })', 'the control plane registers')
  t.match(refused.message, '--public-webhooks enabled (SANDBOX_PUBLIC_WEBHOOKS=enabled)', 'or the setting that enables the route')
  t.equal((await sandbox.client.sandbox.webhooks({ accountId })).total, 0)

  const enabled = await started(t, { publicWebhooks: 'enabled' })
  const own = await enabled.createAccount()
  t.same(await own.client.registerWebhook({ url: 'https://example.com/hook', eventType: 'cash_out' }), { success: true, message: 'Webhook cadastrado com sucesso' })
  t.match(await own.client.webhooks(), { total: 1, webhooks: [{ url: 'https://example.com/hook', type: 'cash_out' }] })
  await t.rejects(own.client.registerWebhook({ url: 'http://example.com/hook', eventType: 'cash_out' }), { name: 'PixApiError', statusCode: 400 }, 'its refusals stay refusals')
})

t.test('a tour of every operation through the typed client', async t => {
  const sandbox = await started(t, { settlementDelayMs: 100 })
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const plane = sandbox.client.sandbox
  const called = new Set<OperationId>()
  const track = (client: PixClient) => {
    const call = client.call.bind(client)
    client.call = (id, req) => { called.add(id); return call(id, req) }
  }
  track(sandbox.client)

  t.match(await plane.health(), { status: 'ok' })
  const acct = await sandbox.createAccount({ balance: 1000, splitFrequency: 'IMMEDIATE' })
  const { client } = acct
  track(client)
  await client.issueToken()
  t.match(await client.call('getApiBalance'), { netBalance: 1000 }, 'any operation by its id: /api/balance, the alias of /balance')
  t.match(await plane.accounts(), { accounts: [{ accountId: 1 }, { accountId: acct.accountId }] })
  t.equal((await plane.changeBalance(acct.accountId, { credit: 500 })).balance.available, 1500)
  // Its API Pix webhooks below name an example domain nobody runs: the check of their receivers off.
  t.equal((await plane.changeAccount(acct.accountId, { webhookMtlsCheck: false })).webhookMtlsCheck, false)
  t.equal((await plane.account(acct.accountId)).invariantHolds, true)
  const tool = await plane.issueToken(acct.accountId)
  t.match(await createClient({ baseUrl: sandbox.url, token: tool.access_token }).balance(), { netBalance: 1500 }, 'a tool\'s token of the account')
  t.match(await client.balance(), { netBalance: 1500 })

  // webhooks: the public routes (disabled, as the gateway today, answered as they are by call()) and the control plane's
  t.same(await client.call('registerWebhook', { body: { url: 'https://example.com/hook', eventType: 'cash_out' } }), { success: false, message: 'Rota desativada' })
  t.same(await client.webhooks(), { accountId: acct.accountId, webhooks: [], total: 0 })
  const hook = await plane.registerWebhook({ accountId: acct.accountId, eventType: 'cash_out', url: receiver.url })
  t.equal((await plane.updateWebhook(hook.id, { headers: [{ key: 'x-team', value: 'pay' }] })).version, 2)
  t.equal((await plane.webhooks({ accountId: acct.accountId })).total, 1)

  // a pay-out, settled by the clock, its delivery, a redelivery, the transaction query
  const out = await client.cashOut(cashOut('tour-1'))
  const clock = await plane.advanceClock(100)
  t.equal(clock.pendingJobs >= 0, true)
  const delivered = await plane.waitForDelivery({ transactionId: out.transactionId, status: 'delivered', timeoutMs: 15000 })
  t.equal((await plane.delivery(delivered.id)).id, delivered.id)
  t.equal((await plane.redeliver(delivered.id)).id, delivered.id)
  t.ok((await plane.deliveries({ accountId: acct.accountId })).total >= 1)
  t.match(await plane.webhookCa(), /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/, 'the webhooks\' CA, as PEM text')
  t.equal((await plane.transaction(out.transactionId)).status, 'CONFIRMED')
  t.ok((await plane.transactions({ accountId: acct.accountId, kind: 'CASH_OUT' })).transactions.length === 1)
  t.equal((await plane.refundReceived(out.transactionId, { amount: 1 })).kind, 'REFUND_RECEIVED')
  const second = await client.cashOut(cashOut('tour-2'))
  t.equal((await plane.settle(second.transactionId)).status, 'CONFIRMED')
  const third = await client.cashOut(cashOut('tour-3'))
  t.equal((await plane.fail(third.transactionId, 'BLOCKED_ACCOUNT')).errorCode, 'BLOCKED_ACCOUNT')
  await plane.testWebhook({ accountId: acct.accountId, eventType: 'cash_out' })
  await plane.deleteWebhook(hook.id)

  // pay-ins: a cash-in paid through the control plane, refunded; a cob paid, returned by devolução
  const charge = await client.cashIn({ transaction: { value: 50, description: 'pedido 1', externalId: 'ci-1' }, payer: { fullName: 'Fulano', document: '52998224725' } })
  const paid = await plane.pay(charge.pixCode)
  t.equal(paid.status, 'CONFIRMED')
  t.equal((await client.refundIn(charge.transactionId, { refundValue: 5 })).status, 'PENDING')
  const qr = await client.cashIn({ transaction: { value: 3, description: 'qr', externalId: 'ci-2' }, payer: { fullName: 'Fulano', document: '52998224725' } })
  t.equal((await client.cashOutQrCode({ value: 3, qrCode: qr.pixCode, externalId: 'qr-1' })).status, 'PENDING')
  const txid = 'tour'.padEnd(30, '0')
  const cob = await client.centralBank.createCob(txid, { calendario: {}, valor: { original: '20.00' } })
  t.equal((await client.centralBank.cob(txid)).status, 'ATIVA')
  const cobPaid = await plane.pay(cob.pixCopiaECola)
  const dev = await client.centralBank.createDevolucao(cobPaid.endToEndId, 'dev1', { valor: '2.00' })
  t.equal((await client.centralBank.devolucao(cobPaid.endToEndId, 'dev1')).id, dev.id)
  const cancelled = 'gone'.padEnd(30, '0')
  await client.centralBank.createCob(cancelled, { calendario: {}, valor: { original: '1.00' } })
  t.equal((await client.centralBank.cancelCob(cancelled)).status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
  const generated = await client.centralBank.createCobWithGeneratedTxid({ calendario: { expiracao: 600 }, valor: { original: '3.00' } })
  t.match(generated.txid, /^[a-zA-Z0-9]{32}$/)
  t.match(await client.centralBank.reviseCob(generated.txid, { valor: { original: '4.00' } }), { revisao: 1, valor: { original: '4.00' } })
  const window = { inicio: '2000-01-01T00:00:00Z', fim: '8999-01-01T00:00:00Z' }
  t.ok((await client.centralBank.cobs({ ...window, 'paginacao.itensPorPagina': 2 })).cobs.length === 2, 'paging reaches the server')
  t.equal((await client.centralBank.receivedPix(cobPaid.endToEndId)).endToEndId, cobPaid.endToEndId)
  t.ok((await client.centralBank.receivedPixList({ ...window, txid })).pix.some(p => p.endToEndId === cobPaid.endToEndId))
  t.match(await client.centralBank.balances(), { data: [{ balanceAmount: { overdraft: 0 } }] })
  const transfer = await client.centralBank.dictTransfer({ pixKey: '52998224725', payment: { currency: 'BRL', amount: 1 } }, { idempotencyKey: '7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f' })
  t.same(await client.centralBank.dictTransfer({ pixKey: '52998224725', payment: { currency: 'BRL', amount: 1 } }, { idempotencyKey: '7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f' }), transfer, 'the same key, the same transfer')
  t.not((await client.centralBank.dictTransfer({ pixKey: '52998224725', payment: { currency: 'BRL', amount: 1 } })).id, transfer.id, 'a key of its own when none is given')

  // BACEN's API Pix: its own token, with the account's credentials and certificate; cob and loc
  t.match(await client.apiPix.token('cob.read'), { token_type: 'Bearer', scope: 'cob.read' })
  const apiPixTxid = 'apipix'.padEnd(30, '0')
  const apiPixCob = await client.apiPix.createCob(apiPixTxid, { calendario: { expiracao: 600 }, valor: { original: '2.00' }, chave: 'tour@example.com' })
  t.match(apiPixCob.location, /\/qr\/v2\/[0-9a-f]{32}$/)
  t.equal((await client.apiPix.cob(apiPixTxid)).txid, apiPixTxid)
  t.equal((await client.apiPix.reviseCob(apiPixTxid, { valor: { original: '2.50' } })).revisao, 1)
  const jws = await client.apiPix.payload(apiPixCob.location!)
  t.equal(jws.split('.').length, 3, 'the payload is a compact JWS')
  t.equal((await client.apiPix.jwks()).keys.length, 1)
  t.match(await client.apiPix.createCobWithGeneratedTxid({ calendario: {}, valor: { original: '1.00' }, chave: 'tour@example.com' }), { status: 'ATIVA' })
  t.ok((await client.apiPix.cobs(window)).cobs.length >= 2)
  const apiPixLoc = await client.apiPix.createLoc({ tipoCob: 'cob' })
  t.equal((await client.apiPix.loc(apiPixLoc.id)).id, apiPixLoc.id)
  t.ok((await client.apiPix.locs(window)).loc.length >= 3)
  t.match((await plane.locations({ accountId: acct.accountId })).locations.find(l => l.id === apiPixCob.loc!.id), { txid: apiPixTxid, accountId: acct.accountId }, 'the control plane lists the locations')
  t.notOk('txid' in await client.apiPix.unbindLoc(apiPixCob.loc!.id))
  const noCob = await client.apiPix.cob('nothere'.padEnd(30, '0')).catch((e: unknown) => e) as PixApiError
  t.match(noCob, { statusCode: 404, code: 'CobNaoEncontrado' })
  // cobv and lotecobv
  const cobvTxid = 'apipixcobv'.padEnd(30, '0')
  const cobvBody = { calendario: { dataDeVencimento: '2099-01-02' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '3.00' }, chave: 'tour@example.com' }
  const cobv = await client.apiPix.createCobV(cobvTxid, cobvBody)
  t.match(cobv.location, /\/qr\/v2\/cobv\/[0-9a-f]{32}$/)
  t.equal((await client.apiPix.reviseCobV(cobvTxid, { valor: { original: '3.50' } })).revisao, 1)
  t.equal((await client.apiPix.cobv(cobvTxid)).valor.original, '3.50')
  t.equal((await client.apiPix.cobvs(window)).cobs.length, 1)
  t.equal((await client.apiPix.cobvPayload(cobv.location!, { DPP: '2099-01-02' })).split('.').length, 3)
  t.equal(await client.apiPix.putLoteCobV(7, { descricao: 'lote', cobsv: [{ txid: 'apipixlote'.padEnd(30, '0'), ...cobvBody }] }), undefined, '202, no body')
  await client.apiPix.reviseLoteCobV(7, { descricao: 'lote revisto' })
  t.match(await client.apiPix.loteCobV(7), { id: 7, descricao: 'lote revisto', cobsv: [{ status: 'EM_PROCESSAMENTO' }] })
  t.equal((await client.apiPix.loteCobVs(window)).lotes.length, 1)
  t.match((await plane.cobvs({ accountId: acct.accountId })).cobvs, [{ txid: cobvTxid, accountId: acct.accountId, valorHoje: '3.50' }], 'the control plane lists the cobvs, with what they cost today')
  t.match((await plane.cobvBatches({ accountId: acct.accountId })).batches, [{ id: 7, accountId: acct.accountId, cobsv: [{ status: 'EM_PROCESSAMENTO' }] }], 'and the batches')
  // A page of one, then the page before it: the location of the cobv, made last, then the one before.
  const lastLoc = await plane.locations({ accountId: acct.accountId, limit: 1 })
  t.same(lastLoc.locations.map(l => l.id), [cobv.loc!.id], 'the control plane pages the locations, the last made first')
  t.type(lastLoc.nextCursor, 'number', 'older ones remain')
  t.same((await plane.locations({ accountId: acct.accountId, limit: 1, cursor: lastLoc.nextCursor })).locations.map(l => l.id), [apiPixLoc.id], 'the page before')
  t.equal((await plane.cobvs({ accountId: acct.accountId, limit: 1 })).nextCursor, undefined, 'one cobv: no page after it')

  // API Pix's received PIX, a devolução of one, a webhook on the account's document as its key
  const received = await plane.incoming({ accountId: acct.accountId, amount: 5 })
  t.match(await client.apiPix.pix(received.endToEndId), { endToEndId: received.endToEndId, valor: '5.00', devolucoes: [] })
  t.ok((await client.apiPix.pixList({ ...window, txIdPresente: false })).pix.some(p => p.endToEndId === received.endToEndId))
  t.match(await client.apiPix.createDevolucao(received.endToEndId, 'tour1', { valor: '1.00' }), { id: 'tour1', status: 'EM_PROCESSAMENTO' })
  t.equal((await client.apiPix.devolucao(received.endToEndId, 'tour1')).valor, '1.00')
  const { document } = await plane.account(acct.accountId)
  t.equal(await client.apiPix.putWebhook(document, { webhookUrl: receiver.url }), undefined, 'API Pix answers 200 with no body')
  t.match(await client.apiPix.webhook(document), { webhookUrl: receiver.url, chave: document })
  t.equal((await client.apiPix.webhooks()).webhooks.length, 1)
  t.match((await plane.apiPixWebhooks({ accountId: acct.accountId, limit: 1 })).webhooks, [{ chave: document, accountId: acct.accountId, callback: 'pix' }], 'the control plane lists them, a page at a time')
  // Efí's pay-outs from that key (it has a webhook), and the reads of what was sent (docs/efi.md)
  await plane.putDirectoryEntry('favtour@example.com', { name: 'FAVORECIDO', document: '52998224725', ispb: '60701190', bankName: 'ITAU' })
  const toFav = { valor: '1.00', pagador: { chave: document }, favorecido: { chave: 'favtour@example.com' } }
  const efiSent = await client.efi.pixSend('tourefi1', toFav)
  t.match(efiSent, { idEnvio: 'tourefi1', valor: '1.00', status: 'EM_PROCESSAMENTO' })
  t.match(await client.efi.pixSendV2('tourefi2', toFav), { idEnvio: 'tourefi2' })
  const own = { nome: 'TOUR', ...(document.length === 11 ? { cpf: document } : { cnpj: document }), codigoBanco: '60701190', agencia: '1', conta: '123', tipoConta: 'cacc' as const }
  t.match(await client.efi.pixSendSameOwnership('tourefi3', { ...toFav, favorecido: { contaBanco: own } }), { idEnvio: 'tourefi3' })
  await t.rejects(client.efi.pixQrCodePay('tourefi4', { pagador: { chave: document }, pixCopiaECola: 'not a code' }), { name: 'PixApiError', statusCode: 400 })
  t.match(await client.efi.pixSent(efiSent.e2eId), { idEnvio: 'tourefi1', chave: document })
  t.match(await client.efi.pixSentByIdEnvio('tourefi2'), { idEnvio: 'tourefi2' })
  t.equal((await client.efi.pixSentList(window)).pix.length, 3)
  const efiReport = await client.efi.requestReport({ dataMovimento: '2026-03-09', tipoRegistros: { pixRecebido: true } })
  t.match(await client.efi.report(efiReport.id), { status: 'AGUARDANDO_PROCESSAMENTO' })
  await t.rejects(client.efi.receipt({ idEnvio: 'tourefi1' }), { name: 'PixApiError', statusCode: 404 }, 'no receipt before it settles')
  await t.rejects(client.efi.resendWebhook({ tipo: 'PIX_ENVIADO', e2eids: [efiSent.e2eId] }), { name: 'PixApiError', statusCode: 400 }, 'not settled yet: no callback to resend')
  t.match(await client.efi.balance(true), { saldo: String, bloqueios: { med: '0.00' } })
  t.same(await client.efi.config(), { pix: { receberSemChave: true, chaves: {} } })
  t.equal(await client.efi.putConfig({ pix: { receberSemChave: false } }), undefined, '204')
  const evp = await client.efi.createEvp()
  t.same((await client.efi.evps()).chaves, [evp.chave])
  t.equal(await client.efi.deleteEvp(evp.chave), undefined)
  t.match(await client.efi.keyBuckets(), { baldeA: { capacidade: 100 } })
  const efiInfracoes = await client.efi.infracoes(window)
  t.same(efiInfracoes.infracoes, [], 'no MED case on this account')
  await t.rejects(client.efi.defendInfracao('00000000-0000-4000-8000-000000000999', { analise: 'aceito', justificativa: 'x' }), { name: 'PixApiError', statusCode: 404 })
  const efiCob = await client.apiPix.createCobWithGeneratedTxid({ calendario: {}, valor: { original: '3.00' }, chave: 'tour@example.com' })
  t.match(await client.efi.locQrCode(efiCob.loc!.id), { qrcode: efiCob.pixCopiaECola, imagemQrcode: /^data:image\/svg\+xml;base64,/ })
  t.match(await client.efi.qrCodeDetail({ pixCopiaECola: efiCob.pixCopiaECola! }), { tipoCob: 'cob', txid: efiCob.txid, valor: { original: '3.00' } })
  // Efí's split: a configuration and its next revision, linked to that cob and the cobv, read, unlinked (docs/efi.md, Split)
  const favorecido = await plane.createAccount({ document: '52998224725' })
  const conta = (await plane.account(favorecido.accountId)).accountNumber
  const splitBody = { lancamento: { imediato: true }, split: { divisaoTarifa: 'assumir_total' as const, minhaParte: { tipo: 'porcentagem' as const, valor: '60.00' }, repasses: [{ tipo: 'porcentagem' as const, valor: '40.00', favorecido: { cpf: '52998224725', conta } }] } }
  const splitConfig = await client.efi.createSplitConfig(splitBody)
  t.equal((await client.efi.putSplitConfig(splitConfig.id, splitBody)).revisao, 1)
  t.equal((await client.efi.splitConfig(splitConfig.id, 0)).revisao, 0)
  for (const [kind, txid] of [['cob', efiCob.txid], ['cobv', cobvTxid]] as const) {
    await client.efi.linkSplit(kind, txid, splitConfig.id)
    t.match(await client.efi.splitCharge(kind, txid), { txid, config: { id: splitConfig.id, revisao: 1 }, repasses: [{ favorecido: { conta }, status: 'WAITING' }] })
    await client.efi.unlinkSplit(kind, txid, splitConfig.id)
    await client.efi.linkSplit(kind, txid, splitConfig.id)
    await client.efi.unlinkSplit(kind, txid)
    await t.rejects(client.efi.splitCharge(kind, txid), { name: 'PixApiError', statusCode: 404 }, `${kind}: unlinked`)
  }
  await t.rejects(client.efi.splitDevolucao(received.endToEndId, 'tourspl1', { valor: '1.00' }), { name: 'PixApiError', statusCode: 404 }, 'a PIX of no split charge: no devolução of a split')
  await client.apiPix.deleteWebhook(document)
  // Pix Automático: this sandbox serves no recurrence, so a charge is refused for its idRec; its webhook is the account's.
  const cobr = { idRec: 'RR1234567820260310abcdefghijk', calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '9.90' }, recebedor: { conta: '1', tipoConta: 'CORRENTE' as const } }
  await t.rejects(client.apiPix.createCobR('tourcobr'.padEnd(30, '0'), cobr), { statusCode: 400, code: 'CobROperacaoInvalida' })
  await t.rejects(client.apiPix.createCobRWithGeneratedTxid(cobr), { statusCode: 400, code: 'CobROperacaoInvalida' })
  await t.rejects(client.apiPix.cobr('tourcobr'.padEnd(30, '0')), { statusCode: 404, code: 'CobRNaoEncontrado' })
  await t.rejects(client.apiPix.reviseCobR('tourcobr'.padEnd(30, '0'), { status: 'CANCELADA' }), { statusCode: 404, code: 'CobRNaoEncontrado' })
  await t.rejects(client.apiPix.retryCobR('tourcobr'.padEnd(30, '0'), '2026-03-23'), { statusCode: 404, code: 'CobRNaoEncontrado' })
  t.same((await client.apiPix.cobrList(window)).cobsr, [])
  t.equal(await client.apiPix.putWebhookCobR({ webhookUrl: receiver.url }), undefined)
  t.match(await client.apiPix.webhookCobR(), { webhookUrl: receiver.url })
  await client.apiPix.deleteWebhookCobR()

  // Pix Automático: a recurrence at its location, its request, its payer's side, its webhook
  const locRec = await client.apiPix.createLocRec()
  const recBody = { vinculo: { contrato: 'c1', devedor: { cpf: '45164632481', nome: 'Fulano' } }, calendario: { dataInicial: '2030-01-01', periodicidade: 'MENSAL' }, valor: {}, politicaRetentativa: 'NAO_PERMITE' }
  const rec = await client.apiPix.createRec({ ...recBody, loc: locRec.id })
  t.equal((await client.apiPix.rec(rec.idRec)).dadosQR?.jornada, 'JORNADA_2')
  const firstCharge = await client.apiPix.createCobWithGeneratedTxid({ calendario: {}, valor: { original: '1.00' }, chave: 'tour@example.com' })
  t.equal((await client.apiPix.rec(rec.idRec, firstCharge.txid)).dadosQR?.jornada, 'JORNADA_3')
  t.match((await plane.recurrenceStaticCode(rec.idRec, { valor: '1.00' })), { jornada: 'JORNADA_4', pixCopiaECola: /^000201/ })
  t.equal((await client.apiPix.recPayload(locRec.location)).split('.').length, 3)
  t.equal((await client.apiPix.locRec(locRec.id)).idRec, rec.idRec)
  t.ok((await client.apiPix.locRecs(window)).loc.length >= 1)
  t.ok((await client.apiPix.recs(window)).recs.length >= 1)
  const solic = await client.apiPix.createSolicRec({ idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: '2030-01-01T00:00:00Z' }, destinatario: { conta: '1', cpf: '45164632481', ispbParticipante: '91193552' } })
  t.equal((await client.apiPix.solicRec(solic.idSolicRec)).status, 'CRIADA')
  t.equal((await client.apiPix.reviseSolicRec(solic.idSolicRec, { status: 'CANCELADA' })).status, 'CANCELADA')
  t.notOk('idRec' in await client.apiPix.unbindLocRec(locRec.id))
  await client.apiPix.putWebhookRec('https://recebedor.example.com/hooks')
  t.equal((await client.apiPix.webhookRec()).webhookUrl, 'https://recebedor.example.com/hooks')
  await client.apiPix.deleteWebhookRec()
  const behaviour = await plane.setPayerBehaviour({ accountId: acct.accountId, authorization: 'NO_ANSWER' })
  t.equal((await plane.payerBehaviours({ accountId: acct.accountId })).behaviours.length, 1)
  await plane.deletePayerBehaviour(behaviour.id)
  t.equal((await plane.approveRecurrence(rec.idRec)).status, 'APROVADA')
  t.equal((await plane.cancelRecurrence(rec.idRec)).status, 'CANCELADA')
  const [toReject, toExpire] = [await client.apiPix.createRec(recBody), await client.apiPix.createRec(recBody)]
  t.equal((await plane.rejectRecurrence(toReject.idRec, { codigo: 'AP14' })).status, 'REJEITADA')
  t.equal((await plane.expireRecurrence(toExpire.idRec)).status, 'EXPIRADA')
  t.same((await plane.recurrences({ accountId: acct.accountId })).recurrences.map(r => [r.idRec, r.status, r.charges.total]), [[toExpire.idRec, 'EXPIRADA', 0], [toReject.idRec, 'REJEITADA', 0], [rec.idRec, 'CANCELADA', 0]], 'the control plane lists them, newest first')
  const paged = await plane.recurrences({ accountId: acct.accountId, limit: 2 })
  t.same(paged.recurrences.map(r => r.idRec), [toExpire.idRec, toReject.idRec], 'a page of two')
  t.same((await plane.recurrences({ accountId: acct.accountId, limit: 2, cursor: paged.nextCursor })).recurrences.map(r => r.idRec), [rec.idRec], 'and the next one')
  t.match(await plane.recurrence(rec.idRec), { idRec: rec.idRec, accountId: acct.accountId, status: 'CANCELADA', cobsr: [] }, 'one with its charges')
  t.equal((await client.apiPix.reviseRec(toExpire.idRec, {}).catch((e: unknown) => e) as PixApiError).statusCode, 400)

  // an unsolicited PIX, a MED against it, its transitions
  const pix = await plane.incoming({ accountId: acct.accountId, amount: 30 })
  const med = await plane.openMed({ endToEndId: pix.endToEndId, reason: 'REFUND_REQUEST', cause: 'FRAUD' })
  t.equal((await plane.med(med.id)).status, 'OPEN')
  await plane.transitionMed(med.id, { status: 'RECEIVED' })
  t.match(await plane.transitionMed(med.id, { status: 'ANALYZED', analysisResult: 'APPROVED' }), { status: 'ANALYZED', refund: { natureza: 'MED_FRAUDE' } })
  t.equal((await plane.meds({ accountId: acct.accountId })).meds.length, 1)
  t.equal((await client.med({ status: 'ANALYZED' })).metadata.total, 1)

  // the integration report, and its probe (refused: the account's only webhook was deleted above)
  const report = await plane.report(acct.accountId)
  t.match(report, { accountId: acct.accountId, verdict: 'failed' })
  t.match(report.checks.find(c => c.id === 'final-error-not-retried'), { status: 'passed' }, 'tour-3 failed BLOCKED_ACCOUNT and was not sent again')
  await t.rejects(plane.reportProbe({ accountId: acct.accountId }), { statusCode: 409, code: 'NO_RECEIVER' })

  // scenarios, the directory, the clock, the journal, snapshots, resets
  t.ok((await plane.scenarios()).scenarios.some(s => s.name === 'INSUFFICIENT_FUNDS'))
  const armed = await plane.armScenario({ accountId: acct.accountId, scenario: 'INSUFFICIENT_FUNDS', times: 1 })
  t.equal((await plane.armedScenarios({ accountId: acct.accountId })).armed.length, 1)
  await plane.disarmScenario(armed.id)
  const key = 'tour@example.com'
  await plane.putDirectoryEntry(key, { name: 'TOUR', document: '52998224725', ispb: '12345678', bankName: 'BANCO TOUR' })
  t.equal((await plane.directoryEntry(key)).name, 'TOUR')
  t.ok((await plane.directory()).entries.some(e => e.key === key))
  await plane.deleteDirectoryEntry(key)
  t.equal((await plane.setClock(new Date('2026-03-11T15:00:00.000Z'))).now, '2026-03-11T15:00:00.000Z')
  t.equal((await plane.setClock('2026-03-12T15:00:00.000Z')).now, '2026-03-12T15:00:00.000Z')
  t.equal((await plane.resumeClock()).frozen, false)
  t.equal((await plane.freezeClock()).frozen, true)
  t.equal(typeof (await plane.clock()).now, 'string')
  // Pix Automático on the clock: no recurring charge here, so nothing to move to, nor to force.
  t.same((await plane.advanceToNextDue(acct.accountId)).debit, null)
  await t.rejects(plane.forceNextDebit(acct.accountId, 'sandboxtxid0001abcdefghijklmno', { outcome: 'PAID' }), { name: 'PixApiError', statusCode: 404 })
  const journal = await plane.requests({ accountId: acct.accountId, limit: 5 })
  t.ok(journal.requests.length === 5)
  t.equal((await plane.request(journal.requests[0].id)).id, journal.requests[0].id)
  const postsOfAcct = (await plane.countRequests({ accountId: acct.accountId, method: 'POST' })).count
  t.ok(postsOfAcct > 0)
  t.same(await plane.verifyRequests({ accountId: acct.accountId, method: 'POST', times: postsOfAcct }), { count: postsOfAcct, matched: true })
  const refused = await plane.verifyRequests({ accountId: acct.accountId, path: '/never' }).catch((err: unknown) => err)
  t.ok(refused instanceof PixApiError && refused.statusCode === 409 && refused.code === 'VERIFICATION_FAILED', 'a failed verify rejects with its near misses')
  t.ok(((refused as PixApiError).body as unknown as { details: { nearMisses: unknown[] } }).details.nearMisses.length > 0)
  t.ok((await sandbox.verifyRequests({ accountId: acct.accountId, method: 'POST', atLeast: 1 })).matched, 'startSandbox has it too')
  // Mercado Pago's payments API with the account's access token; paid through the control plane.
  const mp = sandbox.client.mercadoPago(acct.mercadoPago!.accessToken)
  const payment = await mp.createPayment({ transaction_amount: 12, payment_method_id: 'pix', payer: { email: 'p@example.com' } })
  t.match(await mp.payment(payment.id), { status: 'pending' })
  t.match(await mp.ticket(payment), /<!doctype html>/)
  await plane.pay(payment.point_of_interaction.transaction_data.qr_code)
  t.equal((await mp.searchPayments({ status: 'approved' })).paging.total, 1)
  const mpRefund = await mp.refund(payment.id, 2)
  t.same((await mp.refunds(payment.id)).map(r => r.id), [mpRefund.id])
  t.equal((await mp.refundOf(payment.id, mpRefund.id)).amount, 2)
  const other = await mp.createPayment({ transaction_amount: 1, payment_method_id: 'pix', payer: { email: 'p@example.com' } })
  t.match(await mp.cancelPayment(other.id), { status: 'cancelled', status_detail: 'by_collector' })
  t.same((await plane.mercadoPagoPayments({ accountId: acct.accountId })).payments.map(p => [p.id, p.status]), [[other.id, 'cancelled'], [payment.id, 'approved']])
  t.equal((await plane.setMercadoPagoWebhook(acct.accountId, null)).mercadoPago?.webhookUrl, null)
  await t.rejects(mp.payment(1), { name: 'PixApiError', statusCode: 404 })

  const snapshot = await plane.snapshot()
  await plane.reset(acct.accountId)
  t.match(await plane.restoreSnapshot(snapshot as Parameters<typeof plane.restoreSnapshot>[0]), { accounts: 3 })
  t.equal((await plane.clearRequests(acct.accountId)).cleared >= 0, true)
  t.equal((await plane.reset()).reset, 'all')
  t.same(await plane.clearRequests(), { cleared: 1 }, 'a full reset empties the journal: only the reset itself was left')
  await client.sandbox.health()

  t.same([...Object.keys(operations)].filter(id => !called.has(id as OperationId)), [], 'every operation was called')
})

t.test('Mercado Pago through the typed client: its notification waited for by its own event type, its payments listed, its sample sent', async t => {
  const sandbox = await started(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const created = await sandbox.client.sandbox.createAccount()
  const mp = sandbox.client.mercadoPago(created.mercadoPago!.accessToken)
  const payment = await mp.createPayment({ transaction_amount: 25, payment_method_id: 'pix', payer: { email: 'p@example.com' }, notification_url: `${receiver.url}/mp` })
  await sandbox.client.sandbox.pay(payment.point_of_interaction.transaction_data.qr_code)
  const delivery = await sandbox.waitForDelivery({ accountId: created.accountId, eventType: 'mercado_pago_payment', status: 'delivered' })
  t.equal(delivery.eventType, 'mercado_pago_payment')
  t.match(delivery.body, { type: 'payment', data: { id: String(payment.id) } })
  const listed = await sandbox.client.sandbox.mercadoPagoPayments({ accountId: created.accountId })
  t.same(listed.payments.map(p => [p.id, p.status]), [[payment.id, 'approved']])
  t.equal(listed.payments[0].transactionId, delivery.transactionId)
  const filtered = await sandbox.client.sandbox.deliveries({ accountId: created.accountId, eventType: 'mercado_pago_payment' })
  t.ok(filtered.deliveries.length >= 2 && filtered.deliveries.every(d => d.eventType === 'mercado_pago_payment'))
  const sample = await sandbox.client.sandbox.testWebhook({ accountId: created.accountId, eventType: 'mercado_pago_payment' })
  t.same(sample.deliveries.map(d => [d.eventType, d.status]), [['mercado_pago_payment', 'no_receiver']], 'no account-level URL: no receiver')
  // A refund held in process: a 400 unless the request asks to see it (X-Render-In-Process-Refunds).
  await t.rejects(mp.refund(payment.id, 1, { scenario: 'REFUND_DELAY;ms=60000' }), { name: 'PixApiError', statusCode: 400 })
  const held = await mp.refund(payment.id, 2, { scenario: 'REFUND_DELAY;ms=60000', renderInProcess: true })
  t.equal(held.status, 'in_process')
  t.same((await mp.refunds(payment.id)).map(r => r.id).includes(held.id), false, 'hidden from the list without the header')
  t.equal((await mp.refundOf(payment.id, held.id, { renderInProcess: true })).status, 'in_process')
  t.ok((await mp.refunds(payment.id, { renderInProcess: true })).some(r => r.id === held.id))
})
