import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, buildTestApp, expectInjectedBug } from '../helpers/app.js'
import { apiPixClient, oauthToken } from '../helpers/api-pix.js'
import { aTxid } from '../helpers/payins.js'
import { recBody } from '../helpers/rec.js'

/**
 * One scheduled job per record and purpose (CONTRIBUTING, "Timed effects"): a request that changes a
 * record replaces the job it had rather than adding one. 2,000 PATCH /v2/rec (a name change) took the
 * scheduler from 1 job to 2,001, and PATCH or a repeated PUT of a lotecobv and PATCH /cob did the same,
 * none ever cancelled. A change rolled back leaves the record's job as it was.
 */

const jobs = async (app: FastifyInstance): Promise<number> => (await app.inject({ method: 'GET', url: '/__sandbox/clock' })).json().pendingJobs
const item = (n: number, valor = `${n}0.00`) => ({
  txid: aTxid(n),
  calendario: { dataDeVencimento: '2026-03-20' },
  devedor: { cpf: '52998224725', nome: 'MARIA' },
  valor: { original: valor },
  chave: 'recebedor@example.com',
})

t.test('a recurrence changed 500 times keeps one expiry job, and still expires when its time comes', async t => {
  const app = await buildTestApp(t)
  const call = apiPixClient(app, await oauthToken(app))
  const before = await jobs(app)
  const rec = await call('POST', '/v2/rec', recBody())
  t.equal(rec.statusCode, 201, rec.body)
  const idRec = rec.json().idRec
  t.equal(await jobs(app), before + 1, 'its expiry')
  for (let i = 0; i < 500; i++) {
    const patched = await call('PATCH', `/v2/rec/${idRec}`, { vinculo: { devedor: { nome: `Fulano ${i}` } } })
    if (patched.statusCode !== 200) throw new Error(patched.body)
  }
  t.equal(await jobs(app), before + 1, 'still one job after 500 changes')
  await advance(app, Date.parse('2027-03-02T04:00:00Z') - app.sandbox.clock.now())
  // A new token: the clock moved a year, past the first one's lifetime.
  const later = apiPixClient(app, await oauthToken(app))
  t.equal((await later('GET', `/v2/rec/${idRec}`)).json().status, 'EXPIRADA', 'the job left is the one that expires it')
})

t.test('a lotecobv put again and patched keeps one processing job, which runs at the latest due time', async t => {
  const app = await buildTestApp(t)
  const call = apiPixClient(app, await oauthToken(app))
  const before = await jobs(app)
  for (let i = 0; i < 100; i++) {
    const put = await call('PUT', '/v2/lotecobv/1', { descricao: `lote ${i}`, cobsv: [item(1), item(2)] })
    if (put.statusCode !== 202) throw new Error(put.body)
  }
  t.equal(await jobs(app), before + 1, 'one job after 100 PUTs of the batch')
  await advance(app, 50)
  t.same((await call('GET', '/v2/lotecobv/1')).json().cobsv.map((c: { status: string }) => c.status), ['CRIADA', 'CRIADA'])
  const afterCreation = await jobs(app)
  for (let i = 0; i < 100; i++) {
    await advance(app, 1)
    const patched = await call('PATCH', '/v2/lotecobv/1', { cobsv: [{ txid: aTxid(1), valor: { original: `${i + 1}.00` } }] })
    if (patched.statusCode !== 202) throw new Error(patched.body)
  }
  t.equal(await jobs(app), afterCreation + 1, 'one job after 100 PATCHes')
  await advance(app, 49)
  t.equal((await call('GET', '/v2/lotecobv/1')).json().cobsv[0].status, 'EM_PROCESSAMENTO', 'not before the last PATCH\'s due time')
  await advance(app, 1)
  t.equal((await call('GET', '/v2/lotecobv/1')).json().cobsv[0].status, 'CRIADA')
  t.equal((await call('GET', `/v2/cobv/${aTxid(1)}`)).json().valor.original, '100.00', 'the last revision applied')
})

t.test('a cob patched 200 times keeps one expiry job', async t => {
  const app = await buildTestApp(t)
  const call = apiPixClient(app, await oauthToken(app))
  const before = await jobs(app)
  t.equal((await call('PUT', `/v2/cob/${aTxid(1)}`, { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: 'recebedor@example.com' })).statusCode, 201)
  const created = await jobs(app)
  t.ok(created > before)
  for (let i = 0; i < 200; i++) {
    const patched = await call('PATCH', `/v2/cob/${aTxid(1)}`, { calendario: { expiracao: 3600 + i } })
    if (patched.statusCode !== 200) throw new Error(patched.body)
  }
  t.equal(await jobs(app), created)
})

t.test('a change rolled back leaves the record\'s job as it was', async t => {
  const app = await buildTestApp(t)
  const sb = app.sandbox
  const call = apiPixClient(app, await oauthToken(app))
  t.equal((await call('PUT', '/v2/lotecobv/1', { descricao: 'lote', cobsv: [item(1)] })).statusCode, 202)
  const before = await jobs(app)
  await advance(app, 20)
  expectInjectedBug(app)
  // The revision schedules the batch again (due 50 ms from now, replacing its job), then the unit fails.
  t.throws(() => sb.store.transact(() => {
    sb.cobvBatches.revise(sb.store.account(1)!, 1, { descricao: 'outro' })
    sb.cobvBatches.revise(sb.store.account(1)!, 1, { cobsv: [{ txid: aTxid(1), valor: { original: '2.00' } }] })
    throw new Error('a late step fails')
  }), { message: /late step/ })
  t.equal(await jobs(app), before, 'one job, as before')
  await advance(app, 30)
  t.equal((await call('GET', '/v2/lotecobv/1')).json().cobsv[0].status, 'CRIADA', 'processed at its own due time, as the change never happened')
  t.equal((await call('GET', `/v2/cobv/${aTxid(1)}`)).json().valor.original, '10.00')
})
