import t from 'tap'
import { createRng } from '../../../server/domain/ids.js'
import { counterpartOf, DirectoryService, directoryKeyOf, generatedHolder } from '../../../server/services/directory.js'
import { engine } from './harness.js'

// DirectoryService alone over a memory store: the control plane's edits of the key directory, keys
// kept in canonical form; and the holders the sandbox invents for keys it does not list.

const holder = { name: 'ANA', document: '52998224725', ispb: '60701190', bankName: 'ITAU UNIBANCO S.A.' }

async function directory (t: Parameters<typeof engine>[0]) {
  const e = await engine(t)
  return { ...e, service: new DirectoryService({ store: e.store, rng: e.rng }) }
}

t.test('put stores a key in canonical form, says whether it was new, and finds it by any form', async t => {
  const { service } = await directory(t)
  const first = service.put('Ana.Pereira@Example.com', holder)
  t.equal(first.created, true)
  t.equal(first.entry.key, 'ana.pereira@example.com')
  t.equal(first.entry.keyType, 'EMAIL')
  t.equal(service.entry('ANA.PEREIRA@example.com')?.name, 'ANA', 'looked up by another spelling of the same key')
  const again = service.put('ana.pereira@example.com', { ...holder, name: 'ANA P' })
  t.equal(again.created, false, 'the same key replaces its entry')
  t.equal(service.entries().length, 1)
  t.equal(service.entry('ana.pereira@example.com')?.name, 'ANA P')

  const evp = service.put('7D9F03358DCC40549BF84E0B9C1A8E51', holder)
  t.equal(evp.entry.key, '7d9f0335-8dcc-4054-9bf8-4e0b9c1a8e51', 'a compact EVP gets its hyphens')
  t.equal(evp.entry.keyType, 'EVP')
  t.equal(service.put('+5511912345678', holder).entry.keyType, 'PHONE')
})

t.test('put refuses a key that does not have its type\'s format, and a bad document, storing nothing', async t => {
  const { service } = await directory(t)
  t.throws(() => service.put('not a key', holder), { code: 'INVALID_PIX_KEY' })
  t.throws(() => service.put('12345678900', { ...holder, keyType: 'CPF' }), { code: 'INVALID_PIX_KEY' }, 'a CPF with wrong check digits')
  t.throws(() => service.put('ana@example.com', { ...holder, keyType: 'PHONE' }), { code: 'INVALID_PIX_KEY' }, 'an email given as a phone')
  t.throws(() => service.put('ana@example.com', { ...holder, document: '11111111111' }), { code: 'INVALID_DOCUMENT' })
  t.same(service.entries(), [])
})

t.test('remove takes a key out by any of its forms, and says whether it was there', async t => {
  const { service } = await directory(t)
  service.put('ana@example.com', holder)
  t.equal(service.remove('ANA@EXAMPLE.COM'), true)
  t.equal(service.entry('ana@example.com'), undefined)
  t.equal(service.remove('ana@example.com'), false)
})

t.test('directoryKeyOf: the canonical key and its type, or null for no directory key', async t => {
  t.same(directoryKeyOf('52998224725'), { key: '52998224725', keyType: 'CPF' })
  t.same(directoryKeyOf('11222333000181'), { key: '11222333000181', keyType: 'CNPJ' })
  t.equal(directoryKeyOf('11987654321'), null, 'a phone without +55 is no directory key')
  t.equal(directoryKeyOf(''), null)
})

t.test('generatedHolder: reproducible from the seed, at another institution than the payer\'s', async t => {
  const a = generatedHolder(createRng('seed-1'), { document: '52998224725', key: 'x@example.com' }, '00000000')
  const b = generatedHolder(createRng('seed-1'), { document: '52998224725', key: 'x@example.com' }, '00000000')
  t.same(a, b, 'the same seed invents the same holder')
  t.equal(a.generated, true, 'and says it is invented')
  t.equal(a.document, '52998224725')
  t.equal(a.key, 'x@example.com')
  t.match(a.accountBranch, /^\d{4}$/)
  t.match(a.accountNumber, /^\d{7}-\d$/)
  t.match(a.name, /^[A-Z]+ [A-Z]+$/)
  const rng = createRng('seed-2')
  for (let i = 0; i < 200; i++) {
    const h = generatedHolder(rng, { document: '52998224725' }, '60701190')
    if (h.ispb === '60701190') return t.fail('a holder invented at the payer\'s own institution')
  }
  t.equal(generatedHolder(rng, { name: 'JOSE', document: '52998224725' }, '1').name, 'JOSE', 'a name given is kept')
})

t.test('counterpartOf: a listed key pays its holder, bank and account', async t => {
  const { service } = await directory(t)
  const { entry } = service.put('ana@example.com', { ...holder, bankCode: '341', accountBranch: '0001', accountNumber: '123-4' })
  t.same(counterpartOf(entry), { name: 'ANA', document: '52998224725', ispb: '60701190', bankName: 'ITAU UNIBANCO S.A.', bankCode: '341', accountBranch: '0001', accountNumber: '123-4', key: 'ana@example.com' })
  const bare = service.put('bia@example.com', holder).entry
  t.equal(counterpartOf(bare).bankCode, null, 'what the directory does not say is null, not absent')
})

t.test('holders: a listed key has its entry\'s holder and status; any other an invented one derived from the seed and the destination', async t => {
  const { service, rng, store } = await directory(t)
  service.put('ana@example.com', { ...holder, accountStatus: 'BLOCKED' })
  t.match(service.holders.listed('ana@example.com'), { counterpart: { name: 'ANA', key: 'ana@example.com' }, accountStatus: 'BLOCKED' })
  t.equal(service.holders.listed('bia@example.com'), undefined)
  const destination = { key: 'x@example.com', document: '52998224725' }
  const first = service.holders.invented(destination, '00000000')
  rng.uuid()
  t.equal(service.holders.invented(destination, '00000000'), first, 'one record for every pay-out to one destination')
  const elsewhere = new DirectoryService({ store, rng: createRng('unit') })
  t.same(elsewhere.holders.invented(destination, '00000000'), first, 'another service with the same seed, its stream elsewhere: the same holder')
  t.not(JSON.stringify(new DirectoryService({ store, rng: createRng('other') }).holders.invented(destination, '00000000')), JSON.stringify(first), 'another seed, another holder')
  t.match(service.holders.invented({ key: 'y@example.com' }, '00000000').document, /^\d{11}$/, 'without a document sent, one is invented too')
})
