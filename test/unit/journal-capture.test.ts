import t, { type Test } from 'tap'
import Fastify from 'fastify'
import { Readable } from 'node:stream'
import captureRequests, { BODY_LIMIT } from '../../server/journal/capture.js'
import { RequestJournal } from '../../server/journal/journal.js'
import { MASK, maskHeaders, maskJsonText, maskValue, secretValues } from '../../server/journal/redact.js'

/** The capture plugin alone, on a bare Fastify app with fake ports: what it keeps of unusual answers. */
async function bare (t: Test) {
  const journal = new RequestJournal(10)
  const app = Fastify()
  await app.register(captureRequests, {
    journal,
    answerFor: () => ({ code: 'HTTP_ERROR' }),
    now: () => 0,
    token: () => null,
    accountOfClaims: () => null,
    accountOfClientId: () => null,
    accountOfTransaction: () => null,
    secrets: ['the-admin-token'],
    keepBodies: true,
    log: false,
  })
  app.get('/buffer', async (_req, reply) => reply.type('image/png').send(Buffer.alloc(10)))
  app.get('/stream', async (_req, reply) => reply.type('text/plain').send(Readable.from(['a', 'b'])))
  app.get('/huge', async (_req, reply) => reply.type('application/json').send(JSON.stringify({ x: 'y'.repeat(BODY_LIMIT) })))
  app.post('/echo', async (req) => req.body)
  t.teardown(() => app.close())
  return { app, journal }
}

t.test('answers that are not JSON text, and bodies too large to keep, become notes', async t => {
  const { app, journal } = await bare(t)
  await app.inject('/buffer')
  await app.inject('/stream')
  await app.inject('/huge')
  await app.inject({ method: 'POST', url: '/echo', payload: { big: 'z'.repeat(BODY_LIMIT) } })
  const [echo, huge, stream, buffer] = journal.list()
  t.equal(buffer.response.body, '[a binary body of 10 bytes, not kept]')
  t.equal(stream.response.body, '[a streamed body, not kept]')
  t.match(huge.response.body, /^\[a body of \d+ bytes, not kept\]$/)
  t.match(echo.request.body, /^\[a body of \d+ bytes, not kept\]$/)
})

t.test('a body sent in chunks (no length declared) is weighed all the same; one nested too deep is a note too', async t => {
  const { app, journal } = await bare(t)
  const big = JSON.stringify({ big: 'z'.repeat(BODY_LIMIT) })
  // A stream payload: no content-length, as a client sending chunks.
  await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: Readable.from([big.slice(0, 1000), big.slice(1000)]) })
  await app.inject({ method: 'POST', url: '/echo', payload: '['.repeat(20_000) + ']'.repeat(20_000), headers: { 'content-type': 'application/json' } })
  const [deep, chunked] = journal.list()
  t.equal(chunked.request.headers['content-length'], undefined, 'sent without a length')
  t.equal(chunked.request.body, `[a body of more than ${BODY_LIMIT} bytes, not kept]`)
  t.match(deep.request.body, /^\[a body (nested too deep|of more than \d+ bytes), not kept\]$/)
})

t.test('the admin token is masked wherever it turns up', async t => {
  const { app, journal } = await bare(t)
  await app.inject({ method: 'POST', url: '/echo?x=the-admin-token', payload: { note: 'see the-admin-token here' } })
  const [e] = journal.list()
  t.same(e.query, { x: MASK })
  t.same(e.request.body, { note: `see ${MASK} here` })
  t.same(e.response.body, { note: `see ${MASK} here` })
})

t.test('redaction: headers, fields at any depth, PEM blocks, copies of a credential; nothing copied when clean', async t => {
  const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n'
  const secrets = secretValues({ authorization: 'Bearer tok.en.value-123', 'x-sandbox-admin-token': 'short' }, { clientSecret: 'secret-of-the-client' }, [])
  t.same(secrets, ['Bearer tok.en.value-123', 'secret-of-the-client', 'tok.en.value-123'], 'longest first; too short to match by chance is left to its header')
  // A body full of credential fields: longest first all the same, and equal lengths in the order they came.
  const names = ['password', 'Password', 'pass_word', 'pass-word', 'clientSecret', 'client_secret', 'CLIENT-SECRET', 'accessToken', 'access_token', 'refreshToken']
  const many = Object.fromEntries(names.map((name, i) => [name, `${'p'.repeat(8 + (i % 3))}${i}`]))
  t.same(secretValues({}, many, []), ['pppppppppp2', 'pppppppppp5', 'pppppppppp8', 'ppppppppp1', 'ppppppppp4', 'ppppppppp7', 'pppppppp0', 'pppppppp3', 'pppppppp6', 'pppppppp9'])
  t.same(secretValues({}, { password: 'same-len-b', clientSecret: 'same-len-a', x: 'not-a-secret-field' }, ['a-longer-extra-secret']), ['a-longer-extra-secret', 'same-len-b', 'same-len-a'])
  t.same(maskHeaders({ Authorization: 'Bearer x', 'set-cookie': ['a', 'b'], via: 'tok.en.value-123 proxy', gone: undefined }, secrets), { Authorization: MASK, 'set-cookie': MASK, via: `${MASK} proxy` })
  const clean = { a: [1, { b: 'plain' }], c: null }
  t.equal(maskValue(clean, secrets), clean, 'the same object when there is nothing to mask')
  t.same(maskValue({ list: [{ private_key: 'k' }, pem, 'x tok.en.value-123'], Password: null }, secrets), { list: [{ private_key: MASK }, MASK, `x ${MASK}`], Password: null })
  t.equal(maskJsonText(JSON.stringify({ clientSecret: 'a"b', cert: pem, other: 'secret-of-the-client' }), secrets), `{"clientSecret":"${MASK}","cert":"${MASK}","other":"${MASK}"}`)
  t.equal(maskJsonText('{"ok":true}', secrets), '{"ok":true}')
})
