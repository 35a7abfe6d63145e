import t from 'tap'
import { advance, bearer, buildTestApp, newAccount, NO_MTLS_CHECK } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { receiveIncoming } from '../helpers/payins.js'

/**
 * Efí's reconciliation report (docs/efi.md, Reconciliation report): asked for a past day, waiting,
 * processing, then the CSV of layout v4.0 with the day's received PIX, pay-outs by key and by account
 * data, their fees and the devoluções received, and its trailer's counts.
 */

const DOC = '11222333000181'

t.test('POST and GET /v2/gn/relatorios: 202 while it is made, then the day\'s records in Efí\'s CSV', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { document: DOC, name: 'LOJA', balance: 100, fee: 0.5, efiHomologacao: true, ...NO_MTLS_CHECK })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: '/__sandbox/directory/loja@example.com', payload: { name: 'LOJA', document: DOC, ispb, bankName: 'SANDBOX' } })
  let token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) => app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
  await call('PUT', '/v2/webhook/loja@example.com', { webhookUrl: 'https://erp.example.com/efi' })
  const byKey = (await call('PUT', '/v3/gn/pix/chave1', { valor: '5.00', pagador: { chave: 'loja@example.com', infoPagador: 'Pedido 1' }, favorecido: { chave: 'efipay@sejaefi.com.br' } })).json()
  const byBank = (await call('PUT', '/v3/gn/pix/conta1', { valor: '7.00', pagador: { chave: 'loja@example.com' }, favorecido: { contaBanco: { nome: 'JOSE', cpf: '10519952057', codigoBanco: '09089356', agencia: '1', conta: '123453', tipoConta: 'cacc' } } })).json()
  await advance(app, 1000)
  const received = await receiveIncoming(app, acc.accountId, 9)

  const today = await call('POST', '/v2/gn/relatorios/extrato-conciliacao', { dataMovimento: '2026-03-10', tipoRegistros: { pixRecebido: true } })
  t.equal(today.statusCode, 400)
  t.match(today.json(), { type: 'https://api-pix.gerencianet.com.br/v2/gn/ExtratoConciliacaoConsultaInvalida', violacoes: [{ razao: 'A data do extrato de conciliação deve ser anterior à data corrente' }] })
  t.equal((await call('POST', '/v2/gn/relatorios/extrato-conciliacao', { dataMovimento: '2026-03-09', tipoRegistros: { outro: true } })).statusCode, 400)

  await advance(app, 86_400_000)
  token = await oauthToken(app, acc)
  const tipoRegistros = { pixRecebido: true, pixEnviadoChave: true, pixEnviadoDadosBancarios: true, pixDevolucaoRecebida: true, tarifaPixEnviado: true, saldoDia: true }
  const asked = await call('POST', '/v2/gn/relatorios/extrato-conciliacao', { dataMovimento: '2026-03-10', tipoRegistros })
  t.equal(asked.statusCode, 202, asked.body)
  const { id } = asked.json()
  t.match(asked.json(), { id: /^[0-9a-f-]{36}$/, dataSolicitacao: String, status: 'AGUARDANDO_PROCESSAMENTO' })
  t.match((await call('GET', `/v2/gn/relatorios/${id}`)).json(), { id, status: 'AGUARDANDO_PROCESSAMENTO' })
  await advance(app, 10_000)
  const processing = await call('GET', `/v2/gn/relatorios/${id}`)
  t.equal(processing.statusCode, 202)
  t.match(processing.json(), { status: 'EM_PROCESSAMENTO' })
  await advance(app, 20_000)
  const done = await call('GET', `/v2/gn/relatorios/${id}`)
  t.equal(done.statusCode, 200)
  t.equal(done.headers['content-type'], 'text/csv; charset=utf-8')
  const lines = done.body.trimEnd().split('\n').map(l => l.split(';'))
  t.match(lines[0], ['CA', String, /^\d{3}$/, '1', String(acc.accountId), 'LOJA', '2026-03-11', '2026-03-10', 'Extrato de Conciliação API Pix', '1.0'], 'the header: the institution, its bank code, branch 1, the account, its holder, the days')
  t.equal(lines[0].length, 10)
  const of = (code: string) => lines.filter(l => l[0] === code)
  t.match(of('PR'), [['PR', String, received.endToEndId, '', '9.00', String, '', '', String]])
  t.match(of('PEC'), [['PEC', String, byKey.e2eId, 'chave1', '5.00', 'efipay@sejaefi.com.br', Buffer.from('Pedido 1').toString('base64'), 'API', String]])
  t.match(of('PEB'), [['PEB', String, byBank.e2eId, 'conta1', '7.00', 'JOSE', '10519952057', '09089356', '1', '123453', 'cacc', '', 'API', String]])
  t.match(of('PDR'), [['PDR', String, byKey.e2eId, /^D/, '5.00', String]], 'the R$ 5.00 of homologação came back')
  t.equal(of('TPE').length, 2, 'a fee per pay-out')
  t.same(of('SD1'), [], 'balances of a day are not modelled')
  t.same(lines[lines.length - 1], ['T', '6', '1', '2', '1', '0', '2', '0', '0', '0', '0', '0', '0'], 'the trailer counts 13 fields')

  const again = await call('POST', '/v2/gn/relatorios/extrato-conciliacao', { dataMovimento: '2026-03-10', tipoRegistros })
  t.same(again.json(), { id, dataSolicitacao: asked.json().dataSolicitacao, status: 'CONCLUIDO' }, 'the same request is the same report')
  const unknown = await call('GET', '/v2/gn/relatorios/nada')
  t.equal(unknown.statusCode, 404)
  t.same(unknown.json(), { type: 'https://api-pix.gerencianet.com.br/v2/gn/NaoEncontrado', title: 'Não encontrado', status: 404, detail: 'Recurso não encontrado ou não pertence à conta autenticada' })
  const other = await newAccount(app, {})
  t.equal((await app.inject({ method: 'GET', url: `/v2/gn/relatorios/${id}`, headers: bearer(await oauthToken(app, other)) })).statusCode, 404, 'another account\'s report')
})
