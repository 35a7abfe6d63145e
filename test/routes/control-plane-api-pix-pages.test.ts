import t, { type Test } from 'tap'
import { buildTestApp, newAccount, NO_MTLS_CHECK, type CreatedAccount } from '../helpers/app.js'
import { apiPixClient, oauthToken, type ApiPixCall } from '../helpers/api-pix.js'
import { enumerations } from '../helpers/enumerations.js'
import { aTxid } from '../helpers/payins.js'
import type { FastifyInstance } from 'fastify'
import type { Collection } from '../../server/store/state.js'

/**
 * The control plane's lists of API Pix's cobvs, locations and webhooks answer a page, the last made
 * first (limit, cursor, nextCursor), of every account or one, read from their services' indexes: a
 * page goes through none of the collections, whatever their size (test/helpers/enumerations.ts).
 */

const WATCHED: readonly Collection[] = ['accounts', 'transactions', 'locations', 'apiPixWebhooks']
const none = Object.fromEntries(WATCHED.map(c => [c, 0]))
const cobv = { calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }

interface Listed { path: string, items: string, id: (record: Record<string, unknown>) => string }
const LISTS: Listed[] = [
  { path: '/__sandbox/cobvs', items: 'cobvs', id: r => String(r.txid) },
  { path: '/__sandbox/locations', items: 'locations', id: r => String(r.id) },
  { path: '/__sandbox/api-pix-webhooks', items: 'webhooks', id: r => `${String(r.accountId)}:${String(r.callback)}` },
]

/** Two accounts' cobvs (each at a location of its own), locations and webhooks, made in turns: the order of the records is not the order of the accounts. */
async function filled (t: Test): Promise<{ app: FastifyInstance, a: CreatedAccount, b: CreatedAccount, made: Record<string, Array<{ accountId: number, id: string }>> }> {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { name: 'LOJA A', ...NO_MTLS_CHECK })
  const b = await newAccount(app, { name: 'LOJA B', ...NO_MTLS_CHECK })
  const calls: Array<[CreatedAccount, ApiPixCall]> = [[a, apiPixClient(app, await oauthToken(app, a))], [b, apiPixClient(app, await oauthToken(app, b))]]
  const made: Record<string, Array<{ accountId: number, id: string }>> = { cobvs: [], locations: [], webhooks: [] }
  const ok = async (res: Promise<{ statusCode: number, body: string }>, status: number) => { const r = await res; t.equal(r.statusCode, status, r.body); return r.body === '' ? undefined : JSON.parse(r.body) }
  for (let n = 0; n < 5; n++) {
    for (const [acc, call] of [calls[n % 2], calls[(n + 1) % 2]]) {
      const txid = aTxid(100 + 10 * n + acc.accountId)
      const charge = await ok(call('PUT', `/v2/cobv/${txid}`, cobv), 201)
      made.cobvs.push({ accountId: acc.accountId, id: txid })
      made.locations.push({ accountId: acc.accountId, id: String(charge.loc.id) })
      const loc = await ok(call('POST', '/v2/loc', { tipoCob: 'cob' }), 201)
      made.locations.push({ accountId: acc.accountId, id: String(loc.id) })
    }
  }
  for (const [path, callback] of [['/v2/webhookrec', 'rec'], ['/v2/webhookcobr', 'cobr']]) {
    for (const [acc, call] of calls) {
      await ok(call('PUT', path, { webhookUrl: 'https://erp.example.com/hook' }), 200)
      made.webhooks.push({ accountId: acc.accountId, id: `${acc.accountId}:${callback}` })
    }
  }
  for (const [acc, call] of calls) {
    await ok(call('PUT', `/v2/webhook/${app.sandbox.store.account(acc.accountId)!.document}`, { webhookUrl: 'https://erp.example.com/hook' }), 200)
    made.webhooks.push({ accountId: acc.accountId, id: `${acc.accountId}:pix` })
  }
  return { app, a, b, made }
}

/** Every page of a list from the first, `limit` at a time: the ids of each page. */
async function walk (app: FastifyInstance, list: Listed, query: string, limit: number): Promise<string[][]> {
  const pages: string[][] = []
  let cursor: number | undefined
  for (let i = 0; i < 100; i++) {
    const res = await app.inject({ method: 'GET', url: `${list.path}?${query}&limit=${limit}${cursor !== undefined ? `&cursor=${cursor}` : ''}` })
    if (res.statusCode !== 200) throw new Error(`${list.path}: ${res.statusCode} ${res.body}`)
    const body = res.json()
    pages.push((body[list.items] as Array<Record<string, unknown>>).map(list.id))
    cursor = body.nextCursor
    if (cursor === undefined) return pages
  }
  throw new Error(`${list.path}: no last page`)
}

t.test('the control plane pages the cobvs, the locations and the webhooks of API Pix the last made first, of every account or one, through indexes', async t => {
  const { app, a, b, made } = await filled(t)
  const { counts } = await enumerations(app, WATCHED, async () => {
    for (const list of LISTS) {
      const all = made[list.items].map(r => r.id).reverse()
      const pages = await walk(app, list, '', 3)
      t.same(pages.map(p => p.length), [...Array(Math.floor(all.length / 3)).fill(3), ...(all.length % 3 > 0 ? [all.length % 3] : [])], `${list.path}: pages of the limit, the last one what remains`)
      t.same(pages.flat(), all, `${list.path}: every record once, the last made first`)
      for (const acc of [a, b]) {
        const theirs = made[list.items].filter(r => r.accountId === acc.accountId).map(r => r.id).reverse()
        t.same((await walk(app, list, `accountId=${acc.accountId}`, 2)).flat(), theirs, `${list.path}: one account's, the last made first`)
      }
      const whole = (await app.inject({ method: 'GET', url: list.path })).json()
      t.equal(whole[list.items].length, all.length, `${list.path}: up to 100 by default`)
      t.equal(whole.nextCursor, undefined, `${list.path}: no page after the only one`)
    }
  })
  t.same(counts, none, 'no collection gone through')

  const cobvs = (await app.inject({ method: 'GET', url: `/__sandbox/cobvs?accountId=${a.accountId}&limit=1` })).json()
  t.match(cobvs.cobvs, [{ txid: made.cobvs.filter(r => r.accountId === a.accountId).at(-1)!.id, accountId: a.accountId, status: 'ATIVA', valorHoje: '10.00', chargeId: /./ }], 'a cobv as GET /cobv/{txid} shows it, with what it costs today')
  t.type(cobvs.nextCursor, 'number', 'older ones remain')
  t.match((await app.inject({ method: 'GET', url: '/__sandbox/api-pix-webhooks?limit=1' })).json().webhooks, [{ accountId: b.accountId, callback: 'pix', callbackUrl: 'https://erp.example.com/hook/pix' }])
})

t.test('a page of more than the default holds 100, and the next one the rest', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const call = apiPixClient(app, await oauthToken(app, acc))
  for (let i = 0; i < 105; i++) t.equal((await call('POST', '/v2/loc', { tipoCob: 'cob' })).statusCode, 201)
  const first = (await app.inject({ method: 'GET', url: '/__sandbox/locations' })).json()
  t.equal(first.locations.length, 100)
  const rest = (await app.inject({ method: 'GET', url: `/__sandbox/locations?cursor=${first.nextCursor}` })).json()
  t.equal(rest.locations.length, 5)
  t.equal(rest.nextCursor, undefined)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/locations?limit=1000' })).json().locations.length, 105, 'up to 1000 when asked')
})

t.test('a webhook removed leaves the pages; the pages follow an import', async t => {
  const { app, a, b, made } = await filled(t)
  const call = apiPixClient(app, await oauthToken(app, a))
  // One in the middle of the list: a page that counted it would hold one fewer.
  t.equal((await call('DELETE', '/v2/webhookcobr')).statusCode, 204)
  const list = LISTS[2]
  const left = made.webhooks.filter(w => w.id !== `${a.accountId}:cobr`).map(w => w.id).reverse()
  t.same(await walk(app, list, '', 2), [left.slice(0, 2), left.slice(2, 4), left.slice(4)], 'full pages of the webhooks still configured')
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  for (const each of LISTS) {
    const expected = each === list ? left : made[each.items].map(r => r.id).reverse()
    t.same((await walk(app, each, '', 4)).flat(), expected, `${each.path}: the same after an import`)
  }
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: b.accountId } })).statusCode, 200)
  for (const each of LISTS) {
    t.same((await walk(app, each, '', 4)).flat(), (each === list ? made.webhooks.filter(w => w.id !== `${a.accountId}:cobr`) : made[each.items]).filter(r => r.accountId === a.accountId).map(r => r.id).reverse(), `${each.path}: the reset account's records leave the pages`)
  }
})

t.test('a bad limit, cursor or account is the control plane\'s 400 and changes nothing', async t => {
  const { app } = await filled(t)
  const before = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  for (const list of LISTS) {
    for (const query of ['limit=0', 'limit=1001', 'limit=two', 'limit=1.5', 'cursor=-1', 'cursor=x', 'accountId=0', 'accountId=a']) {
      const res = await app.inject({ method: 'GET', url: `${list.path}?${query}` })
      t.equal(res.statusCode, 400, `${list.path}?${query}`)
      t.match(res.json(), { statusCode: 400, error: 'Bad Request', message: new RegExp(`^${query.split('=')[0]} must`) }, `${list.path}?${query}: the control plane's shape, naming the parameter`)
    }
  }
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json(), before, 'nothing changed')
})
