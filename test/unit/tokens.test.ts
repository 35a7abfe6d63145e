import t from 'tap'
import { createSigner } from 'fast-jwt'
import { TOKEN_LIFETIME_SECONDS, TokenService } from '../../server/auth/tokens.js'

/** Access tokens: HS256, 1800 s of sandbox time, refused when tampered, foreign or unsigned. */

const T0 = Date.parse('2026-03-10T15:00:00.000Z')
const secret = 'unit-test-secret-0123456789'

function service () {
  let now = T0
  const tokens = new TokenService(secret, () => now)
  return { tokens, advance: (ms: number) => { now += ms } }
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')

t.test('issue and verify: claims in sandbox time', async t => {
  const { tokens } = service()
  const token = tokens.issue({ id: 7, clientId: 'client-7', incarnation: 'life-1' }, 'jti-1')
  const claims = tokens.verify(token)
  t.same(claims, { sub: '7', clientId: 'client-7', inc: 'life-1', iat: T0 / 1000, exp: T0 / 1000 + 1800, jti: 'jti-1' })
  t.equal(TOKEN_LIFETIME_SECONDS, 1800)
  t.same(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()), { alg: 'HS256', typ: 'JWT' })
})

t.test('expiry: valid until 1799.999 s, refused at 1800 s', async t => {
  const { tokens, advance } = service()
  const token = tokens.issue({ id: 1, clientId: 'c' }, 'j')
  advance(1_799_999)
  t.ok(tokens.verify(token))
  advance(1)
  t.equal(tokens.verify(token), null)
})

t.test('tampered, foreign, unsigned and garbage tokens are refused', async t => {
  const { tokens } = service()
  const token = tokens.issue({ id: 1, clientId: 'c' }, 'j')
  const [h, p, s] = token.split('.')
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
  t.equal(tokens.verify(`${h}.${b64({ ...claims, sub: '2' })}.${s}`), null, 'payload changed')
  const i = Math.floor(s.length / 2)
  t.equal(tokens.verify(`${h}.${p}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`), null, 'signature changed')
  t.equal(tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.`), null, 'alg none')
  t.equal(tokens.verify(createSigner({ key: 'another-secret-0123456789', algorithm: 'HS256' })(claims)), null, 'other secret')
  t.equal(tokens.verify(createSigner({ key: secret, algorithm: 'HS512' })(claims)), null, 'other algorithm, same secret')
  for (const junk of ['', 'a', 'a.b.c', `${h}.${p}`, `${h}.${p}.${s}.x`]) t.equal(tokens.verify(junk), null, `junk ${JSON.stringify(junk)}`)
})

t.test('a correctly signed token without exp or sub is refused', async t => {
  const { tokens } = service()
  const sign = createSigner({ key: secret, algorithm: 'HS256', noTimestamp: true })
  t.equal(tokens.verify(sign({ sub: '1', clientId: 'c' })), null, 'no exp')
  t.equal(tokens.verify(sign({ clientId: 'c', exp: T0 / 1000 + 100 })), null, 'no sub')
  t.equal(tokens.verify(sign({ sub: 1, clientId: 'c', exp: T0 / 1000 + 100 })), null, 'numeric sub')
})

t.test('signed: whose a token is, even once expired (the journal files such a 401 under its account)', async t => {
  const { tokens, advance } = service()
  const token = tokens.issue({ id: 3, clientId: 'c' }, 'j')
  advance(1_800_000)
  t.equal(tokens.verify(token), null, 'expired')
  t.match(tokens.signed(token), { sub: '3', jti: 'j' })
  t.equal(tokens.signed(`${token}x`), null, 'not one the sandbox signed')
})

t.test('a token checked once is still refused once its time runs out (the cache of checked tokens keeps no verdict)', async t => {
  const { tokens, advance } = service()
  const token = tokens.issue({ id: 1, clientId: 'c' }, 'j')
  t.ok(tokens.verify(token))
  t.ok(tokens.verify(token), 'answered from the cache')
  advance(1_799_000)
  const many = Array.from({ length: 1_100 }, (_, i) => tokens.issue({ id: 1, clientId: 'c' }, `k${i}`))
  for (const x of many) tokens.verify(x)
  t.ok(tokens.verify(many[0]), 'a token pushed out of the bounded cache is checked again, and still valid')
  advance(1_000)
  t.equal(tokens.verify(token), null, 'the cached token expires on time')
})

t.test('issuedTo: the account the token names, in the life it was issued for', async t => {
  const { tokens } = service()
  const account = { id: 2, clientId: 'client-2', incarnation: 'life-1' }
  const claims = tokens.verify(tokens.issue(account, 'j'))!
  t.ok(tokens.issuedTo(claims, account))
  t.notOk(tokens.issuedTo(claims, { ...account, incarnation: 'life-2' }), 'the same account after a reset or an import')
  t.notOk(tokens.issuedTo(claims, { ...account, clientId: 'client-9' }), 'another account under the same id')
  t.notOk(tokens.issuedTo(claims, { ...account, id: 3 }), 'another id')
  t.notOk(tokens.issuedTo(claims, { id: 2, clientId: 'client-2' }), 'an account without incarnation')
  const before = tokens.verify(tokens.issue({ id: 2, clientId: 'client-2' }, 'k'))!
  t.notOk('inc' in before, 'an account without incarnation gets a token without one')
  t.ok(tokens.issuedTo(before, { id: 2, clientId: 'client-2' }))
  t.notOk(tokens.issuedTo(before, account), 'which does not name the account once it has one')
})
