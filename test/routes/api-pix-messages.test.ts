import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { apiPixClient as client, oauthToken } from '../helpers/api-pix.js'
import { validationMessages } from '../../server/errors/validation.js'

/**
 * A format error says the rule it checks (docs/api-pix.md, Errors): API Pix's in Portuguese, as the
 * family speaks, the control plane's in English. "txid está em formato inválido" told a client nothing
 * it could fix.
 */

/** Every value of `key` in a JSON document, at any depth. */
function valuesOf (node: unknown, key: string, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) valuesOf(item, key, out)
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === key && typeof v === 'string') out.add(v)
      else valuesOf(v, key, out)
    }
  }
  return out
}

t.test('every pattern and format a route checks is said in words, in Portuguese and in English', async t => {
  const app = await buildTestApp(t)
  const doc = app.swagger()
  const said = (keyword: string, params: Record<string, unknown>) => (['pt', 'en'] as const).map(language => validationMessages([{ keyword, instancePath: '/campo', params }], 'body', language)[0])
  const patterns = valuesOf(doc, 'pattern')
  t.ok(patterns.size >= 10, `${patterns.size} patterns`)
  for (const pattern of patterns) {
    const [pt, en] = said('pattern', { pattern })
    t.notMatch(pt, /formato inválido|deve seguir o padrão/, `${pattern}: ${pt}`)
    t.notMatch(en, /malformed|must match the pattern/, `${pattern}: ${en}`)
  }
  for (const format of valuesOf(doc, 'format')) {
    if (format === 'int64' || format === 'int32') continue
    const [pt, en] = said('format', { format })
    t.notMatch(pt, /formato inválido|deve estar no formato/, `${format}: ${pt}`)
    t.notMatch(en, /malformed|must be in the format/, `${format}: ${en}`)
  }
  // One the schemas do not use yet still states its rule: the pattern itself.
  t.same(said('pattern', { pattern: '^[a-f]+-x$' }), ['campo deve seguir o padrão ^[a-f]+-x$', 'campo must match the pattern ^[a-f]+-x$'])
  t.same(said('maxLength', { limit: 1 }), ['campo deve ter no máximo 1 caractere', 'campo must have at most 1 character'])
})

t.test('API Pix\'s format errors state the rule of each operation, in Portuguese', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const razoes = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, body?: unknown) => {
    const res = await call(method, url, body)
    t.equal(res.statusCode, 400, `${method} ${url}`)
    return (res.json().violacoes as Array<{ razao: string }>).map(v => v.razao)
  }
  const cob = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }
  t.same(await razoes('PUT', '/v2/cob/abc', cob), ['txid deve ter de 26 a 35 letras e dígitos'])
  t.same(await razoes('PATCH', '/v2/cobv/abc', {}), ['txid deve ter de 26 a 35 letras e dígitos'])
  t.same(await razoes('PATCH', '/v2/cobr/abc', { status: 'CANCELADA' }), ['txid deve ter de 26 a 35 letras e dígitos'], 'cobr takes API Pix\'s TxId too')
  t.same(await razoes('PUT', '/v2/pix/E123/devolucao/d-1', { valor: '1.00' }), ['e2eid deve ter 32 letras e dígitos', 'id deve ter de 1 a 35 letras e dígitos'])
  t.same(await razoes('GET', '/v2/pix?inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&txid=abc&cpf=123&cnpj=x'),
    ['txid deve ter de 26 a 35 letras e dígitos', 'cpf deve ter 11 dígitos', 'cnpj deve ter 14 dígitos ou letras maiúsculas'])
  t.same(await razoes('GET', '/v2/cobr?inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&idRec=RR1'), ['idRec deve ter 29 letras e dígitos'])
  t.same(await razoes('PUT', `/v2/cob/${'a'.repeat(30)}`, { ...cob, chave: '' }), ['chave deve ter no mínimo 1 caractere'])
  // Where API Pix's own list words a violation "não respeita o _schema_", the rule follows.
  const cobv = { calendario: { dataDeVencimento: '2026-04-01' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '10' }, chave: 'recebedor@example.com' }
  t.same(await razoes('PUT', `/v2/cobv/${'b'.repeat(30)}`, cobv), ['O campo cobv.valor.original não respeita o _schema_: deve ser um valor com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00".'])
  const rec = { vinculo: { contrato: 'C-1', devedor: { cpf: '52998224725', nome: 'MARIA' } }, calendario: { dataInicial: '2026-04-01', periodicidade: 'QUINZENAL' }, politicaRetentativa: 'NAO_PERMITE' }
  t.same(await razoes('POST', '/v2/rec', rec), ['O campo rec.calendario.periodicidade não respeita o _schema_: deve ser um de: SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL, ANUAL.'])
})

t.test('the control plane states the same rules in English', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'GET', url: '/__sandbox/requests?status=abc' })
  t.equal(res.statusCode, 400)
  t.equal(res.json().message, 'status must be a status such as 201 or a class such as 4xx')
  const key = await app.inject({ method: 'POST', url: '/dict/pix', headers: { 'x-idempotency-key': 'not-a-uuid' }, payload: {} })
  t.equal(key.statusCode, 401, 'the gateway checks the token first')
})
