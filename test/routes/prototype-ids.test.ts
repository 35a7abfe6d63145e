import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * Found by the fuzz run (docs/reliability.md): an id in a URL that names a member of Object.prototype
 * (`constructor`, `__proto__`, `toString`) found that member instead of nothing, and the route answered
 * 500. Such an id is unknown: 404 in the control plane's shape.
 */
t.test('ids named after Object.prototype members are unknown ids', async t => {
  const app = await buildTestApp(t)
  for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    for (const url of [`/__sandbox/transactions/${id}`, `/__sandbox/webhooks/deliveries/${id}`, `/__sandbox/directory/${id}`]) {
      const res = await app.inject({ method: 'GET', url })
      t.equal(res.statusCode, 404, url)
      t.equal(shapeProblem('sandbox', 404, res.body), null, 'in the control plane error shape')
    }
    const settle = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${id}/settle` })
    t.equal(settle.statusCode, 404, `settle ${id}`)
  }
})
