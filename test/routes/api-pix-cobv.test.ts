import t from 'tap'
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { parse } from 'yaml'
import { parseBrCode } from '../../server/domain/brcode.js'
import { aTxid, payCode } from '../helpers/payins.js'
import { advance, balanceOf, bearer, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { apiPixBacen, apiPixClient as client, checkAnswer, checkProblems, jwsPart, listedTxids, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { BACEN_YAML } from '../helpers/bacen.js'

/**
 * API Pix's due charges under /v2 (docs/api-pix.md, cobv): PUT, PATCH, GET and the list, every
 * answer (success or error) validated against BACEN's API Pix 2.9.0; the payload at the cobv's
 * location with the amount due on the date the payer means (DPP); the sandbox's pay path paying the
 * amount due on the sandbox clock's day, and nothing after the charge's validity.
 */

const DAY = 24 * 60 * 60 * 1000
// T0 is Tuesday 2026-03-10, 12:00 in São Paulo; the charge is due on Thursday.
const DUE = '2026-03-12'
const cobvBody = (over: Record<string, unknown> = {}) => ({
  calendario: { dataDeVencimento: DUE, validadeAposVencimento: 3 },
  devedor: { cpf: '52998224725', nome: 'MARIA' },
  valor: { original: '100.00' },
  chave: 'recebedor@example.com',
  ...over,
})
/** A fine of 5.00, 1.00 a calendar day late, 0.50 off a calendar day early. */
const RATES = { original: '100.00', multa: { modalidade: 1, valorPerc: '5.00' }, juros: { modalidade: 1, valorPerc: '1.00' }, desconto: { modalidade: 3, valorPerc: '0.50' } }
const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
const pathOf = (location: string) => location.slice(location.indexOf('/'))

t.test('every answer of cobv validates against BACEN 2.9.0: creation, revision, reads, the list, and their errors', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { name: 'LOJA RECEBEDORA LTDA' })
  const call = client(app, await oauthToken(app, acc))
  const txid = aTxid(1)

  const created = await call('PUT', `/v2/cobv/${txid}`, cobvBody({
    valor: { ...RATES, abatimento: { modalidade: 2, valorPerc: '1.00' } },
    infoAdicionais: [{ nome: 'pedido', valor: '42' }],
    solicitacaoPagador: 'informe o pedido',
  }))
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'PUT', '/cobv/{txid}')
  t.match(created.json(), {
    calendario: { criacao: T0, dataDeVencimento: DUE, validadeAposVencimento: 3 },
    txid,
    revisao: 0,
    status: 'ATIVA',
    loc: { tipoCob: 'cobv' },
    recebedor: { nome: 'LOJA RECEBEDORA LTDA' },
    valor: { original: '100.00', multa: { modalidade: 1, valorPerc: '5.00' }, desconto: { modalidade: 3, valorPerc: '0.50' } },
  })
  const dated = await call('PUT', `/v2/cobv/${aTxid(2)}`, cobvBody({
    devedor: { cnpj: '11222333000181', nome: 'EMPRESA' },
    valor: { original: '50.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-11', valorPerc: '5.00' }] } },
  }))
  t.equal(dated.statusCode, 201, dated.body)
  checkAnswer(t, dated, 'PUT', '/cobv/{txid}')
  // The example of BACEN's own request (a modalidade in a string) is taken, as the integer it names.
  const asString = await call('PUT', `/v2/cobv/${aTxid(3)}`, cobvBody({ valor: { original: '10.00', juros: { modalidade: '2', valorPerc: '0.10' } } }))
  t.equal(asString.statusCode, 201, asString.body)
  t.same(asString.json().valor.juros, { modalidade: 2, valorPerc: '0.10' })

  const revised = await call('PATCH', `/v2/cobv/${txid}`, { valor: { original: '120.00' }, calendario: { validadeAposVencimento: 5 } })
  t.equal(revised.statusCode, 200, revised.body)
  checkAnswer(t, revised, 'PATCH', '/cobv/{txid}')
  t.match(revised.json(), { revisao: 1, calendario: { dataDeVencimento: DUE, validadeAposVencimento: 5 }, valor: { original: '120.00', multa: { valorPerc: '5.00' } } })
  const replaced = await call('PUT', `/v2/cobv/${txid}`, cobvBody({ valor: RATES }))
  t.equal(replaced.statusCode, 201, 'a PUT on an ATIVA cobv replaces its fields')
  checkAnswer(t, replaced, 'PUT', '/cobv/{txid}')
  t.match(replaced.json(), { revisao: 2, loc: { id: created.json().loc.id }, calendario: { criacao: T0, validadeAposVencimento: 3 } })
  t.notOk('abatimento' in replaced.json().valor, 'replaced whole')

  const read = await call('GET', `/v2/cobv/${txid}?revisao=2`)
  t.equal(read.statusCode, 200)
  checkAnswer(t, read, 'GET', '/cobv/{txid}')
  const list = await call('GET', `/v2/cobv?${WINDOW}`)
  t.equal(list.statusCode, 200)
  checkAnswer(t, list, 'GET', '/cobv')
  t.same(list.json().cobs.map((c: { txid: string }) => c.txid), [txid, aTxid(2), aTxid(3)])

  t.equal((await call('PUT', `/v2/cob/${aTxid(9)}`, { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: 'recebedor@example.com' })).statusCode, 201)
  await call('PATCH', `/v2/cobv/${aTxid(3)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  await checkProblems(t, [
    [call('PUT', `/v2/cobv/${aTxid(4)}`, cobvBody({ calendario: { dataDeVencimento: '2026-03-09' } })), 'PUT', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PUT', `/v2/cobv/${aTxid(4)}`, cobvBody({ valor: { original: '10.00', multa: { modalidade: 3, valorPerc: '1.00' } } })), 'PUT', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PUT', `/v2/cobv/${aTxid(4)}`, cobvBody({ devedor: { nome: 'SEM DOCUMENTO' } })), 'PUT', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PUT', `/v2/cobv/${aTxid(4)}`, { valor: { original: '10.00' } }), 'PUT', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PUT', `/v2/cobv/${aTxid(9)}`, cobvBody()), 'PUT', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PUT', `/v2/cobv/${aTxid(3)}`, cobvBody()), 'PUT', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PATCH', `/v2/cobv/${aTxid(3)}`, { valor: { original: '1.00' } }), 'PATCH', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PATCH', `/v2/cobv/${txid}`, { calendario: { dataDeVencimento: '2026-02-01' } }), 'PATCH', '/cobv/{txid}', 400, 'CobVOperacaoInvalida'],
    [call('PATCH', `/v2/cobv/${aTxid(5)}`, { valor: { original: '1.00' } }), 'PATCH', '/cobv/{txid}', 404, 'CobVNaoEncontrada'],
    [call('PATCH', `/v2/cobv/${aTxid(9)}`, { valor: { original: '1.00' } }), 'PATCH', '/cobv/{txid}', 404, 'CobVNaoEncontrada'],
    [call('GET', `/v2/cobv/${aTxid(5)}`), 'GET', '/cobv/{txid}', 404, 'CobVNaoEncontrada'],
    [call('GET', `/v2/cobv/${txid}?revisao=7`), 'GET', '/cobv/{txid}', 400, 'CobVConsultaInvalida'],
    [call('GET', '/v2/cobv?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z'), 'GET', '/cobv', 400, 'CobVConsultaInvalida'],
    [call('GET', '/v2/cobv?inicio=2026-03-10T00:00:00Z'), 'GET', '/cobv', 400, 'CobVConsultaInvalida'],
  ])
  t.equal((await call('GET', `/v2/cobv/${aTxid(4)}`)).statusCode, 404, 'no refused creation left a charge')
  t.equal((await call('GET', `/v2/cob/${aTxid(9)}`)).json().status, 'ATIVA', 'the cob of that txid is untouched')
  const unauthenticated = await app.inject({ method: 'GET', url: `/v2/cobv/${txid}` })
  t.equal(unauthenticated.statusCode, 401)
  checkAnswer(t, unauthenticated, 'GET', '/cobv/{txid}')
})

t.test('the violations name the properties, as API Pix lists them', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const res = await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({
    calendario: { dataDeVencimento: '2026-03-01' },
    valor: { original: '10.00', multa: { modalidade: 3, valorPerc: '1.00' } },
    devedor: { cpf: '52998224700', nome: 'MARIA' },
  }))
  t.equal(res.statusCode, 400)
  const properties = res.json().violacoes.map((v: { propriedade: string }) => v.propriedade)
  t.ok(properties.includes('cobv.calendario.dataDeVencimento'), properties.join())
  t.ok(properties.includes('cobv.valor.multa'), properties.join())
  t.ok(properties.includes('cobv.devedor'), properties.join())
  checkAnswer(t, res, 'PUT', '/cobv/{txid}')
})

t.test('location: a URL of at most 77 characters with its own path; pixCopiaECola carries it and no amount; a loc of tipoCob cobv is taken', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const call = client(app, await oauthToken(app, acc))
  const cobv = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody())).json()
  t.match(cobv.location, /^localhost:80\/qr\/v2\/cobv\/[0-9a-f]{32}$/)
  t.ok(cobv.location.length <= 77)
  t.match(cobv.loc, { location: cobv.location, tipoCob: 'cobv', criacao: T0, txid: aTxid(1) })
  const code = parseBrCode(cobv.pixCopiaECola)
  t.ok(code.ok && code.value.location === cobv.location, 'tag 26-25 is the location')
  t.ok(code.ok && code.value.amountCents === undefined, 'the amount depends on the day: the code carries none')

  const loc = (await call('POST', '/v2/loc', { tipoCob: 'cobv' })).json()
  t.match(loc.location, /\/qr\/v2\/cobv\/[0-9a-f]{32}$/)
  const cobLoc = (await call('POST', '/v2/loc', { tipoCob: 'cob' })).json()
  const taken = await call('PUT', `/v2/cobv/${aTxid(2)}`, cobvBody({ loc: { id: loc.id } }))
  t.equal(taken.statusCode, 201, taken.body)
  t.match(taken.json(), { location: loc.location, loc: { id: loc.id } })
  for (const [id, why] of [[loc.id, 'já está sendo utilizado'], [cobLoc.id, 'apresenta tipo cob'], [999, 'inexiste']] as const) {
    const res = await call('PUT', `/v2/cobv/${aTxid(3)}`, cobvBody({ loc: { id } }))
    t.equal(res.statusCode, 400, why)
    t.match(res.json(), { type: `${PROBLEM_TYPE}CobVOperacaoInvalida`, violacoes: [{ razao: new RegExp(why) }] })
    checkAnswer(t, res, 'PUT', '/cobv/{txid}')
  }
  t.equal((await call('GET', `/v2/cobv/${aTxid(3)}`)).statusCode, 404)
  t.equal((await call('GET', `/v2/loc/${loc.id}`)).json().txid, aTxid(2), 'GET /loc shows the cobv it serves')
  // A cob does not take a cobv's location.
  t.equal((await call('PUT', `/v2/cob/${aTxid(4)}`, { calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: 'recebedor@example.com', loc: { id: loc.id } })).statusCode, 400)
  // --public-url sets the host.
  const pub = await buildTestApp(t, { publicUrl: 'https://pix.example.com' })
  const other = (await pub.inject({ method: 'PUT', url: `/v2/cobv/${aTxid(1)}`, headers: bearer(await oauthToken(pub)), payload: cobvBody() })).json()
  t.match(other.location, /^pix\.example\.com\/qr\/v2\/cobv\/[0-9a-f]{32}$/)
})

t.test('the payload at the location: CobVPayload, signed, with the amount due on DPP', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const cobv = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ valor: RATES, solicitacaoPagador: 'pedido 42' }))).json()
  const path = pathOf(cobv.location)
  const validate = apiPixBacen.validatorFor('GET', '/cobv/{pixUrlAccessToken}', 200)
  const payloadOn = async (query: string) => {
    const res = await app.inject({ method: 'GET', url: `${path}${query}` })
    t.equal(res.statusCode, 200, `${query}: ${res.body}`)
    t.equal(res.headers['content-type'], 'application/jose')
    t.match(jwsPart(res.body, 0), { alg: 'ES256', jku: 'http://localhost:80/.well-known/jwks.json' })
    const payload = jwsPart(res.body, 1)
    t.ok(validate(payload), `CobVPayload ${query}: ${JSON.stringify(validate.errors)}`)
    return payload
  }
  const today = await payloadOn('')
  t.match(today, {
    calendario: { criacao: T0, apresentacao: T0, dataDeVencimento: DUE, validadeAposVencimento: 3 },
    txid: aTxid(1),
    revisao: 0,
    status: 'ATIVA',
    devedor: { cpf: '52998224725', nome: 'MARIA' },
    recebedor: { cidade: String },
    chave: 'recebedor@example.com',
    solicitacaoPagador: 'pedido 42',
  })
  t.same(today.valor, { original: '100.00', desconto: '1.00', final: '99.00' }, 'two days early: 2 x 0.50 off')
  t.same((await payloadOn('?DPP=2026-03-12&codMun=3550308')).valor, { original: '100.00', final: '100.00' }, 'on the due date')
  t.same((await payloadOn('?DPP=2026-03-14')).valor, { original: '100.00', multa: '5.00', juros: '2.00', final: '107.00' }, 'two days late: the fine and 2 x 1.00')

  const problem = async (query: string, status: number, propriedade?: string) => {
    const res = await app.inject({ method: 'GET', url: `${path}${query}` })
    t.equal(res.statusCode, status, `${query}: ${res.body}`)
    checkAnswer(t, res, 'GET', '/cobv/{pixUrlAccessToken}')
    if (propriedade !== undefined) t.match(res.json(), { type: `${PROBLEM_TYPE}CobPayloadOperacaoInvalida`, violacoes: [{ propriedade }] })
    return res
  }
  await problem('?DPP=2026-03-09', 400, 'DPP')
  t.same((await payloadOn('?DPP=2026-03-16')).valor, { original: '100.00', multa: '5.00', juros: '4.00', final: '109.00' }, 'the last day of validity, Sunday 15th, moved to Monday')
  await problem('?DPP=2026-03-17', 400, 'DPP')
  await problem('?DPP=16-03-2026', 400, 'DPP')
  await problem('?codMun=123', 400, 'codMun')
  await problem('?codMun=9950308', 400, 'codMun')
  const unknown = await app.inject({ method: 'GET', url: '/qr/v2/cobv/0123456789abcdef0123456789abcdef' })
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().type, `${PROBLEM_TYPE}CobPayloadNaoEncontrado`)
  // A cobv is not served at a cob's path, nor a cob at a cobv's.
  const token = path.slice(path.lastIndexOf('/') + 1)
  t.equal((await app.inject({ method: 'GET', url: `/qr/v2/${token}` })).statusCode, 404)
  const cob = (await call('PUT', `/v2/cob/${aTxid(2)}`, { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: 'recebedor@example.com' })).json()
  t.equal((await app.inject({ method: 'GET', url: `/qr/v2/cobv/${cob.location.slice(-32)}` })).statusCode, 404)

  // Removed, it is gone.
  await call('PATCH', `/v2/cobv/${aTxid(1)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  const gone = await app.inject({ method: 'GET', url: path })
  t.equal(gone.statusCode, 410)
  t.equal(gone.json().type, `${PROBLEM_TYPE}CobPayloadNaoEncontrado`)
  checkAnswer(t, gone, 'GET', '/cobv/{pixUrlAccessToken}')
})

t.test('the pay path pays the amount due on the sandbox clock\'s day; the charge becomes CONCLUIDA with its pix', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  let call = client(app, await oauthToken(app, acc))
  const early = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ valor: RATES }))).json()
  const late = (await call('PUT', `/v2/cobv/${aTxid(2)}`, cobvBody({ valor: RATES }))).json()

  const paidEarly = await payCode(app, early.pixCopiaECola, { payer: { name: 'JOAO', document: '52998224725' } })
  t.equal(paidEarly.statusCode, 201, paidEarly.body)
  t.match(paidEarly.json(), { status: 'CONCLUIDA', amount: 99, txid: aTxid(1) })
  const concluded = await call('GET', `/v2/cobv/${aTxid(1)}`)
  checkAnswer(t, concluded, 'GET', '/cobv/{txid}')
  t.match(concluded.json(), { status: 'CONCLUIDA', pix: [{ valor: '99.00', txid: aTxid(1), chave: 'recebedor@example.com', pagador: { cpf: '52998224725', nome: 'JOAO' } }] })
  const receivedPix = await call('GET', `/v2/pix/${concluded.json().pix[0].endToEndId}`)
  checkAnswer(t, receivedPix, 'GET', '/pix/{e2eid}')
  t.match(receivedPix.json(), { valor: '99.00', txid: aTxid(1), chave: 'recebedor@example.com' }, 'GET /pix shows the key the cobv names')
  t.equal((await payCode(app, early.pixCopiaECola)).statusCode, 422, 'once only')
  t.equal((await app.inject({ method: 'GET', url: pathOf(early.location) })).statusCode, 410, 'its payload is gone once paid')
  const patch = await call('PATCH', `/v2/cobv/${aTxid(1)}`, { valor: { original: '1.00' } })
  t.equal(patch.statusCode, 400, 'a CONCLUIDA cobv is not revised')
  t.equal(patch.json().type, `${PROBLEM_TYPE}CobVOperacaoInvalida`)

  await advance(app, 4 * DAY) // Saturday 2026-03-14: two days late
  call = client(app, await oauthToken(app, acc)) // the token of four days ago has expired
  const paidLate = await payCode(app, late.pixCopiaECola)
  t.equal(paidLate.statusCode, 201, paidLate.body)
  t.match(paidLate.json(), { amount: 107 })
  t.match((await call('GET', `/v2/cobv/${aTxid(2)}`)).json(), { status: 'CONCLUIDA', pix: [{ valor: '107.00' }] })
  t.same(await balanceOf(app, acc.accountId), { available: 206, blocked: 0, invariantHolds: true })
  const received = await call('GET', '/v2/cobv?inicio=2026-03-10T00:00:00Z&fim=2026-03-15T00:00:00Z&status=CONCLUIDA')
  checkAnswer(t, received, 'GET', '/cobv')
  t.equal(received.json().cobs.length, 2)
})

t.test('after its validity a cobv is refused and removed by the PSP (REMOVIDA_PELO_PSP)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = async (method: 'GET' | 'PUT' | 'PATCH', url: string, payload?: unknown) => client(app, await oauthToken(app, acc))(method, url, payload)
  // Due Thursday, 1 day of validity: payable through Friday 2026-03-13.
  const cobv = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ calendario: { dataDeVencimento: DUE, validadeAposVencimento: 1 } }))).json()
  await advance(app, 3 * DAY) // Friday 12:00
  t.equal((await call('GET', `/v2/cobv/${aTxid(1)}`)).json().status, 'ATIVA', 'still payable on its last day')
  await advance(app, 12 * 60 * 60 * 1000) // Saturday 00:00 in São Paulo
  const refused = await payCode(app, cobv.pixCopiaECola)
  t.ok(refused.statusCode >= 400 && refused.statusCode < 500, `refused: ${refused.statusCode} ${refused.body}`)
  const removed = await call('GET', `/v2/cobv/${aTxid(1)}`)
  checkAnswer(t, removed, 'GET', '/cobv/{txid}')
  t.equal(removed.json().status, 'REMOVIDA_PELO_PSP')
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
  t.equal((await app.inject({ method: 'GET', url: pathOf(cobv.location) })).statusCode, 410)
  // Due on a Monday with no day after it: payable the whole of that Monday.
  await call('PUT', `/v2/cobv/${aTxid(2)}`, cobvBody({ calendario: { dataDeVencimento: '2026-03-16', validadeAposVencimento: 0 } }))
  await advance(app, 2 * DAY) // Monday 2026-03-16, 12:00 in São Paulo
  t.equal((await call('GET', `/v2/cobv/${aTxid(2)}`)).json().status, 'ATIVA')
})

t.test('PATCH: a removal is alone; revisao moves on a real change only; loc.id only its own', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ valor: RATES }))
  const both = await call('PATCH', `/v2/cobv/${aTxid(1)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '11.00' } })
  t.equal(both.statusCode, 400)
  t.match(both.json(), { type: `${PROBLEM_TYPE}CobVOperacaoInvalida`, violacoes: [{ propriedade: 'cobv.status' }] })
  checkAnswer(t, both, 'PATCH', '/cobv/{txid}')
  t.equal((await call('PATCH', `/v2/cobv/${aTxid(1)}`, { chave: 'recebedor@example.com', valor: { multa: { modalidade: 1, valorPerc: '5.00' } } })).json().revisao, 0, 'the same values: no revision')
  const desconto = await call('PATCH', `/v2/cobv/${aTxid(1)}`, { valor: { desconto: { modalidade: 5, valorPerc: '0.10' } } })
  t.match(desconto.json(), { revisao: 1, valor: { original: '100.00', multa: { valorPerc: '5.00' }, desconto: { modalidade: 5, valorPerc: '0.10' } } })
  const loc = (await call('POST', '/v2/loc', { tipoCob: 'cobv' })).json()
  const otherLoc = await call('PATCH', `/v2/cobv/${aTxid(1)}`, { loc: { id: loc.id } })
  t.equal(otherLoc.statusCode, 400)
  checkAnswer(t, otherLoc, 'PATCH', '/cobv/{txid}')
  const removed = await call('PATCH', `/v2/cobv/${aTxid(1)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  t.equal(removed.statusCode, 200)
  checkAnswer(t, removed, 'PATCH', '/cobv/{txid}')
  t.match(removed.json(), { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 2 })
  t.equal((await payCode(app, removed.json().pixCopiaECola)).statusCode, 422, 'a removed cobv is not paid')
})

t.test('GET /cobv: API Pix\'s filters and paging, locationPresente following the locations', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody())
  const second = (await call('PUT', `/v2/cobv/${aTxid(2)}`, cobvBody({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }))).json()
  await call('PUT', `/v2/cobv/${aTxid(3)}`, cobvBody({ devedor: { cpf: '11144477735', nome: 'JOSE' } }))
  await call('PATCH', `/v2/cobv/${aTxid(3)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  await call('PUT', `/v2/cob/${aTxid(4)}`, { calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: 'recebedor@example.com', devedor: { cpf: '52998224725', nome: 'MARIA' } })
  const txids = listedTxids(t, call, 'cobv', WINDOW)
  t.same(await txids(''), [aTxid(1), aTxid(2), aTxid(3)], 'cobvs only, not the cob')
  t.same(await txids('&cpf=52998224725'), [aTxid(1)])
  t.same(await txids('&cnpj=11222333000181'), [aTxid(2)])
  t.same(await txids('&status=REMOVIDA_PELO_USUARIO_RECEBEDOR'), [aTxid(3)])
  t.same(await txids('&paginacao.itensPorPagina=2&paginacao.paginaAtual=1'), [aTxid(3)])
  t.same(await txids('&locationPresente=false'), [])
  await call('DELETE', `/v2/loc/${second.loc.id}/txid`)
  t.same(await txids('&locationPresente=false'), [aTxid(2)], 'unbound from its location')
  const unbound = (await call('GET', `/v2/cobv/${aTxid(2)}`)).json()
  t.notOk('location' in unbound || 'pixCopiaECola' in unbound, 'no location, no code')
  t.same(await txids('&locationPresente=true'), [aTxid(1), aTxid(3)])
  const page = (await call('GET', `/v2/cobv?${WINDOW}&paginacao.itensPorPagina=2`)).json()
  t.same(page.parametros.paginacao, { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 })
  const ofBatch = await call('GET', `/v2/cobv?${WINDOW}&loteCobVId=7`)
  checkAnswer(t, ofBatch, 'GET', '/cobv')
  t.match(ofBatch.json(), { parametros: { loteCobVId: 7 }, cobs: [] }, 'none of a batch (api-pix-lotecobv.test.ts has the batch\'s)')
  const both = await call('GET', `/v2/cobv?${WINDOW}&cpf=52998224725&cnpj=11222333000181`)
  t.equal(both.statusCode, 400)
  t.equal(both.json().type, `${PROBLEM_TYPE}CobVConsultaInvalida`)
  checkAnswer(t, both, 'GET', '/cobv')
})

t.test('scopes: cobv.write to write, cobv.read to read; 403 AcessoNegado otherwise, before the body', async t => {
  const app = await buildTestApp(t)
  const reader = client(app, await oauthToken(app, undefined, 'cobv.read'))
  const denied = await reader('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody())
  t.equal(denied.statusCode, 403)
  t.match(denied.json(), { type: `${PROBLEM_TYPE}AcessoNegado`, detail: /cobv\.write/ })
  checkAnswer(t, denied, 'PUT', '/cobv/{txid}')
  t.equal((await reader('PATCH', `/v2/cobv/${aTxid(1)}`, { nonsense: true })).statusCode, 403)
  t.equal((await reader('GET', `/v2/cobv?${WINDOW}`)).statusCode, 200)
  const cobOnly = client(app, await oauthToken(app, undefined, 'cob.read cob.write'))
  t.equal((await cobOnly('GET', `/v2/cobv?${WINDOW}`)).statusCode, 403, 'cob.read is not cobv.read')
  t.equal((await cobOnly('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody())).statusCode, 403)
  t.equal(app.sandbox.store.transactionsOf(1).length, 0, 'nothing was created')
})

t.test('another account\'s cobv is not found, and its txid is free for this one', async t => {
  const app = await buildTestApp(t)
  const mine = client(app, await oauthToken(app))
  const other = await newAccount(app)
  const theirs = client(app, await oauthToken(app, other))
  await mine('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody())
  t.equal((await theirs('GET', `/v2/cobv/${aTxid(1)}`)).statusCode, 404)
  t.equal((await theirs('PATCH', `/v2/cobv/${aTxid(1)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).statusCode, 404)
  t.equal((await theirs('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody())).statusCode, 201)
  t.equal((await mine('GET', `/v2/cobv/${aTxid(1)}`)).json().status, 'ATIVA')
})

t.test('snapshots carry cobvs, validated on import', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const cobv = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ valor: RATES }))).json()
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  const [id] = Object.keys(snapshot.transactions)
  t.equal(snapshot.transactions[id].kind, 'COBV')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })).statusCode, 200)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same((await client(app, await oauthToken(app))('GET', `/v2/cobv/${aTxid(1)}`)).json(), cobv, 'the same cobv')
  t.equal((await app.inject({ method: 'GET', url: pathOf(cobv.location) })).statusCode, 200, 'served again')
  for (const [path, change] of [
    ['data/cobv/valor/multa/modalidade', (d: Record<string, any>) => { d.cobv.valor.multa.modalidade = 3 }],
    ['data/cobv/calendario/validadeAposVencimento', (d: Record<string, any>) => { d.cobv.calendario.validadeAposVencimento = -1 }],
    ['status', (_d: Record<string, any>, tx: Record<string, any>) => { tx.status = 'CONFIRMED' }],
  ] as const) {
    const broken = structuredClone(snapshot)
    change(broken.transactions[id].data, broken.transactions[id])
    const refused = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: broken })
    t.equal(refused.statusCode, 400, path)
    t.match(refused.body, `transactions/${id}/${path}`)
  }
})

t.test('BACEN\'s schemas of cobv, uncorrected, misjudge right answers (the corrections of test/helpers/bacen.ts)', async t => {
  const valor = { original: '100.00', desconto: { modalidade: 3, valorPerc: '0.50' } }
  const raw = parse(readFileSync(BACEN_YAML, 'utf8')).components
  // BACEN's formats (int32, date) are not what this checks: unknown, they are ignored without a word.
  const plain = () => new Ajv({ strict: false, logger: false })
  t.notOk(plain().compile(raw.schemas.CobVValor)(valor), 'desconto 3 to 6: both branches of oneOf match, so oneOf fails')
  const corrected = plain().compile(apiPixBacen.doc.components.schemas.CobVValor)
  t.ok(corrected(valor))
  t.ok(corrected({ original: '100.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-11', valorPerc: '5.00' }] } }))

  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const cobv = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }))).json()
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addFormat('int32', true).addFormat('int64', true).addFormat('date', true).addFormat('date-time', true).addFormat('email', true).addFormat('uri', true)
  ajv.addSchema({ $id: 'raw', components: raw })
  const gerada = ajv.getSchema('raw#/components/schemas/CobVGerada')!
  const missing = () => (gerada.errors ?? []).map(e => e.instancePath === '' && e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : e.message)
  t.notOk(gerada(cobv))
  t.same(missing(), ['logradouro', 'cidade', 'uf', 'cep'], 'DadosRecebedor asks the cobv itself for the recebedor\'s address')
  await call('DELETE', `/v2/loc/${cobv.loc.id}/txid`)
  const unbound = (await call('GET', `/v2/cobv/${aTxid(1)}`)).json()
  t.notOk(gerada(unbound))
  t.ok(missing().includes('location'), 'a cobv unbound from its location has none')
  t.ok(apiPixBacen.validatorFor('GET', '/cobv/{txid}', 200)(unbound), 'corrected, both validate')
})

t.test('a cash-out by QR code of another account pays a cobv the amount due that day, and no other amount', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const cobv = (await call('PUT', `/v2/cobv/${aTxid(1)}`, cobvBody({ valor: RATES }))).json()
  const payer = await newAccount(app, { balance: 500 })
  const pay = (value: number, externalId: string) => app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value, qrCode: cobv.pixCopiaECola, externalId } })
  const wrong = await pay(100, 'qr-cobv-1')
  t.equal(wrong.statusCode, 400, 'the original amount is not what is due two days early')
  t.match(wrong.body, /99\.00/)
  const right = await pay(99, 'qr-cobv-2')
  t.equal(right.statusCode, 201, right.body)
  await advance(app, 1000)
  t.match((await call('GET', `/v2/cobv/${aTxid(1)}`)).json(), { status: 'CONCLUIDA', pix: [{ valor: '99.00' }] })
  t.same(await balanceOf(app, acc.accountId), { available: 99, blocked: 0, invariantHolds: true })
})
