import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { decodeWithJsqr, decodeWithZxing, pngOfSvg } from '../helpers/brcode-readers.js'
import { buildBrCode } from '../../server/domain/brcode.js'

/**
 * Efí's QR code routes (docs/efi.md, QR codes): GET /v2/loc/:id/qrcode (the code, its SVG image, read
 * back by a QR decoder nobody here wrote, and the page of linkVisualizacao) and POST
 * /v2/gn/qrcodes/detalhar over the charges API Pix created.
 */

const DOC = '45723174000110'
const KEY = 'loja@example.com'

async function receiver (app: FastifyInstance) {
  const acc = await newAccount(app, { document: DOC, name: 'LOJA DO ZE' })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOC, ispb, bankName: 'SANDBOX' } })
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
  return { acc, call }
}

t.test('GET /v2/loc/:id/qrcode: the charge\'s code, its image, and a page of this sandbox that shows them', async t => {
  const app = await buildTestApp(t)
  const { call } = await receiver(app)
  const cob = (await call('POST', '/v2/cob', { calendario: { expiracao: 3600 }, devedor: { cpf: '52998224725', nome: 'Fulano' }, valor: { original: '12.34' }, chave: KEY })).json()
  const res = await call('GET', `/v2/loc/${cob.loc.id}/qrcode`)
  t.equal(res.statusCode, 200, res.body)
  const body = res.json()
  t.equal(body.qrcode, cob.pixCopiaECola)
  t.match(body.imagemQrcode, /^data:image\/svg\+xml;base64,/)
  const png = pngOfSvg(Buffer.from(body.imagemQrcode.split(',')[1], 'base64').toString('utf8'))
  t.equal(decodeWithJsqr(png), cob.pixCopiaECola, 'the image encodes exactly the code (jsqr)')
  t.equal(decodeWithZxing(png), cob.pixCopiaECola, 'and ZXing reads the same')

  const link = new URL(body.linkVisualizacao)
  const page = await app.inject({ method: 'GET', url: link.pathname })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.match(page.body, /R\$ 12\.34/)
  t.match(page.body, /LOJA DO ZE/)
  t.ok(page.body.includes(cob.pixCopiaECola.replace(/&/g, '&#38;')), 'the copy-and-paste code')
  t.equal((await app.inject({ method: 'GET', url: link.pathname.replace(/[^/]+$/, 'nada') })).statusCode, 404)

  const unknown = await call('GET', '/v2/loc/999999/qrcode')
  t.equal(unknown.statusCode, 400)
  t.same(unknown.json(), { nome: 'location_nao_encontrada', mensagem: 'Nenhuma location encontrado para o identificador informado' })
  const loc = (await call('POST', '/v2/loc', { tipoCob: 'cob' })).json()
  const empty = await call('GET', `/v2/loc/${loc.id}/qrcode`)
  t.equal(empty.statusCode, 400)
  t.match(empty.json(), { nome: 'location_sem_cobranca' })
  const other = await receiver(app)
  t.equal((await other.call('GET', `/v2/loc/${cob.loc.id}/qrcode`)).statusCode, 400, 'another account\'s location')
  t.equal((await call('GET', '/v2/loc/abc/qrcode')).statusCode, 400)
})

t.test('POST /v2/gn/qrcodes/detalhar: a cob and a cobv of this sandbox; static, foreign and unreadable codes refused', async t => {
  const app = await buildTestApp(t)
  const { call } = await receiver(app)
  const cob = (await call('POST', '/v2/cob', { calendario: { expiracao: 3600 }, devedor: { cpf: '52998224725', nome: 'Fulano' }, valor: { original: '12.34' }, chave: KEY, solicitacaoPagador: 'Pedido 1' })).json()
  const payer = await receiver(app)
  const detail = await payer.call('POST', '/v2/gn/qrcodes/detalhar', { pixCopiaECola: cob.pixCopiaECola })
  t.equal(detail.statusCode, 200, detail.body)
  t.match(detail.json(), {
    tipoCob: 'cob',
    txid: cob.txid,
    revisao: 0,
    calendario: { criacao: cob.calendario.criacao, apresentacao: String, expiracao: 3600 },
    status: 'ATIVA',
    devedor: { nome: 'Fulano', cpf: '***.982.247-**' },
    recebedor: { nome: 'LOJA DO ZE', cnpj: '**.723.174/0001-**' },
    valor: { original: '12.34', final: '12.34' },
    chave: KEY,
    solicitacaoPagador: 'Pedido 1',
  })

  const txid = 'efiqrcobv'.padEnd(30, '0')
  const cobv = await call('PUT', `/v2/cobv/${txid}`, { calendario: { dataDeVencimento: '2026-04-10' }, devedor: { cpf: '52998224725', nome: 'Fulano' }, valor: { original: '50.00' }, chave: KEY })
  t.equal(cobv.statusCode, 201, cobv.body)
  t.match((await call('POST', '/v2/gn/qrcodes/detalhar', { pixCopiaECola: cobv.json().pixCopiaECola })).json(), {
    tipoCob: 'cobv', txid, calendario: { dataDeVencimento: '2026-04-10' }, valor: { original: '50.00', final: '50.00' },
  })

  const refused = async (pixCopiaECola: string, status: number, razao: string) => {
    const res = await call('POST', '/v2/gn/qrcodes/detalhar', { pixCopiaECola })
    t.equal(res.statusCode, status, res.body)
    t.same(res.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/QrcodeOperacaoInvalida', title: 'Operação Inválida', status, detail: 'A requisição que busca detalhar um qrcode não respeita o schema ou está semanticamente errada.', violacoes: [{ razao, propriedade: 'qrcode.pixCopiaECola' }] })
  }
  await refused('isto não é um BR Code', 422, 'O pixCopiaECola informado é inválido.')
  // Codes built by the sandbox's own BR Code writer: a static one, and a dynamic one whose location is no charge of this sandbox.
  await refused(buildBrCode({ key: '52998224725', merchantName: 'FULANO', merchantCity: 'SAO PAULO' }), 400, 'O pixCopiaECola informado é referente a uma cobrança estática')
  await refused(buildBrCode({ location: 'outro.example.com/qr/v2/abc', merchantName: 'FULANO', merchantCity: 'SAO PAULO', singleUse: true }), 400, 'A chave do recebedor não foi encontrada')
})
