import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { balanceOf, bearer, buildTestApp, newAccount, NO_MTLS_CHECK } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { advance, aTxid, payCode, receiveIncoming } from '../helpers/payins.js'

/**
 * Efí's split configurations (docs/efi.md, Split): POST /v2/gn/split/config, PUT and GET
 * /v2/gn/split/config/:id (revisions, ?revisao=), Efí's rules refused in its problem type and changing
 * nothing; links to cobs and cobvs, and PUT /v2/gn/split/pix/:e2eid/devolucao/:id.
 */

async function accounts (app: FastifyInstance) {
  // Its webhook names an example domain nobody runs: the mTLS check at registration is off for it.
  const acc = await newAccount(app, { document: '11222333000181', balance: 0, fee: 0, ...NO_MTLS_CHECK })
  const fav = await newAccount(app, { document: '52998224725', balance: 0, fee: 0 })
  const view = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  const favView = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${fav.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: view.document, ispb: view.ispb, bankName: 'SANDBOX' } })
  const token = await oauthToken(app, acc)
  await app.inject({ method: 'PUT', url: `/v2/webhook/${KEY}`, headers: bearer(token), payload: { webhookUrl: 'https://erp.example.com/efi' } })
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as string } : {}) })
  return { acc, fav, conta: favView.accountNumber as string, call }
}

const KEY = 'loja@example.com'

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

/** Requests with a fresh token of the account (an import keeps no token issued before it). */
async function caller (app: FastifyInstance, acc: Parameters<typeof oauthToken>[1]) {
  const token = await oauthToken(app, acc)
  return (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as string } : {}) })
}

const available = async (app: FastifyInstance, accountId: number) => (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${accountId}` })).json().balance.available

t.test('a cob linked to a configuration: paid, each repasse credited to its favorecido account, the /pix callback naming the configuration', async t => {
  const app = await buildTestApp(t)
  const { acc, fav, conta, call } = await accounts(app)
  const { id } = (await call('POST', '/v2/gn/split/config', config(conta))).json()
  const txid = aTxid(1)
  const cob = await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '100.00' }, chave: KEY })
  t.equal(cob.statusCode, 201, cob.body)

  t.equal((await call('GET', `/v2/gn/split/cob/${txid}`)).statusCode, 404, 'not linked yet')
  const link = await app.inject({ method: 'PUT', url: `/v2/gn/split/cob/${txid}/vinculo/${id}`, headers: { ...bearer((await oauthToken(app, acc))), 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' } })
  t.equal(link.statusCode, 204, link.body)
  // A later revision leaves the linked charge on the one it was linked with.
  await call('PUT', `/v2/gn/split/config/${id}`, config(conta, '10.00', '90.00'))
  t.match((await call('GET', `/v2/gn/split/cob/${txid}`)).json(), { txid, status: 'ATIVA', valor: { original: '100.00' }, config: { id, revisao: 0, status: 'ATIVA', descricao: 'Batatinha frita' }, repasses: [{ favorecido: { conta }, valor: '40.00', status: 'WAITING' }] })

  const paid = await payCode(app, cob.json().pixCopiaECola)
  t.equal(paid.statusCode < 300, true, paid.body)
  t.equal(await available(app, acc.accountId), 60, 'the receiver keeps its part')
  t.equal(await available(app, fav.accountId), 40, 'the favorecido account is credited its repasse')
  t.match((await call('GET', `/v2/gn/split/cob/${txid}`)).json(), { status: 'CONCLUIDA', repasses: [{ valor: '40.00', status: 'PAID' }] })
  const deliveries = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}` })).json().deliveries.filter((d: { eventType: string }) => d.eventType === 'pix')
  t.match(deliveries[0]?.body.pix[0], { txid, valor: '100.00', gnExtras: { split: { id, revisao: 0 } } })
  for (const a of [acc, fav]) t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })).json().invariantHolds, true, 'the ledger balances')

  const late = await call('DELETE', `/v2/gn/split/cob/${txid}/vinculo`)
  t.equal(late.statusCode, 400, 'a paid charge is no longer ATIVA')
  t.match(late.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/SplitOperacaoInvalida', violacoes: [{ razao: /não está ATIVA/ }] })
})

t.test('link and unlink a cob and a cobv (the SDK\'s literal :splitConfigId too); refusals in Efí\'s problem types change nothing', async t => {
  const app = await buildTestApp(t)
  const { conta, call } = await accounts(app)
  const { id } = (await call('POST', '/v2/gn/split/config', config(conta))).json()
  const fixed = (await call('POST', '/v2/gn/split/config', { ...config(conta), split: { divisaoTarifa: 'proporcional', minhaParte: { tipo: 'fixo', valor: '60.00' }, repasses: [{ tipo: 'fixo', valor: '30.00', favorecido: { cpf: '52998224725', conta } }] } })).json()
  const txid = aTxid(2)
  t.equal((await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '100.00' }, chave: KEY })).statusCode, 201)
  const dueTxid = aTxid(3)
  const cobv = await call('PUT', `/v2/cobv/${dueTxid}`, { calendario: { dataDeVencimento: '2099-12-31', validadeAposVencimento: 3 }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '90.00' }, chave: KEY })
  t.equal(cobv.statusCode, 201, cobv.body)

  const mismatch = await call('PUT', `/v2/gn/split/cob/${txid}/vinculo/${fixed.id}`)
  t.equal(mismatch.statusCode, 400)
  t.match(mismatch.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/SplitOperacaoInvalida', violacoes: [{ razao: /soma dos valores fixos/ }] })
  t.equal((await call('GET', `/v2/gn/split/cob/${txid}`)).statusCode, 404, 'a refused link links nothing')
  const noConfig = await call('PUT', `/v2/gn/split/cob/${txid}/vinculo/naoexiste`)
  t.equal(noConfig.statusCode, 404)
  t.match(noConfig.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/SplitNaoEncontrado', detail: 'Configuração de Split não encontrada.' })
  t.equal((await call('PUT', `/v2/gn/split/cobv/${txid}/vinculo/${id}`)).statusCode, 404, 'a cob is no cobv')
  t.equal((await call('DELETE', `/v2/gn/split/cob/${txid}/vinculo`)).statusCode, 404, 'nothing to unlink')

  t.equal((await call('PUT', `/v2/gn/split/cob/${txid}/vinculo/${id}`)).statusCode, 204)
  t.equal((await call('PUT', `/v2/gn/split/cobv/${dueTxid}/vinculo/${fixed.id}`)).statusCode, 204, 'fixed parts summing to the cobv\'s value')
  t.match((await call('GET', `/v2/gn/split/cobv/${dueTxid}`)).json(), { txid: dueTxid, config: { id: fixed.id, revisao: 0 }, repasses: [{ valor: '30.00' }] })
  t.equal((await call('DELETE', `/v2/gn/split/cob/${txid}/vinculo/otherconfig`)).statusCode, 404, 'an id that is not the linked one')
  const unlinked = await call('DELETE', `/v2/gn/split/cob/${txid}/vinculo/:splitConfigId`)
  t.equal(unlinked.statusCode, 200, unlinked.body)
  t.equal(unlinked.body, '')
  t.equal((await call('GET', `/v2/gn/split/cob/${txid}`)).statusCode, 404)
  t.equal((await call('DELETE', `/v2/gn/split/cobv/${dueTxid}/vinculo/`)).statusCode, 200, 'a trailing slash, as the PHP SDK writes it')
  const gone = await call('GET', `/v2/gn/split/cobv/${dueTxid}`)
  t.equal(gone.statusCode, 404)
  t.match(gone.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/CobrancaSplitNaoEncontrada' })
})

t.test('a favorecido account removed: a link is refused; one linked before fails its repasse and debits nothing', async t => {
  const app = await buildTestApp(t)
  const made = await accounts(app)
  const { acc, fav, conta } = made
  let call = made.call
  const { id } = (await call('POST', '/v2/gn/split/config', config(conta))).json()
  const linked = aTxid(4)
  const cob = (await call('PUT', `/v2/cob/${linked}`, { calendario: { expiracao: 3600 }, valor: { original: '100.00' }, chave: KEY })).json()
  t.equal((await call('PUT', `/v2/gn/split/cob/${linked}/vinculo/${id}`)).statusCode, 204)
  // The control plane removes no account; an imported snapshot without it does.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  delete snapshot.accounts[String(fav.accountId)]
  const imported = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(imported.statusCode, 200, imported.body.slice(0, 300))
  call = await caller(app, acc)

  const later = aTxid(5)
  await call('PUT', `/v2/cob/${later}`, { calendario: { expiracao: 3600 }, valor: { original: '100.00' }, chave: KEY })
  const refused = await call('PUT', `/v2/gn/split/cob/${later}/vinculo/${id}`)
  t.equal(refused.statusCode, 400)
  t.match(refused.json(), { violacoes: [{ razao: /não existe/ }] })

  t.equal((await payCode(app, cob.pixCopiaECola)).statusCode < 300, true)
  t.equal(await available(app, acc.accountId), 100, 'the receiver keeps the whole payment')
  t.match((await call('GET', `/v2/gn/split/cob/${linked}`)).json(), { repasses: [{ status: 'FAILED' }] })
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json().invariantHolds, true)
})

t.test('PUT /v2/gn/split/pix/:e2eid/devolucao/:id: API Pix\'s devolução of a linked charge\'s PIX, from the receiver\'s balance, repasses untouched', async t => {
  const app = await buildTestApp(t)
  const { acc, fav, conta, call } = await accounts(app)
  const { id } = (await call('POST', '/v2/gn/split/config', config(conta))).json()
  const txid = aTxid(6)
  const cob = (await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '100.00' }, chave: KEY })).json()
  t.equal((await call('PUT', `/v2/gn/split/cob/${txid}/vinculo/${id}`)).statusCode, 204)
  const e2eid = (await payCode(app, cob.pixCopiaECola)).json().endToEndId as string
  t.same(await balanceOf(app, acc.accountId), { available: 60, blocked: 0, invariantHolds: true })

  const res = await call('PUT', `/v2/gn/split/pix/${e2eid}/devolucao/dev1`, { valor: '50.00', descricao: 'Devolução com split' })
  t.equal(res.statusCode, 201, res.body)
  t.match(res.json(), { id: 'dev1', valor: '50.00', natureza: 'ORIGINAL', descricao: 'Devolução com split', status: 'EM_PROCESSAMENTO' })
  t.match(res.json().rtrId, /^D[a-zA-Z0-9]{31}$/)
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 50, invariantHolds: true }, 'reserved from the receiver\'s own balance')
  await advance(app, 50)
  const read = await call('GET', `/v2/pix/${e2eid}/devolucao/dev1`)
  t.match(read.json(), { id: 'dev1', valor: '50.00', status: 'DEVOLVIDO' }, 'API Pix reads the same devolução')
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
  t.same(await balanceOf(app, fav.accountId), { available: 40, blocked: 0, invariantHolds: true }, 'the repasse paid stays with the favorecido')
  t.match((await call('GET', `/v2/gn/split/cob/${txid}`)).json(), { repasses: [{ valor: '40.00', status: 'PAID' }] })

  // API Pix's rules, in its problem type, changing nothing.
  const refusals: Array<[string, unknown, RegExp]> = [
    ['dev1', { valor: '1.00' }, /já existe/],
    ['dev2', { valor: '20.00' }, /Saldo disponível insuficiente/],
    ['dev2', { valor: '60.00' }, /excede o valor ainda devolvível/],
    ['dev2', { valor: '1' }, /decimal com 2 casas/],
    ['dev2', { valor: '1.00', natureza: 'RETIRADA' }, /RETIRADA/],
  ]
  for (const [devId, body, detail] of refusals) {
    const refused = await call('PUT', `/v2/gn/split/pix/${e2eid}/devolucao/${devId}`, body)
    t.equal(refused.statusCode, 400, JSON.stringify(body))
    t.match(refused.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida', status: 400, detail })
  }
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true }, 'a refusal moves nothing')
  t.equal((await call('GET', `/v2/pix/${e2eid}/devolucao/dev2`)).statusCode, 404)

  // Any other PIX: 404 in Efí's split problem type.
  const plainTxid = aTxid(7)
  const plain = (await call('PUT', `/v2/cob/${plainTxid}`, { calendario: { expiracao: 3600 }, valor: { original: '30.00' }, chave: KEY })).json()
  const plainE2e = (await payCode(app, plain.pixCopiaECola)).json().endToEndId as string
  const { endToEndId: noCharge } = await receiveIncoming(app, acc.accountId, 5)
  for (const other of [plainE2e, noCharge, `E${'9'.repeat(31)}`]) {
    const refused = await call('PUT', `/v2/gn/split/pix/${other}/devolucao/dev3`, { valor: '1.00' })
    t.equal(refused.statusCode, 404, other)
    t.match(refused.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/SplitNaoEncontrado', status: 404, detail: /não é de uma cobrança vinculada/ })
  }
  // The favorecido's repasse arrived as a PIX of no charge: not its split PIX.
  const favCall = await caller(app, fav)
  const repasse = (await favCall('GET', '/v2/pix?inicio=2026-01-01T00:00:00Z&fim=2099-01-01T00:00:00Z')).json().pix[0]
  t.equal(repasse?.valor, '40.00', 'the favorecido received its repasse')
  t.equal((await favCall('PUT', `/v2/gn/split/pix/${repasse.endToEndId}/devolucao/dev4`, { valor: '1.00' })).statusCode, 404)
  // Nor the receiver's PIX for another account.
  t.equal((await favCall('PUT', `/v2/gn/split/pix/${e2eid}/devolucao/dev5`, { valor: '1.00' })).statusCode, 404)
  t.same(await balanceOf(app, acc.accountId), { available: 45, blocked: 0, invariantHolds: true }, '10 + 30 + 5 received, nothing taken by a refusal')
  t.same(await balanceOf(app, fav.accountId), { available: 40, blocked: 0, invariantHolds: true })
})
