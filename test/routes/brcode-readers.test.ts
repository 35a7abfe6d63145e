import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { parseTLV } from 'pix-qr-code-detail'
import { hasError, parsePix } from 'pix-utils'
import { parseBrCode } from '../../server/domain/brcode.js'
import { readRecurrenceCode } from '../../server/domain/rec-codes.js'
import { aTxid, cashInBody, createCashIn } from '../helpers/payins.js'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { examples } from '../helpers/api-pix-schemas.js'
import { client, control, recBody } from '../helpers/rec.js'
import { decodeWithJsqr, decodeWithZxing, pngOf, quietZoneModules, tagOf as tag } from '../helpers/brcode-readers.js'

/**
 * Every kind of BR Code the sandbox makes (the gateway's cash-in and root cob, API Pix's cob and cobv,
 * Pix Automático's journey 2 code, its composite codes of journeys 3 and 4, and the static codes of a
 * contract), each against BACEN's own examples (the BR Code manual's dynamic and static examples,
 * API Pix 2.9.0's recResponse3, 6 and 7) field for field, and read alike by six readers: the
 * sandbox's own two (parseBrCode, and readRecurrenceCode for tag 80), pix-qr-code-detail (the TLV
 * reader of Efí's SDK), pix-utils, and the QR image the sandbox draws of it decoded by jsqr and by
 * @zxing/library, with the quiet zone ISO/IEC 18004 asks.
 */

/** The examples of BACEN's "Manual do BR Code" (docs/api-pix.md; test/unit/brcode.test.ts checks them). */
const MANUAL_DYNAMIC = '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB'
const MANUAL_STATIC = '00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62070503***630404ED'

/** Whose fields a code of the sandbox has, one by one: API Pix's examples of the composite codes, the manual's of the others. */
const EXAMPLES = {
  'the manual\'s dynamic example': MANUAL_DYNAMIC,
  'the manual\'s static example': MANUAL_STATIC,
  'recResponse3 (journey 2)': examples.recResponse3.value.dadosQR.pixCopiaECola as string,
  'recResponse6 (journey 3)': examples.recResponse6.value.dadosQR.pixCopiaECola as string,
  'recResponse7 (journey 4)': examples.recResponse7.value.dadosQR.pixCopiaECola as string,
}
type Example = keyof typeof EXAMPLES

/** A code the sandbox made, what it is, and the example it follows. */
interface Made {
  what: string
  code: string
  like: Example
  type: 'DYNAMIC' | 'STATIC' | 'RECURRENCE'
  location?: string
  recLocation?: string
  key?: string
  amountCents?: number
  txid?: string
}

/**
 * The fields of a code as a list (`00 01 26[00 25] 52 ...`): merchant account templates, tag 62 and
 * tag 80 with their sub-fields, a static code's 54 marked as present. pix-qr-code-detail leaves tag 80
 * whole, so its value is read again.
 */
function fieldsOf (code: string): string {
  return parseTLV(code).map(f => {
    const inner = f.tag === '80' ? parseTLV(f.value) : f.children
    return inner === undefined ? f.tag : `${f.tag}[${inner.map(c => c.tag).join(' ')}]`
  }).join(' ')
}

/** Every kind of code, made through the sandbox's own routes as an integrator makes them. */
async function everyKind (t: Test, app: FastifyInstance): Promise<Made[]> {
  const acc = await newAccount(app, { name: 'Padaria São João Ltda', document: '11222333000181', balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const made: Made[] = []
  const ok = async (res: Promise<{ statusCode: number, body: string, json: () => any }>, status = 201) => {
    const r = await res
    t.equal(r.statusCode, status, r.body)
    return r.json()
  }
  const location = (code: string): string => (parseBrCode(code) as { value: { location: string } }).value.location

  const cashIn = await createCashIn(app, acc.token, cashInBody({ value: 42.1 }))
  made.push({ what: 'a cash-in (gateway 2.6)', code: cashIn.pixCode, like: 'the manual\'s dynamic example', type: 'DYNAMIC', location: location(cashIn.pixCode) })
  const root = await ok(app.inject({ method: 'PUT', url: `/cob/${aTxid(1)}`, headers: bearer(acc.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '10.00', modalidadeAlteracao: 0 } } }))
  made.push({ what: 'a cob of the gateway (gateway 2.8)', code: root.location, like: 'the manual\'s dynamic example', type: 'DYNAMIC', location: location(root.location) })
  const cob = await ok(call('PUT', `/v2/cob/${aTxid(2)}`, { calendario: { expiracao: 3600 }, valor: { original: '35.00' }, chave: 'padaria@example.com' }))
  made.push({ what: 'a cob of API Pix', code: cob.pixCopiaECola, like: 'the manual\'s dynamic example', type: 'DYNAMIC', location: cob.location })
  const chosen = await ok(call('PUT', `/v2/cob/${aTxid(3)}`, { calendario: {}, valor: { original: '5.00', modalidadeAlteracao: 1 }, chave: 'padaria@example.com' }))
  made.push({ what: 'a cob of API Pix whose payer names the amount', code: chosen.pixCopiaECola, like: 'the manual\'s dynamic example', type: 'DYNAMIC', location: chosen.location })
  const cobvTxid = aTxid(4)
  const cobv = await ok(call('PUT', `/v2/cobv/${cobvTxid}`, { calendario: { dataDeVencimento: '2026-04-10' }, devedor: { cpf: '52998224725', nome: 'Fulano de Tal' }, valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' } }, chave: 'padaria@example.com' }))
  made.push({ what: 'a cobv of API Pix', code: cobv.pixCopiaECola, like: 'the manual\'s dynamic example', type: 'DYNAMIC', location: cobv.loc.location })

  const recOf = async (over: Record<string, unknown>) => {
    const loc = await ok(call('POST', '/v2/locrec'))
    const rec = await ok(call('POST', '/v2/rec', recBody({ loc: loc.id, ...over })))
    return { idRec: rec.idRec as string, recLocation: loc.location as string }
  }
  const journey2 = await recOf({})
  const own = await ok(call('GET', `/v2/rec/${journey2.idRec}`), 200)
  made.push({ what: 'a recurrence\'s code (journey 2)', code: own.dadosQR.pixCopiaECola, like: 'recResponse3 (journey 2)', type: 'RECURRENCE', recLocation: journey2.recLocation })
  const journey3 = await recOf({ ativacao: { dadosJornada: { txid: aTxid(2) } } })
  const composite3 = await ok(call('GET', `/v2/rec/${journey3.idRec}?txid=${aTxid(2)}`), 200)
  made.push({ what: 'a cob composed with a recurrence (journey 3)', code: composite3.dadosQR.pixCopiaECola, like: 'recResponse6 (journey 3)', type: 'DYNAMIC', location: cob.location, recLocation: journey3.recLocation })
  const journey4 = await recOf({})
  const composite4 = await ok(call('GET', `/v2/rec/${journey4.idRec}?txid=${cobvTxid}`), 200)
  made.push({ what: 'a cobv composed with a recurrence (journey 4)', code: composite4.dadosQR.pixCopiaECola, like: 'recResponse7 (journey 4)', type: 'DYNAMIC', location: cobv.loc.location, recLocation: journey4.recLocation })
  const bare = await ok(control(app, `/__sandbox/recurrences/${journey4.idRec}/static-code`), 200)
  made.push({ what: 'the static code of a contract, the payer naming the amount', code: bare.pixCopiaECola, like: 'the manual\'s static example', type: 'STATIC', key: '11222333000181', txid: '63100862', recLocation: journey4.recLocation })
  const priced = await ok(control(app, `/__sandbox/recurrences/${journey4.idRec}/static-code`, { valor: '35.00' }), 200)
  made.push({ what: 'the static code of a contract, of an amount', code: priced.pixCopiaECola, like: 'the manual\'s static example', type: 'STATIC', key: '11222333000181', amountCents: 3500, txid: '63100862', recLocation: journey4.recLocation })
  return made
}

t.test('every kind of BR Code the sandbox makes has the fields of BACEN\'s example of its kind, and six readers read it alike', async t => {
  const app = await buildTestApp(t)
  const made = await everyKind(t, app)
  t.equal(made.length, 10)
  for (const m of made) {
    t.test(m.what, async t => {
      // BACEN's example of the kind, field for field: tag 80 after 62 and a static code's 54 when it
      // has an amount; a dynamic code never has a 54 (none of BACEN's has: the amount is the payload's).
      const example = fieldsOf(EXAMPLES[m.like])
      const expected = m.recLocation !== undefined && !m.like.startsWith('rec') ? example.replace(' 63', ' 80[00 25] 63') : example
      t.equal(fieldsOf(m.code), m.amountCents === undefined ? expected.replace(' 54', '') : expected, `the fields of ${m.like}`)

      // 1. The sandbox's own parser, and its reader of tag 80.
      const own = parseBrCode(m.code)
      if (m.type === 'RECURRENCE') {
        t.notOk(own.ok, 'a recurrence alone pays nothing: no key, no location')
      } else {
        t.match(own, { ok: true, value: { singleUse: m.type === 'DYNAMIC', location: m.location, key: m.key, txid: m.txid } })
        t.equal(own.ok && own.value.amountCents, m.amountCents)
      }
      t.match(readRecurrenceCode(m.code), m.recLocation === undefined ? { ok: false } : { ok: true, recLocation: m.recLocation, payable: m.type !== 'RECURRENCE' })

      // 2. pix-qr-code-detail, the TLV reader of Efí's SDK.
      const tlvs = parseTLV(m.code)
      t.equal(tag(tlvs, '26', '25'), m.location)
      t.equal(tag(tlvs, '26', '01'), m.key)
      t.equal(tag(tlvs, '54'), m.amountCents === undefined ? undefined : (m.amountCents / 100).toFixed(2))
      t.equal(tag(tlvs, '62', '05'), m.txid ?? '***')
      t.equal(tag(tlvs, '80', '25'), m.recLocation)
      t.same([tag(tlvs, '59'), tag(tlvs, '60')], ['PADARIA SAO JOAO LTDA', 'SAO PAULO'], 'name and city in ASCII')

      // 3. pix-utils, which checks the CRC and tells the kinds apart.
      const read = parsePix(m.code)
      t.notOk(hasError(read), JSON.stringify(read))
      t.match(read, { type: m.type, merchantName: 'PADARIA SAO JOAO LTDA', merchantCity: 'SAO PAULO', countryCode: 'BR', transactionCurrency: '986' })
      t.equal((read as { url?: string }).url, m.location)
      t.equal((read as { urlRec?: string }).urlRec, m.recLocation)
      t.equal((read as { pixKey?: string }).pixKey, m.key)
      t.equal((read as { transactionAmount?: number }).transactionAmount, m.type === 'STATIC' ? (m.amountCents ?? 0) / 100 : undefined, 'an amount only in a static code (0: the payer names it)')

      // 4 and 5. The QR image the sandbox draws of it (the dashboard's), decoded by jsqr and by @zxing/library.
      const image = await app.inject({ method: 'GET', url: `/dashboard/qrcode.png?code=${encodeURIComponent(m.code)}` })
      t.equal(image.headers['content-type'], 'image/png')
      const png = pngOf(image.rawPayload)
      t.same([decodeWithJsqr(png), decodeWithZxing(png), quietZoneModules(png)], [m.code, m.code, 4], 'jsqr, @zxing/library, the quiet zone')
    })
  }
})

t.test('the examples themselves read as the kinds they stand for, so the comparison above compares like with like', async t => {
  for (const [name, code] of Object.entries(EXAMPLES)) t.notOk(hasError(parsePix(code)), name)
  t.equal(fieldsOf(MANUAL_DYNAMIC), '00 01 26[00 25] 52 53 58 59 60 62[05] 63', 'the manual\'s dynamic example has no 54')
  t.equal(fieldsOf(MANUAL_STATIC), '00 26[00 01] 52 53 54 58 59 60 62[05] 63')
  t.equal(fieldsOf(EXAMPLES['recResponse6 (journey 3)']), '00 01 26[00 25] 52 53 58 59 60 62[05] 80[00 25] 63', 'nor have the composite codes')
  t.equal(fieldsOf(EXAMPLES['recResponse7 (journey 4)']), fieldsOf(EXAMPLES['recResponse6 (journey 3)']))
})
