import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { dialects } from '../../server/dialects/index.js'
import { exampleDialect } from '../helpers/example-dialect/index.js'

/**
 * The dashboard knows the sandbox's dialects from the registry, not from a list of its own: the
 * delivery event types it filters the Deliveries tab by are every dialect's (their descriptors'
 * `deliveries`), so a new dialect's show up with no edit of the page (docs/dashboard.md).
 */

const typesOf = async (app: Awaited<ReturnType<typeof buildTestApp>>): Promise<string[]> => {
  const res = await app.inject({ method: 'GET', url: '/dashboard/assets/lists.js' })
  t.equal(res.statusCode, 200)
  const line = res.body.split('\n').find(l => l.startsWith('export const DELIVERY_TYPES = '))
  return line === undefined ? [] : JSON.parse(line.slice('export const DELIVERY_TYPES = '.length))
}

t.test('the page\'s delivery event types are the registry\'s dialects\', a new dialect\'s included', async t => {
  const app = await buildTestApp(t)
  const builtIn = await typesOf(app)
  t.same(builtIn, app.sandbox.deliveries.types, 'the sandbox\'s delivery event types, in the registry\'s order')
  t.ok(['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected', 'pix', 'cobr', 'rec'].every(type => builtIn.includes(type)), 'the gateway\'s events and API Pix\'s callbacks among them')
  const withExample = await typesOf(await buildTestApp(t, {}, { dialects: [...dialects, exampleDialect()] }))
  t.same(withExample, [...builtIn, 'example_pix'], 'the example dialect\'s, with no edit of the page')
})
