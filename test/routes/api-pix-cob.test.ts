import t from 'tap'
import { parseBrCode } from '../../server/domain/brcode.js'
import { aTxid, payCode } from '../helpers/payins.js'
import { bearer, buildTestApp, newAccount, T0, tokenFor } from '../helpers/app.js'
import { apiPixClient as client, checkAnswer, checkProblems, listedTxids, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'

/**
 * API Pix's immediate charges under /v2 (docs/api-pix.md, cob): PUT, POST, PATCH, GET and the list,
 * over the same records as the gateway's /cob, every answer (success or error) validated against
 * BACEN's API Pix 2.9.0; `location` a URL of at most 77 characters, `pixCopiaECola` the BR Code that
 * carries it; scopes enforced.
 */

const cobBody = (over: Record<string, unknown> = {}) => ({ calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com', ...over })
const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'

t.test('every answer of cob validates against BACEN 2.9.0: creation, revision, reads, the list, and their errors', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { name: 'LOJA RECEBEDORA LTDA' })
  const call = client(app, await oauthToken(app, acc))
  const txid = aTxid(1)

  const created = await call('PUT', `/v2/cob/${txid}`, cobBody({ devedor: { cpf: '52998224725', nome: 'MARIA' }, infoAdicionais: [{ nome: 'pedido', valor: '42' }], solicitacaoPagador: 'informe o pedido' }))
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'PUT', '/cob/{txid}')
  const generated = await call('POST', '/v2/cob', cobBody({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }))
  t.equal(generated.statusCode, 201)
  checkAnswer(t, generated, 'POST', '/cob')
  t.match(generated.json().txid, /^[a-zA-Z0-9]{32}$/)
  const revised = await call('PATCH', `/v2/cob/${txid}`, { valor: { original: '12.50' } })
  t.equal(revised.statusCode, 200)
  checkAnswer(t, revised, 'PATCH', '/cob/{txid}')
  t.match(revised.json(), { revisao: 1, valor: { original: '12.50' } })
  const read = await call('GET', `/v2/cob/${txid}`)
  checkAnswer(t, read, 'GET', '/cob/{txid}')
  t.equal((await payCode(app, read.json().pixCopiaECola)).statusCode, 201)
  const paid = await call('GET', `/v2/cob/${txid}?revisao=1`)
  checkAnswer(t, paid, 'GET', '/cob/{txid}')
  t.match(paid.json(), { status: 'CONCLUIDA', pix: [{ valor: '12.50', txid }] })
  const list = await call('GET', `/v2/cob?${WINDOW}`)
  checkAnswer(t, list, 'GET', '/cob')
  t.equal(list.json().cobs.length, 2)

  // The errors, each in problem details with its tag's type.
  await checkProblems(t, [
    [call('PUT', `/v2/cob/${txid}`, cobBody()), 'PUT', '/cob/{txid}', 400, 'CobOperacaoInvalida'],
    [call('PUT', `/v2/cob/${aTxid(2)}`, { calendario: {}, valor: { original: 10 } }), 'PUT', '/cob/{txid}', 400, 'CobOperacaoInvalida'],
    [call('POST', '/v2/cob', cobBody({ valor: { original: '10' } })), 'POST', '/cob', 400, 'CobOperacaoInvalida'],
    [call('PATCH', `/v2/cob/${txid}`, { valor: { original: '1.00' } }), 'PATCH', '/cob/{txid}', 400, 'CobOperacaoInvalida'],
    [call('PATCH', `/v2/cob/${aTxid(3)}`, { valor: { original: '1.00' } }), 'PATCH', '/cob/{txid}', 404, 'CobNaoEncontrado'],
    [call('GET', `/v2/cob/${aTxid(3)}`), 'GET', '/cob/{txid}', 404, 'CobNaoEncontrado'],
    [call('GET', `/v2/cob/${txid}?revisao=7`), 'GET', '/cob/{txid}', 400, 'CobConsultaInvalida'],
    [call('GET', '/v2/cob?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z'), 'GET', '/cob', 400, 'CobConsultaInvalida'],
    [call('GET', '/v2/cob?inicio=2026-03-10T00:00:00Z'), 'GET', '/cob', 400, 'CobConsultaInvalida'],
  ])
  const unauthenticated = await app.inject({ method: 'GET', url: `/v2/cob/${txid}` })
  t.equal(unauthenticated.statusCode, 401)
  t.equal(unauthenticated.headers['www-authenticate'], 'Bearer realm="pix-sandbox"')
  checkAnswer(t, unauthenticated, 'GET', '/cob/{txid}')
  const text = await app.inject({ method: 'PUT', url: `/v2/cob/${aTxid(4)}`, headers: { ...bearer(await tokenFor(app, acc)), 'content-type': 'text/plain' }, payload: 'x' })
  t.equal(text.statusCode, 415)
  checkAnswer(t, text, 'PUT', '/cob/{txid}')
})

t.test('location is a URL of the sandbox of at most 77 characters; pixCopiaECola carries it in tag 26-25; loc names it', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  t.match(cob.location, /^localhost:80\/qr\/v2\/[0-9a-f]{32}$/, 'at the Host the request was sent to')
  t.ok(cob.location.length <= 77)
  t.match(cob.loc, { id: 1, location: cob.location, tipoCob: 'cob', criacao: T0, txid: aTxid(1) })
  const code = parseBrCode(cob.pixCopiaECola)
  t.ok(code.ok && code.value.location === cob.location, 'tag 26-25 is the location, without scheme')
  t.ok(code.ok && code.value.amountCents === undefined, 'no tag 54: the payload at the location has the amount')
  // --public-url sets the host payers reach.
  const pub = await buildTestApp(t, { publicUrl: 'https://pix.example.com' })
  const other = (await pub.inject({ method: 'PUT', url: `/v2/cob/${aTxid(1)}`, headers: bearer(await oauthToken(pub)), payload: cobBody() })).json()
  t.match(other.location, /^pix\.example\.com\/qr\/v2\/[0-9a-f]{32}$/)
})

t.test('one charge, two dialects: a cob made on either is visible on both, each in its own shape', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const call = client(app, token)
  const apiPix = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  const rootView = (await call('GET', `/cob/${aTxid(1)}`)).json()
  t.equal(rootView.location, apiPix.pixCopiaECola, 'the gateway shows the copy-and-paste code as location, as the gateway describes')
  t.equal(rootView.txid, apiPix.txid)
  // The gateway's cob keeps its own URL, and API Pix shows it as it is.
  await call('PUT', `/cob/${aTxid(2)}`, { calendario: {}, valor: { original: '5.00' } })
  const fromRoot = await call('GET', `/v2/cob/${aTxid(2)}`)
  checkAnswer(t, fromRoot, 'GET', '/cob/{txid}')
  t.match(fromRoot.json().location, /^pix\.sandbox\.local\/qr\/v2\/cob\/\d+\//)
  t.equal(fromRoot.json().pixCopiaECola, (await call('GET', `/cob/${aTxid(2)}`)).json().pixCopiaECola)
  t.equal((await call('GET', `/v2/cob?${WINDOW}`)).json().cobs.length, 2, 'both listed on API Pix')
  t.equal((await call('GET', `/cob?${WINDOW}`)).json().cobs.length, 2, 'both listed on the gateway')
})

t.test('a cob takes the location loc.id names: the account\'s, of tipoCob cob, serving no other charge', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const call = client(app, await oauthToken(app, acc))
  const loc = (await call('POST', '/v2/loc', { tipoCob: 'cob' })).json()
  const cobv = (await call('POST', '/v2/loc', { tipoCob: 'cobv' })).json()
  const foreign = (await client(app, await oauthToken(app))('POST', '/v2/loc', { tipoCob: 'cob' })).json()
  const taken = await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody({ loc: { id: loc.id } }))
  t.equal(taken.statusCode, 201)
  t.match(taken.json(), { location: loc.location, loc: { id: loc.id, location: loc.location } })
  const before = app.sandbox.store.transactionsOf(acc.accountId).length
  for (const [id, why] of [[loc.id, 'já está sendo utilizado'], [cobv.id, 'apresenta tipo cobv'], [foreign.id, 'inexiste'], [999, 'inexiste']] as const) {
    const res = await call('PUT', `/v2/cob/${aTxid(2)}`, cobBody({ loc: { id } }))
    t.equal(res.statusCode, 400, why)
    t.match(res.json(), { type: `${PROBLEM_TYPE}CobOperacaoInvalida`, violacoes: [{ razao: new RegExp(why), propriedade: 'loc.id' }] })
    checkAnswer(t, res, 'PUT', '/cob/{txid}')
  }
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, before, 'a refused creation creates nothing')
  t.equal(Object.keys(app.sandbox.store.data.locations).length, 3, 'and no location')
})

t.test('PATCH: a cancellation is alone; a charge no longer ATIVA is not revised; revisao moves on a real change', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())
  const both = await call('PATCH', `/v2/cob/${aTxid(1)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '11.00' } })
  t.equal(both.statusCode, 400)
  t.match(both.json(), { type: `${PROBLEM_TYPE}CobOperacaoInvalida`, violacoes: [{ propriedade: 'status' }] })
  t.equal((await call('GET', `/v2/cob/${aTxid(1)}`)).json().revisao, 0, 'nothing changed')
  t.equal((await call('PATCH', `/v2/cob/${aTxid(1)}`, { chave: 'recebedor@example.com' })).json().revisao, 0, 'the same value: no revision')
  const removed = await call('PATCH', `/v2/cob/${aTxid(1)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  t.match(removed.json(), { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 })
  const again = await call('PATCH', `/v2/cob/${aTxid(1)}`, { valor: { original: '11.00' } })
  t.equal(again.statusCode, 400)
  t.equal(again.json().type, `${PROBLEM_TYPE}CobOperacaoInvalida`)
})

t.test('GET /cob: API Pix\'s filters and paging, locationPresente following the locations', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody({ devedor: { cpf: '52998224725', nome: 'MARIA' } }))
  const second = (await call('PUT', `/v2/cob/${aTxid(2)}`, cobBody({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }))).json()
  await call('PUT', `/v2/cob/${aTxid(3)}`, cobBody())
  await call('PATCH', `/v2/cob/${aTxid(3)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  const txids = listedTxids(t, call, 'cob', WINDOW)
  t.same(await txids('&cpf=52998224725'), [aTxid(1)])
  t.same(await txids('&cnpj=11222333000181'), [aTxid(2)])
  t.same(await txids('&status=REMOVIDA_PELO_USUARIO_RECEBEDOR'), [aTxid(3)])
  t.same(await txids('&paginacao.itensPorPagina=2&paginacao.paginaAtual=1'), [aTxid(3)])
  t.same(await txids('&locationPresente=false'), [])
  await call('DELETE', `/v2/loc/${second.loc.id}/txid`)
  t.same(await txids('&locationPresente=false'), [aTxid(2)], 'unbound from its location')
  t.same(await txids('&locationPresente=true'), [aTxid(1), aTxid(3)])
  const page = (await call('GET', `/v2/cob?${WINDOW}&paginacao.itensPorPagina=2`)).json().parametros.paginacao
  t.same(page, { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 })
  const both = await call('GET', `/v2/cob?${WINDOW}&cpf=52998224725&cnpj=11222333000181`)
  t.equal(both.statusCode, 400)
  t.equal(both.json().type, `${PROBLEM_TYPE}CobConsultaInvalida`)
})

t.test('scopes: each route needs its own, a token without it is 403 AcessoNegado; a gateway token carries the account\'s grant', async t => {
  const app = await buildTestApp(t)
  const reader = await oauthToken(app, undefined, 'cob.read')
  const denied = await client(app, reader)('PUT', `/v2/cob/${aTxid(1)}`, cobBody())
  t.equal(denied.statusCode, 403)
  t.match(denied.json(), { type: `${PROBLEM_TYPE}AcessoNegado`, title: 'Acesso negado', status: 403, detail: /cob\.write/ })
  checkAnswer(t, denied, 'PUT', '/cob/{txid}')
  t.equal((await client(app, reader)('GET', `/v2/cob?${WINDOW}`)).statusCode, 200, 'cob.read reads')
  t.equal((await client(app, reader)('POST', '/v2/loc', { tipoCob: 'cob' })).statusCode, 403, 'payloadlocation.write is another scope')
  t.equal(Object.keys(app.sandbox.store.data.locations).length, 0, 'nothing was created')
  // An account granted only reads: its gateway token cannot write either.
  const limited = await newAccount(app, { scopes: ['cob.read'] })
  t.equal((await client(app, limited.token)('PUT', `/v2/cob/${aTxid(2)}`, cobBody())).statusCode, 403)
  t.equal((await client(app, limited.token)('GET', `/v2/cob?${WINDOW}`)).statusCode, 200)
  // The scope is checked before the body: an invalid body without the scope is 403 too.
  t.equal((await client(app, reader)('PUT', `/v2/cob/${aTxid(1)}`, { nonsense: true })).statusCode, 403)
})

t.test('X-Sandbox-Scenario applies on API Pix\'s cob as on the gateway\'s: AUTO_PAY pays it', async t => {
  const app = await buildTestApp(t)
  const token = await oauthToken(app)
  const res = await app.inject({ method: 'PUT', url: `/v2/cob/${aTxid(1)}`, headers: { ...bearer(token), 'x-sandbox-scenario': 'AUTO_PAY;ms=100' }, payload: cobBody() })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['x-sandbox-scenario-applied'], 'AUTO_PAY;ms=100')
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 100 } })
  t.equal((await client(app, token)('GET', `/v2/cob/${aTxid(1)}`)).json().status, 'CONCLUIDA')
  const unknown = await app.inject({ method: 'PUT', url: `/v2/cob/${aTxid(2)}`, headers: { ...bearer(token), 'x-sandbox-scenario': 'NOPE' }, payload: cobBody() })
  t.equal(unknown.statusCode, 400)
  t.equal(unknown.json().type, `${PROBLEM_TYPE}CobOperacaoInvalida`)
  // The transport faults answer in problem details too, and nothing is performed.
  const limited = await app.inject({ method: 'PUT', url: `/v2/cob/${aTxid(3)}`, headers: { ...bearer(token), 'x-sandbox-scenario': 'RATE_LIMITED;retryAfter=2' }, payload: cobBody() })
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['retry-after'], '2')
  checkAnswer(t, limited, 'PUT', '/cob/{txid}')
  const unavailable = await app.inject({ method: 'GET', url: `/v2/cob/${aTxid(1)}`, headers: { ...bearer(token), 'x-sandbox-scenario': 'SERVICE_UNAVAILABLE' } })
  t.equal(unavailable.statusCode, 503)
  t.equal(unavailable.json().type, `${PROBLEM_TYPE}ServicoIndisponivel`)
  checkAnswer(t, unavailable, 'GET', '/cob/{txid}')
  t.equal((await client(app, token)('GET', `/v2/cob/${aTxid(3)}`)).statusCode, 404, 'the rate-limited creation did nothing')
})

t.test('devedor.cnpj as API Pix writes it: the alphanumeric CNPJ too, with its check digits, where the gateway takes digits only', async t => {
  const app = await buildTestApp(t)
  const token = await oauthToken(app)
  const call = client(app, token)
  const alnum = '12ABC34501DE35'
  const created = await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody({ devedor: { cnpj: alnum, nome: 'EMPRESA' } }))
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'PUT', '/cob/{txid}')
  t.same((await call('GET', `/v2/cob?${WINDOW}&cnpj=${alnum}`)).json().cobs.map((c: { txid: string }) => c.txid), [aTxid(1)])
  const revised = await call('PATCH', `/v2/cob/${aTxid(1)}`, { devedor: { cnpj: '11222333000181', nome: 'OUTRA' } })
  t.equal(revised.statusCode, 200)
  t.equal((await call('PATCH', `/v2/cob/${aTxid(1)}`, { devedor: { cnpj: alnum, nome: 'EMPRESA' } })).statusCode, 200, 'and back on a revision')
  const wrong = await call('PUT', `/v2/cob/${aTxid(2)}`, cobBody({ devedor: { cnpj: '12ABC34501DE36', nome: 'EMPRESA' } }))
  t.equal(wrong.statusCode, 400, 'wrong check digits')
  t.match(wrong.json().violacoes, [{ razao: /devedor\.cnpj inválido/ }])
  const root = await app.inject({ method: 'PUT', url: `/cob/${aTxid(3)}`, headers: bearer(token), payload: cobBody({ devedor: { cnpj: alnum, nome: 'EMPRESA' } }) })
  t.equal(root.statusCode, 400, 'the gateway keeps docs/gateway.md §7.7\'s digits')
})
