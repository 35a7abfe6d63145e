import t from 'tap'
import { buildTestApp, bearer, documentedOperations, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * Bad input on every route of Efí's (docs/efi.md): malformed bodies, parameters and queries answer a
 * 4xx in Efí's shapes, never a 500, and move no money.
 */

const BODIES: unknown[] = [
  null, [], 'texto', 42, {},
  { valor: '1.00' },
  { valor: '99999999999.99', pagador: { chave: 'x' }, favorecido: { chave: 'y' } },
  { valor: '1.00', pagador: { chave: '' }, favorecido: { contaBanco: { nome: 'A', cpf: '1', cnpj: '2', codigoBanco: 'x', agencia: '12345', conta: '', tipoConta: 'poupanca' } } },
  { valor: '1.00', pagador: { chave: 'a'.repeat(500) }, favorecido: { chave: '__proto__' } },
  { pagador: { chave: 'x' }, pixCopiaECola: '0002'.repeat(300) },
  { pix: { receberSemChave: true, chaves: { 'não é chave': {} } } },
  { pix: { receberSemChave: true, chaves: { 'a@b.com': { recebimento: { txidObrigatorio: 'sim' } } } } },
  { pixCopiaECola: '' },
  { analise: 'aceito', justificativa: 'x'.repeat(2000) },
  { tipo: 'PIX_ENVIADO', e2eids: Array.from({ length: 1001 }, () => 'E'.padEnd(32, '0')) },
  { lancamento: { imediato: 'sim' }, split: { divisaoTarifa: 'metade', minhaParte: { tipo: 'porcentagem', valor: '-1' }, repasses: [] } },
  { lancamento: { imediato: true }, split: { divisaoTarifa: 'proporcional', minhaParte: { tipo: 'porcentagem', valor: '50.00' }, repasses: [{ tipo: 'porcentagem', valor: '50.00', favorecido: { cpf: '52998224725', cnpj: '11222333000181', conta: '99999999999999999999' } }] } },
  { lancamento: { imediato: true }, split: { divisaoTarifa: 'proporcional', minhaParte: { tipo: 'fixo', valor: '0.00' }, repasses: [{ tipo: 'fixo', valor: '1.00', favorecido: { cpf: '52998224725', conta: '1' } }] } },
]

const PARAMS = ['x', 'a'.repeat(80), '%00', '..', '-1', 'E' + 'z'.repeat(31), '00000000-0000-4000-8000-zzzzzzzzzzzz']
const QUERIES = ['', '?inicio=ontem&fim=hoje', '?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&paginacao.paginaAtual=-1', '?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&paginacao.itensPorPagina=0&status=X', '?bloqueios=talvez']

t.test('every route of Efí\'s answers bad input with a 4xx in Efí\'s shapes, and moves no money', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 50 })
  const token = await oauthToken(app, acc)
  const doc = app.swagger() as unknown as Parameters<typeof documentedOperations>[0] & { paths: Record<string, Record<string, { tags?: string[] }>> }
  const efi = documentedOperations(doc).filter(o => doc.paths[o.path][o.method.toLowerCase()].tags?.includes('Efí'))
  t.ok(efi.length >= 19, `${efi.length} operations`)
  let requests = 0
  for (const op of efi) {
    for (const param of PARAMS) {
      const url = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(param))
      const variants: Array<{ url: string, payload?: string }> = op.method === 'GET' || op.method === 'DELETE'
        ? QUERIES.map(q => ({ url: url + q }))
        : BODIES.map(body => ({ url, payload: JSON.stringify(body) }))
      for (const v of variants) {
        const res = await app.inject({ method: op.method as 'GET', url: v.url, headers: { ...bearer(token), 'content-type': 'application/json' }, ...(v.payload !== undefined ? { payload: v.payload } : {}) })
        requests++
        if (res.statusCode >= 500 || (res.statusCode >= 400 && shapeProblem('efi', res.statusCode, res.body) !== null)) {
          t.fail(`${op.method} ${v.url} ${v.payload?.slice(0, 80) ?? ''}: ${res.statusCode} ${res.body.slice(0, 200)}`)
        }
      }
    }
  }
  t.ok(requests > 500, `${requests} requests, none a 500, every error in Efí's shapes`)
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json(), { balance: { available: 50, blocked: 0 }, invariantHolds: true }, 'no money moved')
})
