import t from 'tap'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { advance, bearer, buildTestApp, newAccount, NO_MTLS_CHECK } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { receiveIncoming } from '../helpers/payins.js'

/**
 * Efí's receipts (docs/efi.md, Receipts): GET /v2/gn/pix/comprovantes answers a PDF that poppler's
 * pdftotext (a reader nobody here wrote) reads back, of a PIX sent (by e2eid or idEnvio), received,
 * or a devolução received; errors as JSON problem details.
 */

/** The text poppler reads in a PDF, or null where poppler is not installed. */
function pdfText (pdf: Buffer): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'efi-receipt-'))
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf)
    return execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

t.test('receipts of a PIX sent, received and a devolução received, read back by pdftotext', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { document: '11222333000181', name: 'LOJA DO ZÉ', balance: 100, efiHomologacao: true, ...NO_MTLS_CHECK })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: '/__sandbox/directory/loja@example.com', payload: { name: 'LOJA', document: '11222333000181', ispb, bankName: 'SANDBOX' } })
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'PUT', url: string, payload?: unknown) => app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
  await call('PUT', '/v2/webhook/loja@example.com', { webhookUrl: 'https://erp.example.com/efi' })
  const sent = (await call('PUT', '/v3/gn/pix/rec1', { valor: '5.00', pagador: { chave: 'loja@example.com', infoPagador: 'Pedido açaí' }, favorecido: { chave: 'efipay@sejaefi.com.br' } })).json()
  t.equal((await call('GET', '/v2/gn/pix/comprovantes?idEnvio=rec1')).statusCode, 404, 'not yet settled: no receipt')
  await advance(app, 1000)
  const received = await receiveIncoming(app, acc.accountId, 12.5)

  const byId = await call('GET', '/v2/gn/pix/comprovantes?idEnvio=rec1')
  t.equal(byId.statusCode, 200)
  t.equal(byId.headers['content-type'], 'application/pdf')
  t.equal(byId.headers['content-disposition'], 'attachment; filename="comprovante-rec1.pdf"')
  t.match(byId.rawPayload.subarray(0, 8).toString('latin1'), /^%PDF-1\.4/)
  for (const name of ['e2eid', 'e2eId']) {
    const byE2e = await call('GET', `/v2/gn/pix/comprovantes?${name}=${sent.e2eId}`)
    t.same(byE2e.rawPayload, byId.rawPayload, `${name} names the same receipt`)
  }

  const text = pdfText(byId.rawPayload)
  if (text === null) t.comment('pdftotext is not installed: the PDFs are not read back here')
  else {
    t.match(text, /Comprovante de Pix enviado/)
    t.match(text, /Valor: R\$ 5\.00/)
    t.match(text, new RegExp(`E2EID: ${sent.e2eId}`))
    t.match(text, /Pedido açaí/, 'accented letters print')
    t.match(text, /LOJA DO ZÉ/)
    t.match(text, /\*\*\.222\.333\/0001-\*\*/, 'documents masked')
    t.match(pdfText((await call('GET', `/v2/gn/pix/comprovantes?e2eid=${received.endToEndId}`)).rawPayload), /Comprovante de Pix recebido[\s\S]*R\$ 12\.50/)
    const rtrId = app.sandbox.store.transactionsOf(acc.accountId).find(x => x.kind === 'REFUND_RECEIVED')!.endToEndId!
    t.match(pdfText((await call('GET', `/v2/gn/pix/comprovantes?rtrId=${rtrId}`)).rawPayload), /devolução Pix recebida[\s\S]*R\$ 5\.00[\s\S]*rec1/)
  }

  const none = await call('GET', '/v2/gn/pix/comprovantes')
  t.equal(none.statusCode, 400)
  t.match(none.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/ComprovanteConsultaInvalida', status: 400, detail: 'Informe apenas um dos parâmetros e2eid, idEnvio, rtrId ou txid' })
  t.equal((await call('GET', `/v2/gn/pix/comprovantes?idEnvio=rec1&e2eid=${sent.e2eId}`)).statusCode, 400, 'two of them')
  const unknown = await call('GET', '/v2/gn/pix/comprovantes?idEnvio=nada')
  t.equal(unknown.statusCode, 404)
  t.same(unknown.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/ComprovanteNaoEncontrado', title: 'Não encontrado', status: 404, detail: 'Comprovante não encontrado para o identificador informado' })
  const other = await newAccount(app, {})
  t.equal((await app.inject({ method: 'GET', url: `/v2/gn/pix/comprovantes?e2eid=${sent.e2eId}`, headers: bearer(await oauthToken(app, other)) })).statusCode, 404, 'another account\'s PIX')
})
