import t from 'tap'
import fc from 'fast-check'
import {
  detectDirectoryKeyType, isValidCashOutKey, isValidSplitKey, normalizeKey, type CashOutKeyType, type SplitKeyType
} from '../../server/domain/keys.js'
import { createRng } from '../../server/domain/ids.js'

const UUID = '93598be0-1bd0-4997-8318-81776a1d8a99'

t.test('cash-out DOCUMENT keys: a valid CPF or CNPJ, digits only', async t => {
  t.ok(isValidCashOutKey('DOCUMENT', '52998224725'))
  t.ok(isValidCashOutKey('DOCUMENT', '11222333000181'))
  t.ok(isValidCashOutKey('DOCUMENT', '12ABC34501DE35'), 'the 2026 alphanumeric CNPJ, as details.document accepts it with --alphanumeric-cnpj enabled')
  t.notOk(isValidCashOutKey('DOCUMENT', '12ABC34501DE35', 'digits'), 'not in the digits-only form, the gateway\'s by default')
  t.ok(isValidCashOutKey('DOCUMENT', '11222333000181', 'digits'))
  t.notOk(isValidCashOutKey('DOCUMENT', '52998224724'), 'bad check digit')
  t.notOk(isValidCashOutKey('DOCUMENT', '529.982.247-25'), 'formatted')
  t.notOk(isValidCashOutKey('DOCUMENT', '11111111111'))
  t.notOk(isValidCashOutKey('DOCUMENT', 'fulano@example.com'))
})

t.test('cash-out EMAIL keys', async t => {
  for (const ok of ['fulano@example.com', 'Fulano.Tal+pix@mail.example.com.br', "o'neil@x.io", 'a@b.co']) {
    t.ok(isValidCashOutKey('EMAIL', ok), ok)
  }
  const at77 = `${'a'.repeat(65)}@example.com`
  t.equal(at77.length, 77)
  t.ok(isValidCashOutKey('EMAIL', at77), '77 characters')
  t.notOk(isValidCashOutKey('EMAIL', `a${at77}`), '78 characters')
  for (const bad of ['fulano', 'fulano@', '@example.com', 'fulano@example', 'ful ano@example.com', 'fulano@@example.com',
    '.fulano@example.com', 'fulano.@example.com', 'ful..ano@example.com', 'fulano@-example.com', 'fulano@example..com', '']) {
    t.notOk(isValidCashOutKey('EMAIL', bad), JSON.stringify(bad))
  }
})

t.test('cash-out PHONE keys: DDD and number, no country code', async t => {
  t.ok(isValidCashOutKey('PHONE', '11999998888'), 'mobile, 11 digits')
  t.ok(isValidCashOutKey('PHONE', '1133334444'), 'landline, 10 digits')
  t.ok(isValidCashOutKey('PHONE', '99999998888'), 'DDD 99')
  t.notOk(isValidCashOutKey('PHONE', '10999998888'), 'DDD 10 does not exist')
  t.notOk(isValidCashOutKey('PHONE', '01999998888'), 'DDD below 11')
  t.notOk(isValidCashOutKey('PHONE', '+5511999998888'), 'with country code')
  t.notOk(isValidCashOutKey('PHONE', '5511999998888'), 'with 55, 13 digits')
  t.notOk(isValidCashOutKey('PHONE', '119999988'), '9 digits')
  t.notOk(isValidCashOutKey('PHONE', '(11)99999-8888'), 'formatted')
})

t.test('cash-out RANDOM keys: UUID with or without hyphens, any case', async t => {
  t.ok(isValidCashOutKey('RANDOM', UUID))
  t.ok(isValidCashOutKey('RANDOM', UUID.toUpperCase()))
  t.ok(isValidCashOutKey('RANDOM', UUID.replace(/-/g, '')))
  t.notOk(isValidCashOutKey('RANDOM', UUID.replace('-', '')), 'hyphens are all or none')
  t.notOk(isValidCashOutKey('RANDOM', UUID.slice(1)), 'too short')
  t.notOk(isValidCashOutKey('RANDOM', UUID.replace('b', 'g')), 'not hex')
})

t.test('an unknown keyType is invalid', async t => {
  t.notOk(isValidCashOutKey('CPF' as CashOutKeyType, '52998224725'))
  t.notOk(isValidSplitKey('DOCUMENT' as SplitKeyType, '52998224725'))
})

t.test('directory key types', async t => {
  t.equal(detectDirectoryKeyType('52998224725'), 'CPF')
  t.equal(detectDirectoryKeyType('11222333000181'), 'CNPJ')
  t.equal(detectDirectoryKeyType('fulano@example.com'), 'EMAIL')
  t.equal(detectDirectoryKeyType('+5511999998888'), 'PHONE')
  t.equal(detectDirectoryKeyType('+551133334444'), 'PHONE', 'landline')
  t.equal(detectDirectoryKeyType(UUID), 'EVP')
  t.equal(detectDirectoryKeyType('+fulano@example.com'), 'EMAIL', 'an e-mail may start with +')
  t.equal(detectDirectoryKeyType('11999998888'), null, 'a phone without +55 is no directory key (nor a valid CPF)')
  t.equal(detectDirectoryKeyType('+15551234567'), null, 'foreign phone')
  t.equal(detectDirectoryKeyType('+55119999988887'), null, 'too long')
  t.equal(detectDirectoryKeyType('52998224724'), null, 'bad CPF')
  t.equal(detectDirectoryKeyType(UUID.replace(/-/g, '')), null, 'an EVP is hyphenated')
  t.equal(detectDirectoryKeyType('fulano@'), null)
  t.equal(detectDirectoryKeyType(''), null)
})

t.test('split keys', async t => {
  t.ok(isValidSplitKey('PHONE', '11999998888'))
  t.ok(isValidSplitKey('PHONE', '+5511999998888'))
  t.notOk(isValidSplitKey('PHONE', '+55119999988'))
  t.ok(isValidSplitKey('CPF', '52998224725'))
  t.notOk(isValidSplitKey('CPF', '11222333000181'), 'a CNPJ under CPF')
  t.ok(isValidSplitKey('CNPJ', '11222333000181'))
  t.notOk(isValidSplitKey('CNPJ', '52998224725'))
  t.ok(isValidSplitKey('EMAIL', 'fulano@example.com'))
  t.notOk(isValidSplitKey('EMAIL', 'fulano'))
  t.ok(isValidSplitKey('RANDOM', UUID))
  t.ok(isValidSplitKey('RANDOM', UUID.replace(/-/g, '')))
  t.notOk(isValidSplitKey('RANDOM', 'x'))
})

t.test('normalizeKey gives the directory form', async t => {
  t.equal(normalizeKey('PHONE', '11999998888'), '+5511999998888')
  t.equal(normalizeKey('PHONE', '+5511999998888'), '+5511999998888')
  t.equal(normalizeKey('RANDOM', UUID.replace(/-/g, '').toUpperCase()), UUID)
  t.equal(normalizeKey('EVP', UUID.toUpperCase()), UUID)
  t.equal(normalizeKey('EMAIL', 'Fulano@Example.COM'), 'fulano@example.com')
  t.equal(normalizeKey('DOCUMENT', '52998224725'), '52998224725')
  t.equal(normalizeKey('CNPJ', '12ABC34501DE35'), '12ABC34501DE35')
})

t.test('every valid cash-out key normalizes to a directory key of the matching type', async t => {
  const expected: Record<Exclude<CashOutKeyType, 'DOCUMENT'>, string> = { EMAIL: 'EMAIL', PHONE: 'PHONE', RANDOM: 'EVP' }
  const phone = fc.tuple(fc.integer({ min: 11, max: 99 }), fc.integer({ min: 10_000_000, max: 999_999_999 }))
    .map(([ddd, n]) => `${ddd}${n}`)
  const random = fc.uuid().chain(u => fc.constantFrom(u, u.toUpperCase(), u.replace(/-/g, '')))
  fc.assert(fc.property(fc.oneof(
    phone.map(key => ({ type: 'PHONE' as const, key })),
    random.map(key => ({ type: 'RANDOM' as const, key })),
    fc.emailAddress().filter(e => isValidCashOutKey('EMAIL', e)).map(key => ({ type: 'EMAIL' as const, key }))
  ), ({ type, key }) => {
    return isValidCashOutKey(type, key) && detectDirectoryKeyType(normalizeKey(type, key)) === expected[type]
  }), { numRuns: 1000 })
  const rng = createRng('keys')
  t.equal(detectDirectoryKeyType(normalizeKey('DOCUMENT', '52998224725')), 'CPF')
  t.equal(detectDirectoryKeyType(rng.uuid()), 'EVP')
})
