import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, balanceOf, bearer, buildTestApp, newAccount, NO_MTLS_CHECK, T0 } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'

/**
 * Efí's pay-outs (docs/efi.md, Pay-outs): PUT /v3/gn/pix/:idEnvio (and v2, mesma-titularidade, qrcode)
 * and the reads of what was sent, on the ledger, with the callback of a sent PIX posted to the payer
 * key's API Pix webhook, Efí's error shapes and scopes.
 */

const PAYER_DOC = '11222333000181'
const PAYER_KEY = 'pagador@example.com'
const FAV_KEY = 'favorecido@example.com'
const FAV_DOC = '52998224725'
const HOOK = 'https://erp.example.com/efi'

type Call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>) => Promise<Awaited<ReturnType<FastifyInstance['inject']>>>

async function putDirectory (app: FastifyInstance, key: string, document: string, ispb: string): Promise<void> {
  const put = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${key}`, payload: { name: key === FAV_KEY ? 'FAVORECIDO DA SILVA' : 'LOJA', document, ispb, bankName: 'SANDBOX' } })
  if (put.statusCode !== 201 && put.statusCode !== 200) throw new Error(put.body)
}

/** An account holding PAYER_KEY with an API Pix webhook on it, and FAV_KEY listed at another institution. */
async function payer (app: FastifyInstance, opts: { webhook?: boolean, balance?: number, scope?: string, base?: string, homologacao?: boolean } = {}) {
  const acc = await newAccount(app, { document: PAYER_DOC, balance: opts.balance ?? 100, fee: 0.5, ...NO_MTLS_CHECK, ...(opts.homologacao === true ? { efiHomologacao: true } : {}) })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await putDirectory(app, PAYER_KEY, PAYER_DOC, ispb)
  await putDirectory(app, FAV_KEY, FAV_DOC, '60701190')
  const token = await oauthToken(app, acc, opts.scope)
  const call: Call = (method, url, payload, headers = {}) =>
    app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })
  if (opts.webhook !== false) {
    const full = await oauthToken(app, acc)
    const put = await app.inject({ method: 'PUT', url: `${opts.base ?? '/v2'}/webhook/${PAYER_KEY}`, headers: bearer(full), payload: { webhookUrl: HOOK } })
    if (put.statusCode !== 200) throw new Error(put.body)
  }
  return { acc, call }
}

const toKey = (valor: string, extra: Record<string, unknown> = {}) => ({ valor, pagador: { chave: PAYER_KEY, infoPagador: 'Pedido 7' }, favorecido: { chave: FAV_KEY, ...extra } })

async function sentDeliveries (app: FastifyInstance, accountId: number) {
  // The control plane's filter knows the built-in event types only: the log is read whole and filtered here.
  const all = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}` })).json().deliveries as any[]
  return all.filter(d => d.eventType === 'efi_pix_enviado').reverse()
}

t.test('PUT /v3/gn/pix/:idEnvio to a key: 201 EM_PROCESSAMENTO with its e2eId, reserved, then REALIZADO and the payer key\'s webhook hears it', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app)

  const res = await call('PUT', '/v3/gn/pix/envio1', toKey('12.34'))
  t.equal(res.statusCode, 201, res.body)
  const body = res.json()
  t.match(body, { idEnvio: 'envio1', e2eId: /^E[0-9A-Za-z]{31}$/, valor: '12.34', horario: { solicitacao: T0 }, status: 'EM_PROCESSAMENTO' })
  t.equal(body.endToEndId, body.e2eId, 'both names the SDKs read')
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 12.34 - 0.5, blocked: 12.84, invariantHolds: true }, 'valor + fee reserved')

  const pending = (await call('GET', '/v2/gn/pix/enviados/id-envio/envio1')).json()
  t.match(pending, { endToEndId: body.e2eId, idEnvio: 'envio1', valor: '12.34', chave: PAYER_KEY, status: 'EM_PROCESSAMENTO', infoPagador: 'Pedido 7', favorecido: { chave: FAV_KEY, identificacao: { nome: 'FAVORECIDO DA SILVA', cpf: '***.982.247-**' } } })
  t.notOk('liquidacao' in pending.horario)
  t.same(await sentDeliveries(app, acc.accountId), [], 'nothing announced while EM_PROCESSAMENTO')

  await advance(app, 1000)
  const done = (await call('GET', `/v2/gn/pix/enviados/${body.e2eId}`)).json()
  t.match(done, { endToEndId: body.e2eId, status: 'REALIZADO', horario: { solicitacao: T0, liquidacao: String } })
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 12.34 - 0.5, blocked: 0, invariantHolds: true }, 'settled: debited valor + fee')

  const log = await sentDeliveries(app, acc.accountId)
  t.equal(log.length, 1, 'one callback as it settles')
  t.match(log[0], { url: `${HOOK}/pix` })
  t.same(log[0].body, { pix: [{ endToEndId: body.e2eId, chave: PAYER_KEY, tipo: 'SOLICITACAO', status: 'REALIZADO', valor: '12.34', horario: done.horario.liquidacao, infoPagador: 'Pedido 7', gnExtras: { idEnvio: 'envio1' } }] })

  const list = (await call('GET', '/v2/gn/pix/enviados?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z')).json()
  t.same(list.pix, [done])
  t.match(list.parametros, { inicio: '2026-03-10T00:00:00Z', fim: '2026-03-11T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 } })
  t.same((await call('GET', '/v2/gn/pix/enviados?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&status=NAO_REALIZADO')).json().pix, [])
  t.same((await call('GET', `/v2/gn/pix/enviados?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&cpf=${FAV_DOC}`)).json().pix, [done])
})

t.test('a reused idEnvio is 409 id_envio_duplicado whatever the body, and debits nothing', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app)
  t.equal((await call('PUT', '/v3/gn/pix/dup1', toKey('1.00'))).statusCode, 201)
  const before = await balanceOf(app, acc.accountId)
  for (const [url, body] of [['/v3/gn/pix/dup1', toKey('2.00')], ['/v2/gn/pix/dup1', toKey('1.00')], ['/v2/gn/pix/dup1/mesma-titularidade', toKey('1.00')]] as const) {
    const res = await call('PUT', url, body)
    t.equal(res.statusCode, 409, url)
    t.same(res.json(), { nome: 'id_envio_duplicado', mensagem: 'O id de envio informado já foi utilizado em outro pagamento' })
  }
  t.same(await balanceOf(app, acc.accountId), before, 'nothing moved')
})

t.test('refusals before anything is reserved: Efí\'s { nome, mensagem }, and the idEnvio stays free', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app)
  const refused = async (url: string, body: unknown, status: number, nome: string, mensagem?: RegExp) => {
    const res = await call('PUT', url, body)
    t.equal(res.statusCode, status, `${url}: ${res.body}`)
    t.match(res.json(), { nome, mensagem: mensagem ?? String })
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  }
  await refused('/v3/gn/pix/r1', { ...toKey('1.00'), pagador: { chave: 'outra@example.com' } }, 400, 'chave_invalida', /não faz referência à conta/)
  await refused('/v3/gn/pix/r1', toKey('1.00', { cpf: '39053344705' }), 400, 'chave_nao_pertence_ao_documento')
  await refused('/v3/gn/pix/r1', { ...toKey('1.00'), favorecido: { chave: 'ninguem@example.com' } }, 404, 'chave_favorecido_nao_encontrada')
  await refused('/v2/gn/pix/r1', { ...toKey('1.00'), favorecido: { chave: 'ninguem@example.com' } }, 400, 'chave_invalida')
  await refused('/v3/gn/pix/r1', toKey('0.00'), 400, 'valor_invalido')
  await refused('/v3/gn/pix/r1', toKey('1,00'), 400, 'valor_invalido')
  await refused('/v3/gn/pix/r1', { valor: '1.00', pagador: { chave: PAYER_KEY }, favorecido: {} }, 400, 'valor_invalido')
  await refused('/v3/gn/pix/id-com-traco', toKey('1.00'), 400, 'valor_invalido')
  await refused('/v3/gn/pix/r1', toKey('1000.00'), 400, 'saldo_insuficiente')
  await refused('/v2/gn/pix/r1/mesma-titularidade', toKey('1.00'), 400, 'chave_nao_pertence_ao_documento', /mesmo titular/)
  const res = await call('PUT', '/v3/gn/pix/r1', {}, { 'content-type': 'application/json' })
  t.equal(res.statusCode, 400)
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true }, 'nothing moved')
  t.equal((await call('PUT', '/v3/gn/pix/r1', toKey('1.00'))).statusCode, 201, 'the idEnvio was not consumed')
})

t.test('the payer\'s key must have a webhook: 400 webhook_nao_cadastrado on every pay-out route', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app, { webhook: false })
  for (const [url, body] of [['/v3/gn/pix/w1', toKey('1.00')], ['/v2/gn/pix/w1', toKey('1.00')], ['/v2/gn/pix/w1/qrcode', { pagador: { chave: PAYER_KEY }, pixCopiaECola: '000201' }]] as const) {
    const res = await call('PUT', url, body)
    t.equal(res.statusCode, 400, url)
    t.match(res.json(), { nome: 'webhook_nao_cadastrado', mensagem: /webhook/ })
  }
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
})

t.test('to account data, and mesma-titularidade to the account\'s own document', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app)
  const contaBanco = { nome: 'JOSE CARVALHO', cpf: '10519952057', codigoBanco: '09089356', agencia: '1', conta: '123453', tipoConta: 'cacc' }
  const res = await call('PUT', '/v3/gn/pix/conta1', { valor: '3.00', pagador: { chave: PAYER_KEY }, favorecido: { contaBanco } })
  t.equal(res.statusCode, 201, res.body)
  await advance(app, 1000)
  t.match((await call('GET', '/v2/gn/pix/enviados/id-envio/conta1')).json(), {
    status: 'REALIZADO',
    chave: PAYER_KEY,
    favorecido: { contaBanco: { nome: 'JOSE CARVALHO', cpf: '***.199.520-**', codigoBanco: '09089356', agencia: '1', conta: '123453', tipoConta: 'cacc' } },
  })
  const own = await call('PUT', '/v2/gn/pix/own1/mesma-titularidade', { valor: '2.00', pagador: { chave: PAYER_KEY }, favorecido: { contaBanco: { ...contaBanco, cpf: undefined, cnpj: PAYER_DOC } } })
  t.equal(own.statusCode, 201, own.body)
  await advance(app, 1000)
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 3.5 - 2.5, blocked: 0, invariantHolds: true })
  t.equal((await sentDeliveries(app, acc.accountId)).length, 2)
})

t.test('a cash-out scenario that fails the pay-out: NAO_REALIZADO, released, and the callback carries gnExtras.erro', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app)
  const res = await call('PUT', '/v3/gn/pix/closed1', toKey('5.00'), { 'x-sandbox-scenario': 'ACCOUNT_CLOSED' })
  t.equal(res.statusCode, 201, res.body)
  t.match(res.headers['x-sandbox-scenario-applied'], /ACCOUNT_CLOSED/)
  await advance(app, 1000)
  t.match((await call('GET', '/v2/gn/pix/enviados/id-envio/closed1')).json(), { status: 'NAO_REALIZADO' })
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true }, 'the reservation came back')
  const [delivery] = await sentDeliveries(app, acc.accountId)
  t.match(delivery.body, { pix: [{ status: 'NAO_REALIZADO', horario: null, gnExtras: { idEnvio: 'closed1', erro: { codigo: 'AC07', origem: 'PSP do usuário recebedor', motivo: String } } }] })

  const funds = await call('PUT', '/v3/gn/pix/funds1', toKey('5.00'), { 'x-sandbox-scenario': 'INSUFFICIENT_FUNDS' })
  t.equal(funds.statusCode, 400)
  t.match(funds.json(), { nome: 'saldo_insuficiente' })
})

t.test('PUT /v2/gn/pix/:idEnvio/qrcode pays a charge of this sandbox for its amount and credits its receiver', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app)
  const receiver = await newAccount(app, { document: '45723174000110', balance: 0, fee: 0 })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${receiver.accountId}` })).json()
  await putDirectory(app, 'loja@example.com', '45723174000110', ispb)
  const cob = await app.inject({ method: 'POST', url: '/v2/cob', headers: bearer(await oauthToken(app, receiver)), payload: { calendario: { expiracao: 3600 }, valor: { original: '7.50' }, chave: 'loja@example.com' } })
  t.equal(cob.statusCode, 201, cob.body)
  const { pixCopiaECola, txid } = cob.json()

  const res = await call('PUT', '/v2/gn/pix/qr1/qrcode', { pagador: { chave: PAYER_KEY, infoPagador: 'QR' }, pixCopiaECola })
  t.equal(res.statusCode, 201, res.body)
  t.match(res.json(), { idEnvio: 'qr1', valor: '7.50', status: 'EM_PROCESSAMENTO' })
  await advance(app, 1000)
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 7.5 - 0.5, blocked: 0, invariantHolds: true })
  t.match(await balanceOf(app, receiver.accountId), { available: 7.5, invariantHolds: true }, 'credited to the charge\'s receiver')
  const paid = await app.inject({ method: 'GET', url: `/v2/cob/${txid}`, headers: bearer(await oauthToken(app, receiver)) })
  t.equal(paid.json().status, 'CONCLUIDA')
  t.match((await sentDeliveries(app, acc.accountId))[0].body, { pix: [{ status: 'REALIZADO', valor: '7.50', gnExtras: { idEnvio: 'qr1' } }] })

  const again = await call('PUT', '/v2/gn/pix/qr2/qrcode', { pagador: { chave: PAYER_KEY }, pixCopiaECola })
  t.equal(again.statusCode, 400)
  t.match(again.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/QrcodeOperacaoInvalida', title: 'Operação Inválida', status: 400, violacoes: [{ razao: String, propriedade: 'qrcode.pagador' }] })
  const garbage = await call('PUT', '/v2/gn/pix/qr3/qrcode', { pagador: { chave: PAYER_KEY }, pixCopiaECola: 'not a code' })
  t.equal(garbage.statusCode, 400)
  t.match(garbage.json(), { type: /QrcodeOperacaoInvalida$/ })
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 7.5 - 0.5, blocked: 0 }, 'nothing more moved')
})

t.test('scopes: a token without the route\'s scope is 403 insufficient_scope; a token of POST /oauth/token carries Efí\'s scopes', async t => {
  const app = await buildTestApp(t)
  const { call } = await payer(app, { scope: 'cob.read gn.pix.send.read' })
  const res = await call('PUT', '/v3/gn/pix/s1', toKey('1.00'))
  t.equal(res.statusCode, 403)
  t.same(res.json(), { error: 'insufficient_scope', error_description: 'Access token has insufficient scope' })
  t.equal((await call('GET', '/v2/gn/pix/enviados/id-envio/s1')).statusCode, 404, 'a read within its scopes')
  const full = await payer(app)
  t.equal((await full.call('PUT', '/v3/gn/pix/s1', toKey('1.00'))).statusCode, 201)
})

t.test('reads: 404 PixEnviadoNaoEncontrado as problem details; bad list parameters in Efí\'s { nome, mensagem }', async t => {
  const app = await buildTestApp(t)
  const { call } = await payer(app)
  const byId = await call('GET', '/v2/gn/pix/enviados/id-envio/nada')
  t.equal(byId.statusCode, 404)
  t.same(byId.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/PixEnviadoNaoEncontrado', title: 'Não Encontrado', status: 404, detail: 'Pix enviado não encontrado para o idEnvio informado.' })
  const byE2e = await call('GET', `/v2/gn/pix/enviados/E${'0'.repeat(31)}`)
  t.equal(byE2e.statusCode, 404)
  t.match(byE2e.json(), { type: /PixEnviadoNaoEncontrado$/, detail: 'Pix enviado não encontrado para o e2eId informado.' })
  const list = await call('GET', '/v2/gn/pix/enviados?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z')
  t.equal(list.statusCode, 400)
  t.match(list.json(), { nome: 'valor_invalido', mensagem: /fim/ })
  t.equal((await call('GET', '/v2/gn/pix/enviados')).statusCode, 400, 'inicio and fim are required')
})

t.test('Efí\'s routes beside API Pix\'s: neither takes the other\'s paths, each answers its own 404', async t => {
  for (const base of ['/v2', '/pix/v2']) {
    const app = await buildTestApp(t, { apiPixBasePath: base })
    const { call } = await payer(app, { base })
    const v3 = base.replace(/v2$/, 'v3')
    t.equal((await call('GET', `${base}/cob?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z`)).statusCode, 200, `API Pix at ${base}`)
    t.equal((await call('GET', `${base}/gn/pix/enviados/id-envio/x`)).statusCode, 404)
    t.equal((await call('PUT', `${v3}/gn/pix/b1`, toKey('1.00'))).statusCode, 201, `Efí's v3 at ${v3}`)
    const unknown = await call('GET', `${base}/gn/nada`)
    t.equal(unknown.statusCode, 404)
    t.same(unknown.json(), { type: 'https://api-pix.gerencianet.com.br/v2/gn/NaoEncontrado', title: 'Não encontrado', status: 404, detail: 'Recurso não encontrado ou não pertence à conta autenticada' })
    const v3unknown = await call('GET', `${v3}/gn/nada`)
    t.equal(v3unknown.statusCode, 404)
    t.match(v3unknown.json(), { type: /\/v2\/gn\/NaoEncontrado$/ })
    const apiPix = await call('GET', `${base}/nada`)
    t.equal(apiPix.statusCode, 404)
    t.match(apiPix.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado' }, 'API Pix\'s own 404 elsewhere under its base path')
  }
})

t.test('Efí\'s homologação profile: by key only to its test key; up to R$ 10.00 confirmed, 10.01 to 20.00 rejected by webhook, above 20.00 refused on the request', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app, { homologacao: true })
  const view = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.match(view, { efiHomologacao: true, accountNumber: String(acc.accountId) })
  const ordinary = await newAccount(app, {})
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${ordinary.accountId}` })).json(), { efiHomologacao: false }, 'off unless asked')

  const test = (valor: string) => ({ valor, pagador: { chave: PAYER_KEY }, favorecido: { chave: 'EfiPay@SejaEfi.com.br' } })
  const other = await call('PUT', '/v3/gn/pix/h0', toKey('1.00'))
  t.equal(other.statusCode, 400)
  t.match(other.json(), { nome: 'chave_invalida', mensagem: /efipay@sejaefi\.com\.br/ })

  const over = await call('PUT', '/v3/gn/pix/h3', test('20.01'))
  t.equal(over.statusCode, 422)
  t.same(over.json(), { nome: 'pagamento_negado', mensagem: 'Pagamento negado por análises (homologação: valores acima de R$ 20.00 são rejeitados na requisição)' })
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true }, 'nothing reserved')

  t.equal((await call('PUT', '/v3/gn/pix/h1', test('10.00'))).statusCode, 201)
  t.equal((await call('PUT', '/v3/gn/pix/h2', test('10.01'))).statusCode, 201, 'accepted on the request')
  t.equal((await call('PUT', '/v3/gn/pix/h3', test('20.00'))).statusCode, 201, 'the idEnvio refused above was not consumed')
  const bank = { valor: '50.00', pagador: { chave: PAYER_KEY }, favorecido: { contaBanco: { nome: 'JOSE', cpf: '10519952057', codigoBanco: '09089356', agencia: '1', conta: '123453', tipoConta: 'svgs' } } }
  t.equal((await call('PUT', '/v3/gn/pix/h4', bank)).statusCode, 201, 'by account data: no amount bands')
  await advance(app, 1000)

  const status = async (id: string) => (await call('GET', `/v2/gn/pix/enviados/id-envio/${id}`)).json().status
  t.same([await status('h1'), await status('h2'), await status('h3'), await status('h4')], ['REALIZADO', 'NAO_REALIZADO', 'NAO_REALIZADO', 'REALIZADO'])
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 10.5 - 50.5, blocked: 0, invariantHolds: true }, 'only the confirmed ones debited')
  const log = await sentDeliveries(app, acc.accountId)
  t.same(log.map(d => [d.body.pix[0].gnExtras.idEnvio, d.body.pix[0].status]).sort(), [['h1', 'REALIZADO'], ['h2', 'NAO_REALIZADO'], ['h3', 'NAO_REALIZADO'], ['h4', 'REALIZADO']])
  t.match(log.find(d => d.body.pix[0].gnExtras.idEnvio === 'h2').body.pix[0], { chave: PAYER_KEY, horario: null, gnExtras: { erro: { codigo: 'AB03', origem: 'PSP do usuário recebedor' } } })
  t.match((await call('GET', '/v2/gn/pix/enviados/id-envio/h1')).json().favorecido, { chave: 'efipay@sejaefi.com.br', identificacao: { nome: /EFI/, cnpj: '**.089.356/0001-**' } })
})

t.test('Efí\'s homologação: R$ 4.00 comes back as two devoluções of R$ 2.00, R$ 5.00 as one of R$ 5.00, each credited and announced', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await payer(app, { homologacao: true })
  const test = (valor: string) => ({ valor, pagador: { chave: PAYER_KEY }, favorecido: { chave: 'efipay@sejaefi.com.br' } })
  t.equal((await call('PUT', '/v3/gn/pix/d4', test('4.00'))).statusCode, 201)
  t.equal((await call('PUT', '/v3/gn/pix/d5', test('5.00'))).statusCode, 201)
  t.equal((await call('PUT', '/v3/gn/pix/d6', test('6.00'))).statusCode, 201)
  await advance(app, 1000)
  t.match(await balanceOf(app, acc.accountId), { available: 100 - 3 * 0.5 - 6, blocked: 0, invariantHolds: true }, 'the 4.00 and the 5.00 came back; the fees and the 6.00 did not')
  const status = async (id: string) => (await call('GET', `/v2/gn/pix/enviados/id-envio/${id}`)).json().status
  t.same([await status('d4'), await status('d5'), await status('d6')], ['REALIZADO', 'REALIZADO', 'REALIZADO'])
  const log = await sentDeliveries(app, acc.accountId)
  const returned = (id: string) => log.filter(d => d.body.pix[0].gnExtras.idEnvio === id && d.body.pix[0].devolucoes !== undefined).map(d => d.body.pix[0].devolucoes[0])
  t.match(returned('d4'), [{ rtrId: /^D/, valor: '2.00', status: 'DEVOLVIDO' }, { valor: '2.00', status: 'DEVOLVIDO' }])
  t.match(returned('d5'), [{ valor: '5.00', status: 'DEVOLVIDO' }])
  t.same(returned('d6'), [])
  t.equal(log.filter(d => d.body.pix[0].devolucoes === undefined).length, 3, 'and one callback each as it settled')

  // The reads list them too, and the list filters on them.
  t.match((await call('GET', '/v2/gn/pix/enviados/id-envio/d4')).json().devolucoes, [{ valor: '2.00', status: 'DEVOLVIDO' }, { valor: '2.00', status: 'DEVOLVIDO' }])
  const d5 = (await call('GET', '/v2/gn/pix/enviados/id-envio/d5')).json()
  t.same((await call('GET', `/v2/gn/pix/enviados/${d5.endToEndId}`)).json().devolucoes, d5.devolucoes)
  t.notOk('devolucoes' in (await call('GET', '/v2/gn/pix/enviados/id-envio/d6')).json(), 'none came back')
  const listed = async (present: boolean) => (await call('GET', `/v2/gn/pix/enviados?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&devolucaoPresente=${present}`)).json().pix.map((p: { idEnvio: string }) => p.idEnvio)
  t.same(await listed(true), ['d4', 'd5'])
  t.same(await listed(false), ['d6'])
})

t.test('GET /v2/gn/pix/enviados lists the account\'s pay-outs only, after a snapshot import too', async t => {
  const app = await buildTestApp(t)
  // Another account of the same holder, its pay-out sent first.
  const other = await payer(app)
  t.equal((await other.call('PUT', '/v3/gn/pix/s2', toKey('2.00'))).statusCode, 201)
  const { acc, call } = await payer(app)
  t.equal((await call('PUT', '/v3/gn/pix/s1', toKey('1.00'))).statusCode, 201)
  // A token each read: an import keeps the accounts, not the tokens issued before it.
  const ids = async () => (await app.inject({ method: 'GET', url: '/v2/gn/pix/enviados?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z', headers: bearer(await oauthToken(app, acc)) })).json().pix.map((p: { idEnvio: string }) => p.idEnvio)
  t.same(await ids(), ['s1'])
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await call('PUT', '/v3/gn/pix/s3', toKey('3.00'))).statusCode, 201)
  t.same(await ids(), ['s1', 's3'])
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same(await ids(), ['s1'], 'the import\'s pay-outs')
})
