import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'

/**
 * Efí's split configurations (docs/efi.md, Split): POST /v2/gn/split/config, PUT and GET
 * /v2/gn/split/config/:id (revisions, ?revisao=), Efí's rules refused in its problem type and changing
 * nothing.
 */

async function accounts (app: FastifyInstance) {
  const acc = await newAccount(app, { document: '11222333000181', balance: 0 })
  const fav = await newAccount(app, { document: '52998224725', balance: 0 })
  const favView = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${fav.accountId}` })).json()
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as string } : {}) })
  return { acc, fav, conta: favView.accountNumber as string, call }
}

const config = (conta: string, minha = '60.00', repasse = '40.00') => ({
  descricao: 'Batatinha frita',
  lancamento: { imediato: true },
  split: { divisaoTarifa: 'assumir_total', minhaParte: { tipo: 'porcentagem', valor: minha }, repasses: [{ tipo: 'porcentagem', valor: repasse, favorecido: { cpf: '52998224725', conta } }] },
})

t.test('POST, PUT and GET /v2/gn/split/config: an id chosen, revisions kept, ?revisao= reads an older one', async t => {
  const app = await buildTestApp(t)
  const { acc, conta, call } = await accounts(app)
  t.match(conta, /^[0-9]+$/, 'the account view names the account by its number')
  const created = await call('POST', '/v2/gn/split/config', config(conta))
  t.equal(created.statusCode, 201, created.body)
  const { id } = created.json()
  t.match(id, /^[0-9a-f]{32}$/)
  t.same(created.json(), { id, revisao: 0, status: 'ATIVA', ...config(conta) })

  const revised = await call('PUT', `/v2/gn/split/config/${id}`, config(conta, '50.00', '50.00'))
  t.equal(revised.statusCode, 201, revised.body)
  t.match(revised.json(), { id, revisao: 1, split: { minhaParte: { valor: '50.00' } } })
  t.match((await call('GET', `/v2/gn/split/config/${id}`)).json(), { revisao: 1, split: { minhaParte: { valor: '50.00' } } })
  t.match((await call('GET', `/v2/gn/split/config/${id}?revisao=0`)).json(), { revisao: 0, split: { minhaParte: { valor: '60.00' } } })

  const named = await call('PUT', '/v2/gn/split/config/SplitEstatico001', config(conta))
  t.equal(named.statusCode, 201)
  t.match(named.json(), { id: 'SplitEstatico001', revisao: 0 })

  const missing = await call('GET', '/v2/gn/split/config/naoexiste')
  t.equal(missing.statusCode, 404)
  t.match(missing.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/SplitConfigNaoEncontrado', status: 404 })
  t.equal((await call('GET', `/v2/gn/split/config/${id}?revisao=2`)).statusCode, 404)

  // A snapshot imported into another sandbox brings every revision back.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  const other = await buildTestApp(t)
  t.equal((await other.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const token = await oauthToken(other, acc)
  const read = await other.inject({ method: 'GET', url: `/v2/gn/split/config/${id}?revisao=0`, headers: bearer(token) })
  t.match(read.json(), { id, revisao: 0, split: { minhaParte: { valor: '60.00' } } })
})

t.test('Efí\'s rules: each refused with its razão, in its problem type, changing nothing', async t => {
  const app = await buildTestApp(t)
  const { acc, conta, call } = await accounts(app)
  const own = String(acc.accountId)
  const base = config(conta)
  const cases: Array<[unknown, RegExp]> = [
    [{ ...base, lancamento: { imediato: false } }, /imediata/],
    [config(conta, '70.00', '40.00'), /mais de cem porcento/],
    [config(conta, '50.00', '40.00'), /não atinge cem porcento/],
    [{ ...base, split: { ...base.split, repasses: [{ ...base.split.repasses[0], tipo: 'fixo' }] } }, /tipo do valor/],
    [config(conta, '100.00', '0.00'), /maior que zero/],
    [config('999999'), /não existe/],
    [config(own), /própria conta/],
    [{ ...base, split: { ...base.split, repasses: [{ ...base.split.repasses[0], favorecido: { cpf: '11144477735', conta } }] } }, /documento/],
    [{ ...base, split: { ...base.split, repasses: Array.from({ length: 21 }, () => base.split.repasses[0]) } }, /repasses/],
  ]
  for (const [body, razao] of cases) {
    const res = await call('PUT', '/v2/gn/split/config/cfg1', body)
    t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 120))
    t.match(res.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/SplitConfigOperacaoInvalida', status: 400, violacoes: [{ razao }] })
  }
  t.equal((await call('GET', '/v2/gn/split/config/cfg1')).statusCode, 404, 'nothing was kept')
})
