import t from 'tap'
import { parseBrCode } from '../../server/domain/brcode.js'
import { balanceOf, bearer, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { advance, aTxid, payCode, recordEmits } from '../helpers/payins.js'

const body = (over: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: '52998224725', nome: 'Fulano de Tal' },
  valor: { original: '123.45' },
  chave: 'recebedor@example.com',
  solicitacaoPagador: 'Serviço realizado.',
  infoAdicionais: [{ nome: 'Pedido', valor: '42' }],
  ...over,
})

t.test('PUT /cob/:txid: 201 ATIVA, revisao 0, loc and location (the EMV code, parseable, without the amount) and the echoes', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const txid = aTxid(1)
  const res = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: body() })
  t.equal(res.statusCode, 201, res.body)
  const cob = res.json()
  t.match(cob, {
    calendario: { criacao: T0, expiracao: 3600 },
    txid,
    revisao: 0,
    loc: { tipoCob: 'cob' },
    status: 'ATIVA',
    devedor: { cpf: '52998224725', nome: 'Fulano de Tal' },
    valor: { original: '123.45', modalidadeAlteracao: 0 },
    chave: 'recebedor@example.com',
    solicitacaoPagador: 'Serviço realizado.',
    infoAdicionais: [{ nome: 'Pedido', valor: '42' }],
  })
  t.type(cob.loc.id, 'number')
  t.equal(cob.loc.location, cob.location)
  t.notOk('pix' in cob)
  const code = parseBrCode(cob.location)
  t.ok(code.ok, 'the location parses and its CRC checks')
  if (code.ok) {
    t.equal(code.value.amountCents, undefined, 'no amount: a dynamic code as BACEN\'s examples, the amount at its location')
    t.equal(code.value.location, `pix.sandbox.local/qr/v2/cob/${cob.loc.id}/${txid}`, 'the payload URL carries the txid (62-05 holds at most 25)')
  }
  const get = await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })
  t.equal(get.statusCode, 200)
  t.same(get.json(), cob)
})

t.test('400s of spec 7.7 in the simple shape; nothing created', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const cases: Array<[string, string, unknown]> = [
    ['txid of 25', 'a'.repeat(25), body()],
    ['txid of 36', 'a'.repeat(36), body()],
    ['txid with a dash', `${'a'.repeat(26)}-`, body()],
    ['CPF of 10 digits', aTxid(2), body({ devedor: { cpf: '5299822472', nome: 'X' } })],
    ['CPF with a wrong check digit', aTxid(2), body({ devedor: { cpf: '52998224724', nome: 'X' } })],
    ['invalid CNPJ', aTxid(2), body({ devedor: { cnpj: '11222333000180', nome: 'X' } })],
    ['valor with 1 decimal', aTxid(2), body({ valor: { original: '10.5' } })],
    ['valor without decimals', aTxid(2), body({ valor: { original: '10' } })],
    ['valor as a number', aTxid(2), body({ valor: { original: 10.5 } })],
    ['chave of 78', aTxid(2), body({ chave: `${'a'.repeat(66)}@example.com` })],
    ['solicitacaoPagador of 141', aTxid(2), body({ solicitacaoPagador: 'x'.repeat(141) })],
    ['no calendario', aTxid(2), { valor: { original: '1.00' } }],
  ]
  for (const [name, txid, payload] of cases) {
    const res = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: payload as object })
    t.equal(res.statusCode, 400, name)
    t.same(Object.keys(res.json()).sort(), ['error', 'message', 'statusCode'], `${name}: simple shape`)
  }
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 0)
  const cnpj = await app.inject({ method: 'PUT', url: `/cob/${aTxid(3)}`, headers: bearer(acc.token), payload: body({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }) })
  t.equal(cnpj.statusCode, 201, 'a legal entity debtor uses cnpj')
})

t.test('409 for a txid the account already used; another account may use it; 401 without token; 404 unknown', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  const b = await newAccount(app)
  const txid = aTxid(4)
  t.equal((await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(a.token), payload: body() })).statusCode, 201)
  const dup = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(a.token), payload: body() })
  t.equal(dup.statusCode, 409)
  t.match(dup.json(), { statusCode: 409, message: /txid/ })
  t.equal((await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(b.token), payload: body() })).statusCode, 201)
  t.equal((await app.inject({ method: 'PUT', url: `/cob/${txid}`, payload: body() })).statusCode, 401)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${aTxid(5)}`, headers: bearer(a.token) })).statusCode, 404)
})

t.test('paying the location concludes the cob, credits the account, emits RECEIVE and lists the pix', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const txid = aTxid(6)
  const cob = (await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: body() })).json()
  const paid = await payCode(app, cob.location, { payer: { name: 'PAGADOR', document: '52998224725' } })
  t.equal(paid.statusCode, 201)
  t.match(paid.json(), { kind: 'COB', status: 'CONCLUIDA', txid, amount: 123.45 })
  const after = (await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })).json()
  t.equal(after.status, 'CONCLUIDA')
  t.same(after.pix, [{ endToEndId: paid.json().endToEndId, txid, valor: '123.45', chave: 'recebedor@example.com', horario: T0, pagador: { nome: 'PAGADOR', cpf: '52998224725' }, devolucoes: [] }])
  t.same(await balanceOf(app, acc.accountId), { available: 123.45, blocked: 0, invariantHolds: true })
  t.match(events, [{ eventType: 'cash_in', payload: { type: 'RECEIVE', data: { txId: txid, status: 'LIQUIDATED', payment: { amount: '123.45', currency: 'BRL' } } } }])
})

t.test('modalidadeAlteracao 1: the code carries no amount and the payer chooses it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const cob = (await app.inject({ method: 'PUT', url: `/cob/${aTxid(7)}`, headers: bearer(acc.token), payload: body({ valor: { original: '10.00', modalidadeAlteracao: 1 } }) })).json()
  const code = parseBrCode(cob.location)
  t.ok(code.ok && code.value.amountCents === undefined)
  t.equal((await payCode(app, cob.location)).statusCode, 400, 'the amount is required')
  t.equal((await payCode(app, cob.location, { amount: 7.5 })).statusCode, 201)
  t.same(await balanceOf(app, acc.accountId), { available: 7.5, blocked: 0, invariantHolds: true })
})

t.test('a cob expires by the clock (REMOVIDA_PELO_PSP) and the receiver can cancel one (PATCH); neither is payable', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const expiring = (await app.inject({ method: 'PUT', url: `/cob/${aTxid(8)}`, headers: bearer(acc.token), payload: body({ calendario: { expiracao: 30 } }) })).json()
  const cancelled = (await app.inject({ method: 'PUT', url: `/cob/${aTxid(9)}`, headers: bearer(acc.token), payload: body({ calendario: {} }) })).json()
  t.equal(cancelled.calendario.expiracao, 86400, 'default expiracao')
  const patch = await app.inject({ method: 'PATCH', url: `/cob/${aTxid(9)}`, headers: bearer(acc.token), payload: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } })
  t.equal(patch.statusCode, 200)
  t.equal(patch.json().status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${aTxid(9)}`, headers: bearer(acc.token), payload: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } })).statusCode, 409, 'final state')
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${aTxid(8)}`, headers: bearer(acc.token), payload: { status: 'CONCLUIDA' } })).statusCode, 400)
  await advance(app, 30_000)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${aTxid(8)}`, headers: bearer(acc.token) })).json().status, 'REMOVIDA_PELO_PSP')
  for (const code of [expiring.location, cancelled.location]) {
    const res = await payCode(app, code)
    t.equal(res.statusCode, 422)
    t.equal(res.json().code, 'QRCODE_NOT_AVAILABLE')
  }
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
})

t.test('scenarios on cob: AUTO_PAY concludes it by the clock, PAYMENT_ERROR removes it without credit', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const auto = await app.inject({ method: 'PUT', url: `/cob/${aTxid(10)}`, headers: { ...bearer(acc.token), 'x-sandbox-scenario': 'AUTO_PAY;ms=1000' }, payload: body() })
  t.equal(auto.headers['x-sandbox-scenario-applied'], 'AUTO_PAY;ms=1000')
  const failing = (await app.inject({ method: 'PUT', url: `/cob/${aTxid(11)}`, headers: { ...bearer(acc.token), 'x-sandbox-scenario': 'PAYMENT_ERROR' }, payload: body() })).json()
  await advance(app, 1000)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${aTxid(10)}`, headers: bearer(acc.token) })).json().status, 'CONCLUIDA')
  t.equal((await payCode(app, failing.location)).statusCode, 201)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${aTxid(11)}`, headers: bearer(acc.token) })).json().status, 'REMOVIDA_PELO_PSP')
  t.same(await balanceOf(app, acc.accountId), { available: 123.45, blocked: 0, invariantHolds: true })
  t.match(events.map(e => (e.payload as { data: { status: string, errorCode: string | null } }).data), [{ status: 'LIQUIDATED', errorCode: null }, { status: 'ERROR', errorCode: 'PAYMENT_ERROR' }])
})
