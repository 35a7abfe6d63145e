import t from 'tap'
import { balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'

/**
 * Conformance of the central-bank-compatible family with spec sections 2.2-2.3, 2.8-2.9, 3.2-3.5,
 * 7.6-7.8 and 8 (and with BACEN's API Pix where the spec defers to it): the cases an audit found
 * the sandbox answering differently.
 */

const SIMPLE_KEYS = ['error', 'message', 'statusCode']
const ALNUM_CNPJ = '12ABC34501DE35' // a valid 2026 alphanumeric CNPJ (check digits correct)

const cobBody = (over: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  valor: { original: '10.00' },
  ...over,
})

t.test('spec 7.7: devedor.cnpj must be digits only; an alphanumeric CNPJ is 400 in the simple shape and nothing is created', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const txid = aTxid(1)
  const res = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: cobBody({ devedor: { cnpj: ALNUM_CNPJ, nome: 'EMPRESA' } }) })
  t.equal(res.statusCode, 400, res.body)
  t.same(Object.keys(res.json()).sort(), SIMPLE_KEYS)
  t.match(res.json().message, /devedor\.cnpj/)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })).statusCode, 404)
  const numeric = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: cobBody({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }) })
  t.equal(numeric.statusCode, 201, 'a numeric CNPJ is still accepted')
})

t.test('spec 2.3 / 7.6: pixKey CNPJ is 14 digits; an alphanumeric CNPJ is an invalid key (400), nothing reserved', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const res = await app.inject({
    method: 'POST',
    url: '/dict/pix',
    headers: { ...bearer(acc.token), 'x-idempotency-key': '7c1d2e3f-4a5b-4c6d-8e7f-000000000001' },
    payload: { pixKey: ALNUM_CNPJ, payment: { currency: 'BRL', amount: 10 } },
  })
  t.equal(res.statusCode, 400, res.body)
  t.same(Object.keys(res.json()).sort(), SIMPLE_KEYS)
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
})

t.test('BACEN (PATCH /cob, the way the sandbox cancels): the revision is incremented by 1; creation is revisao 0', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const txid = aTxid(2)
  const created = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: cobBody() })
  t.equal(created.json().revisao, 0)
  const patched = await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(acc.token), payload: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } })
  t.equal(patched.statusCode, 200)
  t.match(patched.json(), { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 })
  const read = await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })
  t.equal(read.json().revisao, 1, 'GET reports the revised charge')
})
