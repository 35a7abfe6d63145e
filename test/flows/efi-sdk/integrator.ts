import t, { type Test } from 'tap'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import EfiPay from 'sdk-node-apis-efi'
import { getDecodedPixJwt, parseTLV } from 'pix-qr-code-detail'
import { startSandbox } from '../../../server/index.js'
import { tagOf as tag } from '../../helpers/brcode-readers.js'

/**
 * Run by test/flows/efi-sdk.test.ts in a process whose NODE_EXTRA_CA_CERTS trusts the sandbox's server
 * certificate (EFI_SDK_DIR holds it). Two SDKs of Efí, the current sdk-node-apis-efi and its
 * predecessor gn-api-sdk-node, each changed in one thing only, the sandbox URL of their API Pix
 * (a constant of each, which neither lets an option set), sign in over mutual TLS with an account's
 * client certificate from the control plane and run their standard API Pix calls (not Efí's own
 * `/v2/gn/...`). Every result is read as an integrator reads it: fields and amounts, the location and
 * the BR Code decoded by the BR Code reader the SDK itself uses, errors as the problem details the SDK
 * throws. A group whose resource the sandbox does not serve yet is skipped, naming the route.
 */

const dir = process.env.EFI_SDK_DIR!
const CHAVE = 'recebedor@example.com'
const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/'
const CPF = '12345678909'
const FAVORECIDO = 'favorecido@example.com'

type Params = Record<string, string | number | boolean>
type Body = Record<string, unknown>
type Answer = Promise<any>

/** The API Pix calls both SDKs make, by their own names, with the arguments of sdk-node-apis-efi. */
interface ApiPixCalls {
  pixCreateImmediateCharge (body: Body): Answer
  pixCreateCharge (params: Params, body: Body): Answer
  pixUpdateCharge (params: Params, body: Body): Answer
  pixDetailCharge (params: Params): Answer
  pixListCharges (params: Params): Answer
  pixCreateLocation (body: Body): Answer
  pixDetailLocation (params: Params): Answer
  pixLocationList (params: Params): Answer
  pixUnlinkTxidLocation (params: Params): Answer
  pixGenerateQRCode (params: Params): Answer
  pixCreateDueCharge (params: Params, body: Body): Answer
  pixUpdateDueCharge (params: Params, body: Body): Answer
  pixDetailDueCharge (params: Params): Answer
  pixListDueCharges (params: Params): Answer
  pixCreateDueChargeBatch (params: Params, body: Body): Answer
  pixUpdateDueChargeBatch (params: Params, body: Body): Answer
  pixDetailDueChargeBatch (params: Params): Answer
  pixListDueChargeBatch (params: Params): Answer
  pixDetailReceived (params: Params): Answer
  pixReceivedList (params: Params): Answer
  pixDevolution (params: Params, body: Body): Answer
  pixDetailDevolution (params: Params): Answer
  pixConfigWebhook (params: Params, body: Body): Answer
  pixDetailWebhook (params: Params): Answer
  pixListWebhook (params: Params): Answer
  pixDeleteWebhook (params: Params): Answer
}

/** Efí's own pay-out calls: both SDKs' pixSend (v3 in sdk-node-apis-efi, v2 in gn-api-sdk-node), and the rest where the SDK has them. */
interface EfiPayoutCalls {
  pixSend (params: Params, body: Body): Answer
  pixSendList (params: Params): Answer
  pixSendSameOwnership?: (params: Params, body: Body) => Answer
  pixQrCodePay?: (params: Params, body: Body) => Answer
  pixSendDetailId?: (params: Params) => Answer
}

/** Efí's own calls over the account, in both SDKs (the key bucket in sdk-node-apis-efi only). */
interface EfiAccountCalls {
  getAccountBalance (params: Params): Answer
  updateAccountConfig (params: Params, body: Body): Answer
  listAccountConfig (): Answer
  pixCreateEvp (): Answer
  pixListEvp (): Answer
  pixDeleteEvp (params: Params): Answer
  pixKeysBucket?: () => Answer
}

/** Efí's split calls, in both SDKs (gn-api-sdk-node's unlink sends its path's placeholder unfilled); the writes of a configuration take a body. */
type EfiSplitCalls = Record<'pixSplitConfig' | 'pixSplitConfigId' | 'pixSplitDetailConfig' | 'pixSplitLinkCharge' | 'pixSplitUnlinkCharge' | 'pixSplitDetailCharge' |
  'pixSplitLinkDueCharge' | 'pixSplitUnlinkDueCharge' | 'pixSplitDetailDueCharge', (params: Params, body?: Body) => Answer>

interface Credentials { clientId: string, clientSecret: string, certificate: string, key: string }

interface Sdk {
  name: string
  /** The SDK's client for an account, as its README shows it, with the sandbox option on. */
  client: (c: Credentials) => ApiPixCalls
  /** What a payer's PSP reads at the location a BR Code carries, decoded. */
  payloadOf: (calls: ApiPixCalls, pixCopiaECola: string) => Promise<Record<string, unknown>>
  /** What a call rejects with when the account's sign-in is refused. */
  refusedSignIn: Record<string, unknown>
  /** Groups the SDK has no calls for, each skipped saying so. */
  lacks?: Partial<Record<'lotecobv', string>>
  /** GET /v2/gn/pix/enviados/:e2eId by the SDK's own parameter name (`e2eId` in sdk-node-apis-efi, `e2eid` in gn-api-sdk-node). */
  sentDetail: (calls: EfiPayoutCalls, e2eId: string) => Answer
  /** It has Efí's newer pay-out calls (mesma-titularidade, QR code, by idEnvio). */
  efiOnly?: boolean
}

const sandbox = await startSandbox({ port: 0, tlsCert: join(dir, 'server.crt'), tlsKey: join(dir, 'server.key') })
t.teardown(() => sandbox.close())

// The one change to each SDK: where its API Pix is. sdk-node-apis-efi reads the URL from its endpoints
// constant at each call, gn-api-sdk-node from its constants module; neither exports a setting for it.
const require = createRequire(import.meta.url)
const efiEndpoints = pathToFileURL(join(dirname(require.resolve('sdk-node-apis-efi/package.json')), 'dist/esm/constants/endpoints.js')).href
const { endpoints } = await import(efiEndpoints) as { endpoints: { APIS: { PIX: { URL: { SANDBOX: string } } } } }
endpoints.APIS.PIX.URL.SANDBOX = sandbox.url
const gnConstants = require('gn-api-sdk-node/lib/constants') as { APIS: { PIX: { URL: { SANDBOX: string } } } }
gnConstants.APIS.PIX.URL.SANDBOX = sandbox.url
const Gerencianet = require('gn-api-sdk-node') as new (options: Record<string, unknown>) => any

const options = (c: Credentials) => ({ sandbox: true, client_id: c.clientId, client_secret: c.clientSecret, certificate: c.certificate, pemKey: c.key })

const SDKS: Sdk[] = [
  {
    name: 'sdk-node-apis-efi 2.0.1',
    client: c => new EfiPay(options(c)) as unknown as ApiPixCalls,
    payloadOf: (calls, pixCopiaECola) => (calls as unknown as EfiPay).pixQrCodeDetail({ pixCopiaECola }) as Promise<Record<string, unknown>>,
    // It throws the token endpoint's answer (RFC 6749 §5.2).
    refusedSignIn: { error: 'invalid_client' },
    sentDetail: (calls, e2eId) => (calls as unknown as { pixSendDetail: (p: Params) => Answer }).pixSendDetail({ e2eId }),
    efiOnly: true,
  },
  {
    name: 'gn-api-sdk-node 3.0.4',
    // Its calls are set on its prototype with the options of the newest client, so a call made after
    // another client was built would use that one's: each call makes its client as it starts. They all
    // take (params, body); the two without params take an empty object first.
    client: c => new Proxy({}, {
      get: (_target, name: string) => {
        const gn = new Gerencianet(options(c))
        return ['pixCreateImmediateCharge', 'pixCreateLocation'].includes(name) ? (body: Body) => gn[name]({}, body) : gn[name]
      },
    }) as ApiPixCalls,
    // It has no call for it; the SDK that followed it reads payloads with this library.
    payloadOf: async (_calls, pixCopiaECola) => (await getDecodedPixJwt(pixCopiaECola)).payload as Record<string, unknown>,
    // It swallows a refused sign-in and makes the call with no usable token.
    refusedSignIn: { type: `${PROBLEM}AcessoNegado`, status: 401 },
    lacks: { lotecobv: 'gn-api-sdk-node 3.0.4 has no calls of lotecobv' },
    sentDetail: (calls, e2eid) => (calls as unknown as { pixSendDetail: (p: Params) => Answer }).pixSendDetail({ e2eid }),
  },
]

/** The sandbox's São Paulo date, moved by `days`, as API Pix writes dates (YYYY-MM-DD). */
async function sandboxDate (days = 0): Promise<string> {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date((await sandbox.client.sandbox.clock()).now))
  const [y, m, d] = today.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** inicio and fim around the sandbox's now, for the list calls. */
async function window (): Promise<{ inicio: string, fim: string }> {
  const now = Date.parse((await sandbox.client.sandbox.clock()).now)
  return { inicio: new Date(now - 86_400_000).toISOString(), fim: new Date(now + 86_400_000).toISOString() }
}

/** A fresh account whose certificate and key are written where the SDK reads them. */
async function signedUp (label: string): Promise<Credentials & { accountId: number }> {
  const account = await sandbox.client.sandbox.createAccount({})
  const certificate = join(dir, `${label}-${account.accountId}.crt`)
  const key = join(dir, `${label}-${account.accountId}.key`)
  writeFileSync(certificate, account.certificate)
  writeFileSync(key, account.privateKey)
  return { accountId: account.accountId, clientId: account.clientId, clientSecret: account.clientSecret, certificate, key }
}

/**
 * A dynamic BR Code of API Pix as BACEN's examples make them: tag 26-25 the location, no amount (tag
 * 54): the payer's PSP reads it in the payload at the location.
 */
function checkBrCode (t: Test, pixCopiaECola: string, location: string): void {
  const tlvs = parseTLV(pixCopiaECola)
  t.equal(tag(tlvs, '00'), '01', 'payload format 01')
  t.equal(tag(tlvs, '01'), '12', 'point of initiation 12: a dynamic code, paid once')
  t.equal(tag(tlvs, '26', '00')?.toLowerCase(), 'br.gov.bcb.pix')
  t.equal(tag(tlvs, '26', '25'), location, 'tag 26-25 is the location')
  t.equal(tag(tlvs, '54'), undefined, 'no tag 54: the amount is the payload\'s')
  t.equal(tag(tlvs, '62', '05'), '***', 'the txid is at the location, not in the code')
  t.match(tag(tlvs, '63'), /^[0-9A-F]{4}$/)
}

/** A location as API Pix makes them: a URL of the sandbox without scheme, at most 77 characters. */
function checkLocation (t: Test, location: string): void {
  t.ok(location.length <= 77, `${location.length} characters, at most 77`)
  t.ok(location.startsWith(sandbox.url.replace(/^https:\/\//, '')), 'at the sandbox')
}

/** An amount of BRL in cents, as the control plane's balances are numbers of reais. */
const cents = (reais: number): number => Math.round(reais * 100)

/** What the SDK throws for an answer of problem details. */
const problem = (type: string, status: number) => ({ type: `${PROBLEM}${type}`, status, title: String, detail: String })

/** The SDKs reject with the answer's body, not an Error, so it is matched as it is; an answer is a failure. */
async function refused (t: Test, call: Promise<unknown>, wanted: object, message: string): Promise<void> {
  const outcome = await call.then(answer => ({ answered: answer }), (reason: unknown) => reason)
  t.match(outcome, wanted, message)
}

/** A receiver of the account's webhooks over HTTPS (the sandbox's server certificate), keeping what arrives. */
async function webhookReceiver (t: Test) {
  const deliveries: Array<{ url: string, body: { pix: Array<Record<string, unknown>> } }> = []
  /** Efí's test notification when the webhook is configured, `{"evento":"teste_webhook"}`, answered and set apart as integrators do. */
  const pings: Array<{ url: string }> = []
  let delivered: () => void = () => {}
  // As Efí asks of a receiver: only a client presenting a certificate of the PSP's CA gets through (docs/webhooks.md, mutual TLS).
  const pspCa = await sandbox.client.sandbox.webhookCa()
  const receiver = createServer({ cert: readFileSync(join(dir, 'server.crt')), key: readFileSync(join(dir, 'server.key')), requestCert: true, rejectUnauthorized: true, ca: pspCa }, (req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString('utf8') })
    req.on('end', () => {
      const parsed = JSON.parse(body)
      res.end()
      if (parsed.evento === 'teste_webhook') {
        pings.push({ url: req.url ?? '' })
        return
      }
      deliveries.push({ url: req.url ?? '', body: parsed })
      delivered()
    })
  })
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  t.teardown(() => { receiver.close() })
  return {
    url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    deliveries,
    pings,
    /** Resolves at the next delivery after which `until` holds (any delivery by default). */
    next: (until: () => boolean = () => true) => new Promise<void>(resolve => { delivered = () => { if (until()) resolve() } }),
  }
}

for (const sdk of SDKS) {
  t.test(sdk.name, async t => {
    const account = await signedUp(sdk.name.split(' ')[0])
    const pix = sdk.client(account)

    t.test('sign-in: POST /oauth/token with Basic credentials, the client certificate from the TLS handshake', async t => {
      const listed = await pix.pixListCharges(await window())
      t.same(listed.cobs, [], 'a first call signs in and answers')
      const { requests } = await sandbox.client.sandbox.requests({ accountId: account.accountId, path: '/oauth/token' })
      t.ok(requests.length >= 1)
      for (const r of requests) {
        t.match(r, { method: 'POST', status: 200 })
        t.notOk('x-ssl-client-cert' in r.request.headers, 'no certificate header: the one of the handshake')
      }
      const wrongSecret = sdk.client({ ...account, clientSecret: 'not-the-secret' })
      await refused(t, wrongSecret.pixListCharges(await window()), sdk.refusedSignIn, 'a wrong secret')
      const other = await signedUp('other')
      const foreignCertificate = sdk.client({ ...account, certificate: other.certificate, key: other.key })
      await refused(t, foreignCertificate.pixListCharges(await window()), sdk.refusedSignIn, 'the certificate of another account')
    })

    t.test('cob: create (POST and PUT), revise, read, list, pay, remove', async t => {
      const immediate = await pix.pixCreateImmediateCharge({
        calendario: { expiracao: 3600 },
        devedor: { cpf: CPF, nome: 'Fulano de Tal' },
        valor: { original: '12.34' },
        chave: CHAVE,
        solicitacaoPagador: 'Pedido 1',
        infoAdicionais: [{ nome: 'Pedido', valor: '1' }],
      })
      t.match(immediate, {
        txid: /^[a-zA-Z0-9]{26,35}$/,
        revisao: 0,
        status: 'ATIVA',
        calendario: { expiracao: 3600, criacao: String },
        valor: { original: '12.34' },
        chave: CHAVE,
        devedor: { cpf: CPF, nome: 'Fulano de Tal' },
        solicitacaoPagador: 'Pedido 1',
        infoAdicionais: [{ nome: 'Pedido', valor: '1' }],
        loc: { id: Number, tipoCob: 'cob' },
      })
      t.equal(immediate.loc.location, immediate.location)
      checkLocation(t, immediate.location)
      checkBrCode(t, immediate.pixCopiaECola, immediate.location)
      t.match(await sdk.payloadOf(pix, immediate.pixCopiaECola), {
        txid: immediate.txid,
        revisao: 0,
        status: 'ATIVA',
        valor: { original: '12.34' },
        chave: CHAVE,
        calendario: { criacao: immediate.calendario.criacao, apresentacao: String, expiracao: 3600 },
      }, 'the payload a payer\'s PSP reads at the location')

      const txid = `efisdk${account.accountId}`.padEnd(30, '0')
      const created = await pix.pixCreateCharge({ txid }, { calendario: { expiracao: 600 }, valor: { original: '5.00' }, chave: CHAVE })
      t.match(created, { txid, revisao: 0, status: 'ATIVA', valor: { original: '5.00' } })
      const revised = await pix.pixUpdateCharge({ txid }, { valor: { original: '20.00' }, solicitacaoPagador: 'Revisada' })
      t.match(revised, { txid, revisao: 1, valor: { original: '20.00' }, solicitacaoPagador: 'Revisada', location: created.location })
      checkBrCode(t, revised.pixCopiaECola, created.location)
      t.equal(revised.pixCopiaECola, created.pixCopiaECola, 'the code shown before the revision is the charge\'s code still')
      t.match(await sdk.payloadOf(pix, created.pixCopiaECola), { txid, revisao: 1, valor: { original: '20.00' } }, 'and its payload gives the revised value')
      t.same(await pix.pixDetailCharge({ txid }), revised)

      const all = await pix.pixListCharges(await window())
      t.same(all.cobs.map((c: { txid: string }) => c.txid), [immediate.txid, txid], 'oldest first')
      t.match(all.parametros, { paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 } })
      const page = await pix.pixListCharges({ ...await window(), 'paginacao.paginaAtual': 1, 'paginacao.itensPorPagina': 1 })
      t.same(page.cobs.map((c: { txid: string }) => c.txid), [txid])
      t.match(page.parametros.paginacao, { paginaAtual: 1, itensPorPagina: 1, quantidadeDePaginas: 2 })
      t.same((await pix.pixListCharges({ ...await window(), cpf: CPF })).cobs.map((c: { txid: string }) => c.txid), [immediate.txid])

      const before = await sandbox.client.sandbox.account(account.accountId)
      const paid = await sandbox.client.sandbox.pay(created.pixCopiaECola)
      t.match(paid, { kind: 'COB', status: 'CONCLUIDA', amount: 20, txid }, 'the code shown before the revision pays the revised value')
      t.match(await sandbox.client.sandbox.transaction(paid.transactionId), { accountId: account.accountId, kind: 'COB', status: 'CONCLUIDA', amount: 20, endToEndId: paid.endToEndId })
      const after = await sandbox.client.sandbox.account(account.accountId)
      t.equal(cents(after.totals.settledIn - before.totals.settledIn), 2000, 'the account received 20.00')
      t.equal(cents(after.balance.available - before.balance.available), 2000 - cents(after.totals.fees - before.totals.fees), 'available, net of the fee')
      t.ok(after.invariantHolds)
      const concluded = await pix.pixDetailCharge({ txid })
      t.match(concluded, { status: 'CONCLUIDA', pix: [{ endToEndId: paid.endToEndId, txid, valor: '20.00', horario: String }] })
      t.same((await pix.pixListCharges({ ...await window(), status: 'CONCLUIDA' })).cobs.map((c: { txid: string }) => c.txid), [txid])
      await t.rejects(sdk.payloadOf(pix, revised.pixCopiaECola), /410/, 'a paid charge\'s location is gone')

      const removed = await pix.pixUpdateCharge({ txid: immediate.txid }, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
      t.equal(removed.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
      await t.rejects(sandbox.client.sandbox.pay(immediate.pixCopiaECola), { name: 'PixApiError', statusCode: 422 }, 'a removed charge is not paid')
      t.same((await sandbox.client.sandbox.account(account.accountId)).balance, after.balance, 'and nothing moved')

      await refused(t, pix.pixDetailCharge({ txid: 'naoexiste'.padEnd(30, '0') }), problem('CobNaoEncontrado', 404), 'an unknown txid')
      await refused(t, pix.pixCreateCharge({ txid }, { calendario: {}, valor: { original: '1.00' }, chave: CHAVE }), problem('CobOperacaoInvalida', 400), 'a txid already used')
      await refused(t, pix.pixUpdateCharge({ txid }, { valor: { original: '1.00' } }), problem('CobOperacaoInvalida', 400), 'a charge no longer ATIVA')
      await refused(t, pix.pixCreateImmediateCharge({ calendario: {}, valor: { original: '12,34' }, chave: CHAVE }), {
        ...problem('CobOperacaoInvalida', 400),
        violacoes: [{ razao: /valor\.original/ }],
      }, 'a decimal comma')
    })

    t.test('loc: create, read, serve a charge, list, unbind', async t => {
      const loc = await pix.pixCreateLocation({ tipoCob: 'cob' })
      t.match(loc, { id: Number, tipoCob: 'cob', criacao: String })
      t.notOk('txid' in loc, 'serving no charge yet')
      checkLocation(t, loc.location)
      t.same(await pix.pixDetailLocation({ id: loc.id }), loc)

      const txid = `efisdkloc${account.accountId}`.padEnd(30, '0')
      const cob = await pix.pixCreateCharge({ txid }, { calendario: {}, valor: { original: '7.50' }, chave: CHAVE, loc: { id: loc.id } })
      t.equal(cob.location, loc.location, 'the charge is served at the location')
      checkBrCode(t, cob.pixCopiaECola, loc.location)
      t.same(await pix.pixDetailLocation({ id: loc.id }), { ...loc, txid })
      const image = await pix.pixGenerateQRCode({ id: loc.id })
      t.match(image, { qrcode: cob.pixCopiaECola, imagemQrcode: /^data:image\/svg\+xml;base64,/, linkVisualizacao: /\/v2\/gn\/visualizar\// }, 'Efí\'s image of the location (GET /v2/loc/{id}/qrcode)')
      const page = await fetch(image.linkVisualizacao)
      t.equal(page.status, 200, 'the page of linkVisualizacao answers without a token')
      t.ok((await page.text()).includes('7.50'))

      const listed = await pix.pixLocationList({ ...await window(), txIdPresente: true })
      t.ok(listed.loc.some((l: { id: number, txid?: string }) => l.id === loc.id && l.txid === txid))
      t.notOk((await pix.pixLocationList({ ...await window(), txIdPresente: false })).loc.some((l: { id: number }) => l.id === loc.id))

      t.same(await pix.pixUnlinkTxidLocation({ id: loc.id }), loc, 'the location serves nothing')
      const unbound = await pix.pixDetailCharge({ txid })
      t.equal(unbound.status, 'ATIVA')
      t.notOk('location' in unbound || 'loc' in unbound || 'pixCopiaECola' in unbound, 'the charge shows no location')
      await t.rejects(sandbox.client.sandbox.pay(cob.pixCopiaECola), { name: 'PixApiError', statusCode: 404 }, 'and its code no longer pays')

      await refused(t, pix.pixDetailLocation({ id: 999999 }), problem('PayloadLocationNaoEncontrado', 404), 'an unknown location')
      await refused(t, pix.pixCreateLocation({ tipoCob: 'boleto' }), problem('PayloadLocationOperacaoInvalida', 400), 'a tipoCob API Pix does not have')
      await refused(t, pix.pixGenerateQRCode({ id: loc.id }), { nome: 'location_sem_cobranca' }, 'Efí\'s image of a location serving no charge (GET /v2/loc/{id}/qrcode)')
    })

    t.test('cobv: create, revise, read, list', async t => {
      const txid = `efisdkcobv${account.accountId}`.padEnd(30, '0')
      const vencimento = await sandboxDate(30)
      const created = await pix.pixCreateDueCharge({ txid }, {
        calendario: { dataDeVencimento: vencimento, validadeAposVencimento: 30 },
        devedor: { cpf: CPF, nome: 'Fulano de Tal' },
        valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' } },
        chave: CHAVE,
        solicitacaoPagador: 'Mensalidade',
      })
      t.match(created, {
        txid,
        revisao: 0,
        status: 'ATIVA',
        calendario: { criacao: String, dataDeVencimento: vencimento, validadeAposVencimento: 30 },
        devedor: { cpf: CPF, nome: 'Fulano de Tal' },
        valor: { original: '100.00' },
        chave: CHAVE,
        loc: { id: Number, tipoCob: 'cobv' },
      })
      checkLocation(t, created.loc.location)
      const revised = await pix.pixUpdateDueCharge({ txid }, { valor: { original: '120.00' } })
      t.match(revised, { txid, revisao: 1, valor: { original: '120.00' } })
      t.same(await pix.pixDetailDueCharge({ txid }), revised)
      // sdk-node-apis-efi lists due charges at GET /v2/cobv/, with a trailing slash.
      const listed = await pix.pixListDueCharges(await window())
      t.same(listed.cobs.map((c: { txid: string }) => c.txid), [txid])
      await refused(t, pix.pixDetailDueCharge({ txid: 'naoexiste'.padEnd(30, '0') }), { type: /\/(CobVNaoEncontrada|NaoEncontrado)$/, status: 404 }, 'an unknown txid')
      await refused(t, pix.pixCreateDueCharge({ txid: 'semdevedor'.padEnd(30, '0') }, { calendario: { dataDeVencimento: vencimento }, valor: { original: '1.00' }, chave: CHAVE }),
        problem('CobVOperacaoInvalida', 400), 'a due charge names its debtor')
    })

    t.test('lotecobv: create, revise, read, list', { skip: sdk.lacks?.lotecobv }, async t => {
      const vencimento = await sandboxDate(15)
      const id = String(account.accountId)
      const txids = [1, 2].map(n => `efisdklote${account.accountId}x${n}`.padEnd(30, '0'))
      const cobv = (txid: string, original: string) => ({
        txid,
        calendario: { dataDeVencimento: vencimento },
        devedor: { cpf: CPF, nome: 'Fulano de Tal' },
        valor: { original },
        chave: CHAVE,
      })
      t.equal(await pix.pixCreateDueChargeBatch({ id }, { descricao: 'Lote do SDK', cobsv: txids.map(txid => cobv(txid, '10.00')) }), '', '202, no body')
      const batch = await pix.pixDetailDueChargeBatch({ id })
      t.match(batch, { descricao: 'Lote do SDK', criacao: String })
      t.same(batch.cobsv.map((c: { txid: string }) => c.txid), txids)
      for (const c of batch.cobsv) t.match(c.status, /^(EM_PROCESSAMENTO|CRIADA)$/)
      t.equal(await pix.pixUpdateDueChargeBatch({ id }, { cobsv: [cobv(txids[0], '11.00')] }), '', '202, no body')
      const listed = await pix.pixListDueChargeBatch(await window())
      t.ok(listed.lotes.some((l: { descricao: string }) => l.descricao === 'Lote do SDK'))
      await refused(t, pix.pixDetailDueChargeBatch({ id: '999999' }), { type: /\/(LoteCobVNaoEncontrado|NaoEncontrado)$/, status: 404 }, 'an unknown batch')
    })

    /** A charge paid through the sandbox's pay path: its received PIX. */
    async function receivedPix (label: string, amount: string): Promise<{ txid: string, endToEndId: string }> {
      const txid = `efisdk${label}${account.accountId}`.padEnd(30, '0')
      const cob = await pix.pixCreateCharge({ txid }, { calendario: {}, valor: { original: amount }, chave: CHAVE })
      const paid = await sandbox.client.sandbox.pay(cob.pixCopiaECola)
      return { txid, endToEndId: paid.endToEndId }
    }

    t.test('pix: read and list what was received', async t => {
      const { txid, endToEndId } = await receivedPix('pix', '30.00')
      const received = await pix.pixDetailReceived({ e2eId: endToEndId })
      t.match(received, { endToEndId, txid, valor: '30.00', chave: CHAVE, horario: String })
      const listed = await pix.pixReceivedList({ ...await window(), txid })
      t.same(listed.pix.map((p: { endToEndId: string }) => p.endToEndId), [endToEndId])
      await refused(t, pix.pixDetailReceived({ e2eId: 'E00000000202601010000abcdefghijk' }), { type: /\/(PixNaoEncontrado|NaoEncontrado)$/, status: 404 }, 'an unknown endToEndId')
    })

    t.test('devolucao: return part of a received PIX, then read it', async t => {
      const { endToEndId } = await receivedPix('dev', '40.00')
      const asked = await pix.pixDevolution({ e2eId: endToEndId, id: 'D1' }, { valor: '15.00' })
      t.match(asked, { id: 'D1', rtrId: String, valor: '15.00', horario: { solicitacao: String }, status: /^(EM_PROCESSAMENTO|DEVOLVIDO)$/ })
      await sandbox.advanceClock(60_000)
      t.match(await pix.pixDetailDevolution({ e2eId: endToEndId, id: 'D1' }), { id: 'D1', rtrId: asked.rtrId, valor: '15.00', status: 'DEVOLVIDO' })
      t.match(await pix.pixDetailReceived({ e2eId: endToEndId }), { devolucoes: [{ id: 'D1', valor: '15.00', status: 'DEVOLVIDO' }] })
      await refused(t, pix.pixDevolution({ e2eId: endToEndId, id: 'D2' }, { valor: '30.00' }), problem('PixDevolucaoInvalida', 400), 'more than what is left')
      await refused(t, pix.pixDetailDevolution({ e2eId: endToEndId, id: 'D9' }), { type: /\/(PixDevolucaoNaoEncontrada|NaoEncontrado)$/, status: 404 }, 'an unknown return')
    })

    t.test('webhook: configure for a key, read, list, receive a paid charge at {webhookUrl}/pix over mutual TLS, delete', async t => {
      const receiver = await webhookReceiver(t)
      const { deliveries } = receiver
      const webhookUrl = `${receiver.url}/efi`

      // API Pix's webhook is for a key the account holds: CHAVE, registered in the directory with the
      // account's document at its institution (each SDK's account in turn).
      const holder = await sandbox.client.sandbox.account(account.accountId)
      await sandbox.client.sandbox.putDirectoryEntry(CHAVE, { name: 'RECEBEDOR', document: holder.document, ispb: holder.ispb, bankName: 'SANDBOX' })
      await pix.pixConfigWebhook({ chave: CHAVE }, { webhookUrl })
      // The check as Efí makes it: the request without the certificate died in the handshake, the one with it arrived at the URL as configured.
      t.same(receiver.pings, [{ url: '/efi' }], 'the receiver\'s mutual TLS was checked at registration')
      t.match(await pix.pixDetailWebhook({ chave: CHAVE }), { webhookUrl, chave: CHAVE, criacao: String })
      const listed = await pix.pixListWebhook(await window())
      t.ok(listed.webhooks.some((w: { chave: string }) => w.chave === CHAVE))

      const arrived = receiver.next()
      const { txid, endToEndId } = await receivedPix('hook', '9.90')
      await arrived
      t.equal(deliveries[0].url, '/efi/pix', 'API Pix posts to {webhookUrl}/pix')
      t.match(deliveries[0].body, { pix: [{ endToEndId, txid, valor: '9.90', chave: CHAVE, horario: String }] })

      await pix.pixDeleteWebhook({ chave: CHAVE })
      await refused(t, pix.pixDetailWebhook({ chave: CHAVE }), { type: /\/(WebhookNaoEncontrado|NaoEncontrado)$/, status: 404 }, 'the webhook is gone')
    })

    t.test('Efí\'s pay-outs: send from a key with a webhook, hear REALIZADO at {webhookUrl}/pix, read what was sent', async t => {
      const receiver = await webhookReceiver(t)
      const { deliveries } = receiver
      const holder = await sandbox.client.sandbox.account(account.accountId)
      await sandbox.client.sandbox.putDirectoryEntry(CHAVE, { name: 'RECEBEDOR', document: holder.document, ispb: holder.ispb, bankName: 'SANDBOX' })
      await sandbox.client.sandbox.putDirectoryEntry(FAVORECIDO, { name: 'FAVORECIDO', document: CPF, ispb: '60701190', bankName: 'ITAU' })
      const calls = pix as unknown as EfiPayoutCalls
      const body = { valor: '2.50', pagador: { chave: CHAVE, infoPagador: 'Pedido 9' }, favorecido: { chave: FAVORECIDO } }
      const idEnvio = `sdk${account.accountId}a`
      await refused(t, calls.pixSend({ idEnvio }, body), { nome: 'webhook_nao_cadastrado' }, 'no webhook on the payer key yet')
      await pix.pixConfigWebhook({ chave: CHAVE }, { webhookUrl: `${receiver.url}/efi` })

      const before = await sandbox.client.sandbox.account(account.accountId)
      const arrived = receiver.next()
      const sent = await calls.pixSend({ idEnvio }, body)
      t.match(sent, { idEnvio, e2eId: /^E[0-9A-Za-z]{31}$/, valor: '2.50', horario: { solicitacao: String }, status: 'EM_PROCESSAMENTO' })
      await refused(t, calls.pixSend({ idEnvio }, body), { nome: 'id_envio_duplicado' }, 'the idEnvio again')
      await sandbox.advanceClock(60_000)
      await arrived
      t.equal(deliveries[0].url, '/efi/pix', 'at the payer key\'s webhook')
      t.same(deliveries[0].body, { pix: [{ endToEndId: sent.e2eId, chave: CHAVE, tipo: 'SOLICITACAO', status: 'REALIZADO', valor: '2.50', horario: deliveries[0].body.pix[0].horario, infoPagador: 'Pedido 9', gnExtras: { idEnvio } }] })
      const after = await sandbox.client.sandbox.account(account.accountId)
      t.equal(cents(before.balance.available - after.balance.available), 250 + cents(after.fee), 'valor + fee debited')
      t.ok(after.invariantHolds)

      t.match(await sdk.sentDetail(calls, sent.e2eId), { endToEndId: sent.e2eId, idEnvio, valor: '2.50', chave: CHAVE, status: 'REALIZADO', favorecido: { chave: FAVORECIDO } })
      const listed = await calls.pixSendList(await window())
      t.same(listed.pix.map((p: { idEnvio: string }) => p.idEnvio), [idEnvio])
      await refused(t, sdk.sentDetail(calls, `E${'0'.repeat(31)}`), { type: `${PROBLEM}PixEnviadoNaoEncontrado`, status: 404 }, 'an unknown e2eId')
      await refused(t, calls.pixSend({ idEnvio: `sdk${account.accountId}b` }, { ...body, favorecido: { chave: 'ninguem@example.com' } }), { nome: /^chave_(favorecido_nao_encontrada|invalida)$/ }, 'a key the directory does not list')

      if (sdk.efiOnly) {
        const same = await calls.pixSendSameOwnership!({ idEnvio: `sdk${account.accountId}c` }, { ...body, favorecido: { contaBanco: { nome: 'RECEBEDOR', cnpj: holder.document, codigoBanco: '60701190', agencia: '1', conta: '12345', tipoConta: 'cacc' } } })
        t.match(same, { status: 'EM_PROCESSAMENTO' })
        t.match(await calls.pixSendDetailId!({ idEnvio: `sdk${account.accountId}c` }), { status: /^(EM_PROCESSAMENTO|REALIZADO)$/, favorecido: { contaBanco: { nome: 'RECEBEDOR', conta: '12345' } } })
        const txid = `efisdkqr${account.accountId}`.padEnd(30, '0')
        const cob = await pix.pixCreateCharge({ txid }, { calendario: {}, valor: { original: '1.25' }, chave: CHAVE })
        const paid = await calls.pixQrCodePay!({ idEnvio: `sdk${account.accountId}d` }, { pagador: { chave: CHAVE }, pixCopiaECola: cob.pixCopiaECola })
        t.match(paid, { valor: '1.25', status: 'EM_PROCESSAMENTO' })
        await sandbox.advanceClock(60_000)
        t.match(await pix.pixDetailCharge({ txid }), { status: 'CONCLUIDA' }, 'the charge of this sandbox is paid')
        // The first pay-out's callback, once more (the others' may still be arriving).
        const ofFirst = () => deliveries.filter(d => (d.body.pix[0].gnExtras as { idEnvio?: string } | undefined)?.idEnvio === idEnvio)
        const resent = receiver.next(() => ofFirst().length >= 2)
        t.equal(await (pix as unknown as { pixResendWebhook: (p: Params, b: Body) => Answer }).pixResendWebhook({}, { tipo: 'PIX_ENVIADO', e2eids: [sent.e2eId] }), '', '202, no body')
        await resent
        t.same(ofFirst()[1].body, ofFirst()[0].body, 'the same callback')
        const receipt = Buffer.from(await (pix as unknown as { pixGetReceipt: (p: Params) => Answer }).pixGetReceipt({ e2eid: sent.e2eId }))
        t.equal(receipt.subarray(0, 5).toString('latin1'), '%PDF-', 'the receipt, a PDF (pixGetReceipt)')
      }
      await pix.pixDeleteWebhook({ chave: CHAVE })
    })

    t.test('Efí\'s account routes: balance, settings, random keys (an empty POST body as each SDK sends it), key bucket', async t => {
      const calls = pix as unknown as EfiAccountCalls
      const holder = await sandbox.client.sandbox.account(account.accountId)
      t.same(await calls.getAccountBalance({ bloqueios: true }), { saldo: holder.balance.available.toFixed(2), bloqueios: { judicial: '0.00', med: '0.00', total: '0.00' } })
      const config = { pix: { receberSemChave: true, chaves: { [holder.document]: { recebimento: { txidObrigatorio: false, qrCodeEstatico: { recusarTodos: false } } } } } }
      t.equal(await calls.updateAccountConfig({}, config), '', '204, no body')
      t.same(await calls.listAccountConfig(), config)
      const { chave } = await calls.pixCreateEvp()
      t.match(chave, /^[0-9a-f-]{36}$/)
      t.ok((await calls.pixListEvp()).chaves.includes(chave))
      await calls.pixDeleteEvp({ chave })
      t.notOk((await calls.pixListEvp()).chaves.includes(chave))
      await refused(t, calls.pixDeleteEvp({ chave }), { nome: 'chave_nao_encontrada' }, 'a key already removed')
      if (sdk.efiOnly) t.match(await calls.pixKeysBucket!(), { baldeA: { capacidade: 100 }, baldeB: { capacidade: 100 } })

      const reports = pix as unknown as { createReport: (p: Params, b: Body) => Answer, detailReport: (p: Params) => Answer }
      const asked = await reports.createReport({}, { dataMovimento: await sandboxDate(-1), tipoRegistros: { pixRecebido: true, pixEnviadoChave: true } })
      t.match(asked, { id: String, status: 'AGUARDANDO_PROCESSAMENTO' }, 'createReport')
      await sandbox.advanceClock(30_000)
      const csv = await reports.detailReport({ id: asked.id })
      t.match(csv, /^CA;.*;Extrato de Conciliação API Pix;1\.0\n(.*\n)*T;\d+(;\d+){11}\n$/, 'detailReport: the CSV')
    })

    t.test('Efí\'s MED: list the infrações of a MED case, defend one once', { skip: sdk.efiOnly === true ? undefined : `${sdk.name} has no MED calls` }, async t => {
      const calls = pix as unknown as { medList: (p: Params) => Answer, medDefense: (p: Params, b: Body) => Answer }
      const { endToEndId } = await receivedPix('med', '11.00')
      await sandbox.client.sandbox.openMed({ endToEndId, reason: 'REFUND_REQUEST' })
      const { infracoes } = await calls.medList(await window())
      const infracao = infracoes.find((i: { endToEndId: string }) => i.endToEndId === endToEndId)
      t.match(infracao, { idInfracao: String, valor: 11, status: 'ABERTA' })
      t.equal(await calls.medDefense({ idInfracao: infracao.idInfracao }, { analise: 'rejeitado', justificativa: 'Produto entregue' }), '', '201, no body')
      t.match((await calls.medList(await window())).infracoes.find((i: { endToEndId: string }) => i.endToEndId === endToEndId), { status: 'EM_DEFESA', defesa: 'Produto entregue' })
      await refused(t, calls.medDefense({ idInfracao: infracao.idInfracao }, { analise: 'rejeitado', justificativa: 'De novo' }), { type: `${PROBLEM}InfracaoOperacaoInvalida`, status: 409 }, 'a second defence')
    })

    t.test('Pix Automático: locrec, rec, solicrec, cobr and their webhooks', { skip: sdk.efiOnly === true ? undefined : `${sdk.name} has no Pix Automático calls` }, async t => {
      const calls = pix as unknown as Record<string, (params?: Params, body?: Body) => Answer>
      const receiver = await webhookReceiver(t)
      t.equal(await calls.pixConfigWebhookRecurrenceAutomatic({}, { webhookUrl: `${receiver.url}/rec` }), '', 'pixConfigWebhookRecurrenceAutomatic')
      t.match(await calls.pixListWebhookRecurrenceAutomatic(), { webhookUrl: `${receiver.url}/rec` })
      t.equal(await calls.pixConfigWebhookAutomaticCharge({}, { webhookUrl: `${receiver.url}/cobr` }), '', 'pixConfigWebhookAutomaticCharge')
      t.match(await calls.pixListWebhookAutomaticCharge(), { webhookUrl: `${receiver.url}/cobr` })

      const loc = await calls.pixCreateLocationRecurrenceAutomatic()
      t.match(loc, { id: Number, location: String }, 'pixCreateLocationRecurrenceAutomatic')
      const devedor = { cpf: CPF, nome: 'PAGADOR' }
      const terms = { vinculo: { contrato: `C${account.accountId}`, devedor, objeto: 'Assinatura' }, calendario: { dataInicial: await sandboxDate(10), periodicidade: 'MENSAL' }, valor: { valorRec: '19.90' }, politicaRetentativa: 'NAO_PERMITE' }
      const rec = await calls.pixCreateRecurrenceAutomatic({}, { ...terms, loc: loc.id })
      t.match(rec, { idRec: String, status: 'CRIADA', loc: { id: loc.id } }, 'pixCreateRecurrenceAutomatic')
      t.match(await calls.pixDetailLocationRecurrenceAutomatic({ id: loc.id }), { id: loc.id, idRec: rec.idRec })
      t.ok((await calls.pixListLocationRecurrenceAutomatic(await window())).loc.some((l: { id: number }) => l.id === loc.id), 'pixListLocationRecurrenceAutomatic')
      t.notOk('idRec' in await calls.pixUnlinkLocationRecurrenceAutomatic({ id: loc.id }), 'pixUnlinkLocationRecurrenceAutomatic')
      t.match(await calls.pixDetailRecurrenceAutomatic({ idRec: rec.idRec }), { idRec: rec.idRec, status: 'CRIADA' })
      t.ok((await calls.pixListRecurrenceAutomatic(await window())).recs.some((r: { idRec: string }) => r.idRec === rec.idRec), 'pixListRecurrenceAutomatic')

      const solicitacao = await calls.pixCreateRequestRecurrenceAutomatic({}, { idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: new Date(Date.parse((await sandbox.client.sandbox.clock()).now) + 86_400_000).toISOString().slice(0, 19) + 'Z' }, destinatario: { conta: '1', cpf: CPF, ispbParticipante: '60701190' } })
      t.match(solicitacao, { idSolicRec: String, idRec: rec.idRec }, 'pixCreateRequestRecurrenceAutomatic')
      t.match(await calls.pixDetailRequestRecurrenceAutomatic({ idSolicRec: solicitacao.idSolicRec }), { idSolicRec: solicitacao.idSolicRec })
      t.match(await calls.pixUpdateRequestRecurrenceAutomatic({ idSolicRec: solicitacao.idSolicRec }, { status: 'CANCELADA' }), { status: 'CANCELADA' }, 'pixUpdateRequestRecurrenceAutomatic')

      await sandbox.client.sandbox.approveRecurrence(rec.idRec, { pagador: { ispbParticipante: '60701190', cpf: CPF } })
      const charge = { idRec: rec.idRec, infoAdicional: 'Mensalidade', calendario: { dataDeVencimento: await sandboxDate(12) }, valor: { original: '19.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } }
      const txid = `efisdkcobr${account.accountId}`.padEnd(30, '0')
      t.match(await calls.pixCreateAutomaticChargeTxid({ txid }, charge), { txid, idRec: rec.idRec, status: 'CRIADA' }, 'pixCreateAutomaticChargeTxid')
      const other = await calls.pixCreateAutomaticCharge({}, { ...charge, calendario: { dataDeVencimento: await sandboxDate(45) } })
      t.match(other, { txid: String, idRec: rec.idRec }, 'pixCreateAutomaticCharge')
      t.match(await calls.pixDetailAutomaticCharge({ txid }), { txid, valor: { original: '19.90' } })
      t.ok((await calls.pixListAutomaticCharge(await window())).cobsr.some((c: { txid: string }) => c.txid === txid), 'pixListAutomaticCharge')
      t.match(await calls.pixUpdateAutomaticCharge({ txid: other.txid }, { status: 'CANCELADA' }), { status: 'CANCELADA' }, 'pixUpdateAutomaticCharge')
      await refused(t, calls.pixRetryRequestAutomatic({ txid, data: await sandboxDate(13) }), { type: /\/CobROperacaoInvalida$/, status: 400 }, 'pixRetryRequestAutomatic: no failed attempt to retry')
      t.match(await calls.pixUpdateRecurrenceAutomatic({ idRec: rec.idRec }, { status: 'CANCELADA' }), { idRec: rec.idRec, status: 'CANCELADA' }, 'pixUpdateRecurrenceAutomatic')

      t.equal(await calls.pixDeleteWebhookRecurrenceAutomatic(), '', 'pixDeleteWebhookRecurrenceAutomatic')
      t.equal(await calls.pixDeleteWebhookAutomaticCharge(), '', 'pixDeleteWebhookAutomaticCharge')
    })

    t.test('Efí\'s split: a configuration and its revisions, linked to a cob and a cobv, a paid cob paying the favorecido account', async t => {
      const calls = pix as unknown as EfiSplitCalls
      const holder = await sandbox.client.sandbox.account(account.accountId)
      await sandbox.client.sandbox.putDirectoryEntry(CHAVE, { name: 'RECEBEDOR', document: holder.document, ispb: holder.ispb, bankName: 'SANDBOX' })
      const favorecido = await sandbox.client.sandbox.account((await sandbox.client.sandbox.createAccount({})).accountId)
      const repasse = (valor: string) => ({ tipo: 'porcentagem', valor, favorecido: { [favorecido.document.length === 11 ? 'cpf' : 'cnpj']: favorecido.document, conta: favorecido.accountNumber } })
      const body = (minha: string, dele: string) => ({ descricao: 'Loja e parceiro', lancamento: { imediato: true }, split: { divisaoTarifa: 'assumir_total', minhaParte: { tipo: 'porcentagem', valor: minha }, repasses: [repasse(dele)] } })

      const created = await calls.pixSplitConfig({}, body('70.00', '30.00'))
      t.match(created, { id: /^[0-9a-f]{32}$/, revisao: 0, status: 'ATIVA' }, 'pixSplitConfig')
      const id = `sdk${account.accountId}cfg`
      t.match(await calls.pixSplitConfigId({ id }, body('70.00', '30.00')), { id, revisao: 0 }, 'pixSplitConfigId: a new id')
      t.match(await calls.pixSplitConfigId({ id }, body('50.00', '50.00')), { id, revisao: 1 }, 'and its next revision')
      t.match(await calls.pixSplitDetailConfig({ id, revisao: 0 }), { id, revisao: 0, split: { minhaParte: { valor: '70.00' } } }, 'pixSplitDetailConfig of revision 0')
      await refused(t, calls.pixSplitConfig({}, body('70.00', '40.00')), { type: `${PROBLEM}SplitConfigOperacaoInvalida`, status: 400 }, 'percentages above 100')

      const txid = `efisdksplit${account.accountId}`.padEnd(30, '0')
      const cob = await pix.pixCreateCharge({ txid }, { calendario: {}, valor: { original: '10.00' }, chave: CHAVE })
      t.equal(await calls.pixSplitLinkCharge({ txid, splitConfigId: created.id }), '', 'pixSplitLinkCharge: 204')
      t.match(await calls.pixSplitDetailCharge({ txid }), { txid, status: 'ATIVA', config: { id: created.id, revisao: 0 } }, 'pixSplitDetailCharge')
      const before = (await sandbox.client.sandbox.account(favorecido.accountId)).balance.available
      const { endToEndId } = await sandbox.client.sandbox.pay(cob.pixCopiaECola)
      t.equal(cents((await sandbox.client.sandbox.account(favorecido.accountId)).balance.available - before), 300, 'the favorecido account is paid its 30 %')
      if (sdk.efiOnly) {
        // sdk-node-apis-efi only: the receiver returns part of the split PIX, the repasse stays paid.
        const sdkCalls = pix as unknown as { pixSplitDevolution: (p: Params, b: Body) => Answer }
        const devolution = (params: Params, body: Body) => sdkCalls.pixSplitDevolution(params, body)
        const receiverBefore = (await sandbox.client.sandbox.account(account.accountId)).balance.available
        t.match(await devolution({ e2eid: endToEndId, id: `sdk${account.accountId}dev` }, { valor: '5.00' }), { id: `sdk${account.accountId}dev`, valor: '5.00', status: 'EM_PROCESSAMENTO' }, 'pixSplitDevolution: 201')
        t.equal(cents(receiverBefore - (await sandbox.client.sandbox.account(account.accountId)).balance.available), 500, 'reserved from the receiver\'s balance')
        t.equal(cents((await sandbox.client.sandbox.account(favorecido.accountId)).balance.available - before), 300, 'the repasse stays with the favorecido')
        await refused(t, devolution({ e2eid: endToEndId, id: `sdk${account.accountId}dev2` }, { valor: '9.00' }), { type: `${PROBLEM}PixDevolucaoInvalida`, status: 400 }, 'beyond what is left of the PIX')
      }

      const other = `efisdksplitb${account.accountId}`.padEnd(30, '0')
      await pix.pixCreateCharge({ txid: other }, { calendario: {}, valor: { original: '10.00' }, chave: CHAVE })
      await calls.pixSplitLinkCharge({ txid: other, splitConfigId: id })
      await calls.pixSplitUnlinkCharge({ txid: other })
      await refused(t, calls.pixSplitDetailCharge({ txid: other }), { type: `${PROBLEM}CobrancaSplitNaoEncontrada`, status: 404 }, 'pixSplitUnlinkCharge: no longer linked')

      const due = `efisdksplitv${account.accountId}`.padEnd(30, '0')
      await pix.pixCreateDueCharge({ txid: due }, { calendario: { dataDeVencimento: await sandboxDate(5) }, devedor: { cpf: CPF, nome: 'PAGADOR' }, valor: { original: '20.00' }, chave: CHAVE })
      t.equal(await calls.pixSplitLinkDueCharge({ txid: due, splitConfigId: id }), '', 'pixSplitLinkDueCharge: 204')
      t.match(await calls.pixSplitDetailDueCharge({ txid: due }), { txid: due, config: { id, revisao: 1 }, repasses: [{ valor: '10.00' }] }, 'pixSplitDetailDueCharge: the newest revision')
      await calls.pixSplitUnlinkDueCharge({ txid: due })
      await refused(t, calls.pixSplitDetailDueCharge({ txid: due }), { type: `${PROBLEM}CobrancaSplitNaoEncontrada`, status: 404 }, 'pixSplitUnlinkDueCharge: no longer linked')
    })
  })
}
