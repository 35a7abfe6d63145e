import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * A lone surrogate in an account name answered 500 (the certificate's subject could not
 * be encoded) and used up an account id. Invalid text is a 400 in the control plane's shape and takes
 * nothing; text that is merely unusual (a surrogate pair, accents, reserved DN characters) still works.
 */
const create = (app: Awaited<ReturnType<typeof buildTestApp>>, json: string) =>
  app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: { 'content-type': 'application/json' }, payload: json })

t.test('a lone surrogate in the name is a 400 and takes no account id', async t => {
  const app = await buildTestApp(t)
  const before = (await create(app, '{}')).json().accountId
  for (const name of ['A\\ud800B', '\\udc00', 'x\\udbff', '\\ude00\\ud83d']) {
    const res = await create(app, `{"name": "${name}"}`)
    t.equal(res.statusCode, 400, name)
    t.equal(shapeProblem('sandbox', 400, res.body), null, 'in the control plane error shape')
    t.equal(res.json().code, 'HTTP_ERROR')
    t.match(res.json().message, /name must be well-formed Unicode text/)
  }
  const next = await create(app, '{"name": "Conta \\ud83d\\ude00 São João, <#1>"}')
  t.equal(next.statusCode, 201, 'a surrogate pair, accents and DN-reserved characters are fine')
  t.equal(next.json().accountId, before + 1, 'the refused requests took no id')
  t.equal(next.json().name, 'Conta 😀 São João, <#1>')
})
