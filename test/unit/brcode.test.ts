import t from 'tap'
import fc from 'fast-check'
import { buildBrCode, crc16, parseBrCode, toAsciiText, toMerchantText } from '../../server/domain/brcode.js'

// The two examples of BACEN's "Manual do BR Code".
const DYNAMIC = '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB'
const STATIC = '00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62070503***630404ED'

/** Builds a TLV field, for hand-made payloads. */
const f = (id: string, value: string): string => id + String(value.length).padStart(2, '0') + value
/** Appends a correct CRC, so a test exercises the rule it names and not the checksum. */
const sign = (body: string): string => body + '6304' + crc16(body + '6304')
const ACCOUNT = f('26', f('00', 'br.gov.bcb.pix') + f('01', 'fulano@example.com'))
const TAIL = f('52', '0000') + f('53', '986') + f('58', 'BR') + f('59', 'FULANO') + f('60', 'BRASILIA') + f('62', f('05', '***'))

const reasonOf = (s: string): string => {
  const parsed = parseBrCode(s)
  return parsed.ok ? 'accepted' : parsed.reason
}

t.test('crc16 is CRC16/CCITT-FALSE', async t => {
  t.equal(crc16('123456789'), '29B1')
  t.equal(crc16(''), 'FFFF')
  t.equal(crc16(DYNAMIC.slice(0, -4)), 'EEAB')
  t.equal(crc16(STATIC.slice(0, -4)), '04ED', 'leading zero kept')
})

t.test("BACEN's dynamic example parses", async t => {
  t.same(parseBrCode(DYNAMIC), {
    ok: true,
    value: {
      payloadFormat: '01',
      singleUse: true,
      location: 'pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99',
      merchantName: 'EMPRESA',
      merchantCity: 'SAO PAULO'
    }
  })
})

t.test("BACEN's static example parses", async t => {
  t.same(parseBrCode(STATIC), {
    ok: true,
    value: {
      payloadFormat: '01',
      singleUse: false,
      key: '+5511943214321',
      amountCents: 6666,
      merchantName: 'EMPRESA',
      merchantCity: 'BRASILIA'
    }
  })
  t.ok(parseBrCode(STATIC.slice(0, -4) + '04ed').ok, 'the CRC is compared case-insensitively')
})

t.test('the circulating malformed copy of the static example is rejected', async t => {
  // Tag 62 declares 8 characters and carries 7 ("0503***").
  const malformed = STATIC.slice(0, -4).replace('62070503***', '62080503***')
  t.equal(malformed.length, STATIC.length - 4)
  t.notOk(parseBrCode(malformed + '170E').ok, 'with the CRC it circulates with')
  t.notOk(parseBrCode(malformed + crc16(malformed)).ok, 'even with its CRC recomputed')
})

t.test('any single changed character is rejected', async t => {
  for (const code of [STATIC, DYNAMIC]) {
    t.doesNotThrow(() => fc.assert(fc.property(
      fc.nat({ max: code.length - 1 }),
      fc.integer({ min: 0x20, max: 0x7E }).map(c => String.fromCharCode(c)),
      (i, c) => {
        fc.pre(code[i].toUpperCase() !== c.toUpperCase() || (i < code.length - 4 && code[i] !== c))
        return !parseBrCode(code.slice(0, i) + c + code.slice(i + 1)).ok
      }), { numRuns: 3000 }), code === STATIC ? 'static example' : 'dynamic example')
  }
})

t.test('parse rejects, with a reason, every broken rule', async t => {
  const valid = sign(f('00', '01') + ACCOUNT + TAIL)
  t.equal(reasonOf(valid), 'accepted', 'the base of the cases below is valid')
  const cases: Array<[string, string]> = [
    ['', 'empty'],
    [valid.slice(0, -4) + 'ZZZZ', 'CRC not hex'],
    [valid.slice(0, -4) + '0000', 'CRC mismatch'],
    [sign(f('00', '01') + ACCOUNT + TAIL).replace('FULANO', 'FULANÓ'), 'non-ASCII'],
    [sign(f('00', '01') + ACCOUNT + TAIL) + f('99', 'x'), '63 not last'],
    [sign(f('00', '02') + ACCOUNT + TAIL), '00 is not 01'],
    [sign(ACCOUNT + f('00', '01') + TAIL), '00 not first'],
    [sign(f('00', '01') + f('01', '13') + ACCOUNT + TAIL), '01 neither 11 nor 12'],
    [sign(f('00', '01') + TAIL), 'no merchant account'],
    [sign(f('00', '01') + f('26', f('00', 'br.gov.bcb.other') + f('01', 'x')) + TAIL), 'merchant account of another scheme only'],
    [sign(f('00', '01') + ACCOUNT + f('27', f('00', 'BR.GOV.BCB.PIX') + f('01', 'y@example.com')) + TAIL), 'two PIX accounts'],
    [sign(f('00', '01') + f('26', f('00', 'br.gov.bcb.pix')) + TAIL), 'neither key nor location'],
    [sign(f('00', '01') + f('26', f('00', 'br.gov.bcb.pix') + f('01', 'k@x.io') + f('25', 'pix.example.com/qr/1')) + TAIL), 'both key and location'],
    [sign(f('00', '01') + f('26', f('00', 'br.gov.bcb.pix') + f('25', 'https://pix.example.com/qr/1')) + TAIL), 'location with scheme'],
    [sign(f('00', '01') + f('26', f('00', 'br.gov.bcb.pix') + '0125abc') + TAIL), 'broken length inside 26'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('52', '0000'), '')), '52 missing'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('52', '0000'), f('52', '00A0'))), '52 not 4 digits'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('53', '986'), f('53', '840'))), 'currency not BRL'],
    [sign(f('00', '01') + ACCOUNT + f('54', '10.555') + TAIL), 'amount with 3 decimals'],
    [sign(f('00', '01') + ACCOUNT + f('54', '0.00') + TAIL), 'zero amount'],
    [sign(f('00', '01') + ACCOUNT + f('54', '1,00') + TAIL), 'amount with a comma'],
    [sign(f('00', '01') + ACCOUNT + f('54', '12345678901.00') + TAIL), 'amount over 13 characters'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('58', 'BR'), f('58', 'PT'))), 'country not BR'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('58', 'BR'), '')), 'country missing'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('59', 'FULANO'), '')), 'name missing'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('59', 'FULANO'), f('59', 'A'.repeat(26)))), 'name over 25'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('60', 'BRASILIA'), '')), 'city missing'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('60', 'BRASILIA'), f('60', 'A'.repeat(16)))), 'city over 15'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('62', f('05', '***')), f('62', f('05', 'tx-1')))), 'txid not alphanumeric'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('62', f('05', '***')), f('62', f('05', 'a'.repeat(26))))), 'txid over 25'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('62', f('05', '***')), '62050503*')), 'broken length inside 62'],
    [sign(f('00', '01') + ACCOUNT + TAIL.replace(f('62', f('05', '***')), f('62', '050'))), 'truncated field inside 62'],
    [sign(f('00', '01') + ACCOUNT + TAIL + f('58', 'BR')), 'repeated field'],
    [sign(f('00', '01') + ACCOUNT + TAIL + '6500'), 'zero-length field'],
    [sign(f('00', '01') + ACCOUNT + TAIL + 'A101x'), 'non-numeric id'],
    [sign(f('00', '01') + ACCOUNT + TAIL + '65'), 'truncated field'],
    [sign(f('00', '01') + ACCOUNT + TAIL + '65x1a'), 'non-numeric length']
  ]
  for (const [code, rule] of cases) {
    const reason = reasonOf(code)
    t.not(reason, 'accepted', `${rule}: ${reason}`)
    // Each family speaks its own language: the gateway's Portuguese, the control plane's English.
    const parsed = parseBrCode(code)
    if (parsed.ok) continue
    t.notMatch(parsed.english, /[ãáâçéêíóõú]|\b(campo|não|inválid\w*|deve|nenhum|posição|vazio)\b/i, `${rule}, in English: ${parsed.english}`)
    t.not(parsed.english, parsed.reason, `${rule}: not the Portuguese reason`)
  }
})

t.test('parse accepts what a strict reader must not refuse', async t => {
  const parse = (body: string): ReturnType<typeof parseBrCode> => parseBrCode(sign(body))
  const noCurrency = parse(f('00', '01') + ACCOUNT + TAIL.replace(f('53', '986'), ''))
  t.ok(noCurrency.ok, '53 is optional')
  const noAdditional = parse(f('00', '01') + ACCOUNT + TAIL.replace(f('62', f('05', '***')), ''))
  t.ok(noAdditional.ok && noAdditional.value.txid === undefined, '62 absent: no txid')
  const amounts: Array<[string, number]> = [['10', 1000], ['10.5', 1050], ['0.01', 1]]
  for (const [text, cents] of amounts) {
    const parsed = parse(f('00', '01') + ACCOUNT + f('54', text) + TAIL)
    t.ok(parsed.ok && parsed.value.amountCents === cents, `amount "${text}"`)
  }
  const withTxid = parse(f('00', '01') + f('01', '11') + ACCOUNT + TAIL.replace(f('62', f('05', '***')), f('62', f('05', 'Abc123') + f('50', 'x'))))
  t.ok(withTxid.ok && withTxid.value.txid === 'Abc123' && !withTxid.value.singleUse, 'txid read; other sub-fields of 62 ignored')
  const otherScheme = parse(f('00', '01') + f('26', f('00', 'br.com.other') + f('01', 'x')) + f('27', f('00', 'Br.Gov.Bcb.Pix') + f('01', 'k@x.io') + f('02', 'Oi')) + TAIL)
  t.ok(otherScheme.ok && otherScheme.value.key === 'k@x.io' && otherScheme.value.description === 'Oi', 'PIX template in 27, GUI in any case')
})

t.test('build produces the reference payloads', async t => {
  t.equal(buildBrCode({
    key: '+5511943214321', amountCents: 6666, merchantName: 'Empresa', merchantCity: 'Brasília'
  }), '00020126360014br.gov.bcb.pix0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62070503***6304' +
    crc16('00020126360014br.gov.bcb.pix0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62070503***6304'))
  const dynamic = buildBrCode({
    location: 'https://pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99', singleUse: true, merchantName: 'EMPRESA', merchantCity: 'São Paulo'
  })
  t.equal(dynamic.toUpperCase().slice(0, -4), DYNAMIC.toUpperCase().slice(0, -4), 'the dynamic example, scheme dropped, GUI in lower case')
  t.ok(parseBrCode(dynamic).ok)
})

t.test('build normalizes text to ASCII', async t => {
  t.equal(toAsciiText('  São  Paulo\tÇé  '), 'Sao Paulo Ce')
  t.equal(toAsciiText('日本'), '')
  t.equal(toMerchantText('Padaria Pão de Açúcar Ltda Filial Centro', 25), 'PADARIA PAO DE ACUCAR LTD')
  t.equal(toMerchantText('Florianópolis do Sul', 15), 'FLORIANOPOLIS D')
  t.equal(toMerchantText('Rio de Janeiro', 15), 'RIO DE JANEIRO')
  t.equal(toMerchantText('Belo Horizonte X', 15), 'BELO HORIZONTE', 'no trailing space after the cut')
  const parsed = parseBrCode(buildBrCode({ key: 'k@x.io', merchantName: 'José Ærø', merchantCity: 'Goiânia' }))
  t.same(parsed.ok && [parsed.value.merchantName, parsed.value.merchantCity], ['JOSE R', 'GOIANIA'])
})

t.test('build keeps a description only while the account template fits', async t => {
  const key = 'fulano@example.com'
  const withRoom = parseBrCode(buildBrCode({ key, merchantName: 'A', merchantCity: 'B', description: 'Pagamento do pedido nº 12' }))
  t.ok(withRoom.ok && withRoom.value.description === 'Pagamento do pedido n 12')
  const tooLong = parseBrCode(buildBrCode({ key, merchantName: 'A', merchantCity: 'B', description: 'x'.repeat(60) }))
  t.ok(tooLong.ok && tooLong.value.description === undefined, 'dropped rather than breaking the 99 limit')
  const exact = 99 - (18 + 4 + key.length) - 4
  const fits = parseBrCode(buildBrCode({ key, merchantName: 'A', merchantCity: 'B', description: 'y'.repeat(exact) }))
  t.ok(fits.ok && fits.value.description?.length === exact, 'a description that ends exactly at 99 stays')
  const dynamic = parseBrCode(buildBrCode({ location: 'pix.example.com/qr/1', merchantName: 'A', merchantCity: 'B', description: 'no' }))
  t.ok(dynamic.ok && dynamic.value.description === undefined, 'a dynamic code carries no description')
  const onlyAccents = parseBrCode(buildBrCode({ key, merchantName: 'A', merchantCity: 'B', description: '日本' }))
  t.ok(onlyAccents.ok && onlyAccents.value.description === undefined, 'nothing left after normalization: no field')
})

t.test('build refuses input the caller should have validated', async t => {
  const base = { merchantName: 'A', merchantCity: 'B' }
  t.throws(() => buildBrCode(base), RangeError, 'neither key nor location')
  t.throws(() => buildBrCode({ ...base, key: 'k@x.io', location: 'pix.example.com/1' }), RangeError, 'both')
  t.throws(() => buildBrCode({ ...base, key: 'k@x.io', txid: 'with-hyphen' }), RangeError)
  t.throws(() => buildBrCode({ ...base, key: 'k@x.io', txid: 'a'.repeat(26) }), RangeError)
  t.throws(() => buildBrCode({ ...base, key: 'k@x.io', amountCents: 0 }), RangeError)
  t.throws(() => buildBrCode({ ...base, key: 'k@x.io', amountCents: 10.5 }), RangeError)
  t.throws(() => buildBrCode({ ...base, key: 'k@x.io', amountCents: 99_999_999_999_999 }), RangeError, 'over 13 characters')
  t.throws(() => buildBrCode({ ...base, key: 'k'.repeat(78) }), RangeError, 'template over 99')
  t.throws(() => buildBrCode({ ...base, key: '' }), RangeError, 'empty key')
  t.throws(() => buildBrCode({ ...base, key: 'joão@example.com' }), RangeError, 'a key is not normalized, so non-ASCII is refused')
  t.throws(() => buildBrCode({ key: 'k@x.io', merchantName: '日本', merchantCity: 'B' }), RangeError, 'no ASCII left in the name')
})

t.test('build -> parse round trip', async t => {
  // Names and cities mix accented Latin, other scripts and emoji; some ASCII survives normalization.
  const text = fc.string({ unit: fc.constantFrom(...'aãáâàçéêíóôõúüAÃÇÉ ZzÑñ日ß😀-.'.split('')), minLength: 1, maxLength: 40 })
    .filter(s => toAsciiText(s) !== '')
  const alnum = fc.string({ unit: fc.constantFrom(...'abcXYZ0189'.split('')), minLength: 1, maxLength: 25 })
  const target = fc.oneof(
    fc.record({ key: fc.oneof(fc.uuid(), fc.constant('+5511999998888'), fc.constant('52998224725'), fc.constant('fulano@example.com')) }),
    fc.record({ location: fc.uuid().map(u => `pix.example.com/qr/v2/${u}`) })
  )
  t.doesNotThrow(() => fc.assert(fc.property(
    target, text, text,
    fc.option(fc.integer({ min: 1, max: 9_999_999_999 }), { nil: undefined }),
    fc.option(alnum, { nil: undefined }),
    fc.boolean(),
    fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
    (target, merchantName, merchantCity, amountCents, txid, singleUse, description) => {
      const input = { ...target, merchantName, merchantCity, amountCents, txid, singleUse, description }
      const parsed = parseBrCode(buildBrCode(input))
      if (!parsed.ok) return false
      const v = parsed.value
      const expectedDescription = 'key' in target && description !== undefined && toAsciiText(description) !== '' ? toAsciiText(description) : undefined
      return v.payloadFormat === '01' && v.singleUse === singleUse &&
        v.key === ('key' in target ? target.key : undefined) &&
        v.location === ('location' in target ? target.location : undefined) &&
        v.amountCents === amountCents && v.txid === txid &&
        v.merchantName === toMerchantText(merchantName, 25) && v.merchantCity === toMerchantText(merchantCity, 15) &&
        v.description === expectedDescription
    }), { numRuns: 2000 }), 'parse(build(x)) gives back x, text normalized')
})
