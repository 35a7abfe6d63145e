import t, { type Test } from 'tap'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { appliedScenarios } from '../../../server/applied-scenarios.js'
import { ScenarioService } from '../../../server/services/scenarios.js'
import { addAccount, engine } from './harness.js'

// ScenarioService alone over a memory store and the clock: a request's scenarios from its
// X-Sandbox-Scenario header or from what is armed for its account. And the edge around it
// (applied-scenarios.ts): resolved once per request, echoed in X-Sandbox-Scenario-Applied; its request and
// reply are the fields of Fastify's it reads and writes.

async function scenarios (t: Test) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  return { ...e, service: new ScenarioService(e.store, e.clock) }
}

function exchange (service: ScenarioService, header?: string) {
  const echoed: Record<string, string> = {}
  const request = { headers: header === undefined ? {} : { 'x-sandbox-scenario': header }, server: { sandbox: { scenarios: service } } } as unknown as FastifyRequest
  const reply = { header (name: string, value: string) { echoed[name] = value; return this } } as unknown as FastifyReply
  return { request, reply, echoed }
}

t.test('the header names the scenarios of the request, with their parameters, echoed back', async t => {
  const { service } = await scenarios(t)
  t.same(service.resolve('SETTLEMENT_DELAY;ms=5000, WEBHOOK_DROP', 'cash-out', 1), [{ name: 'SETTLEMENT_DELAY', params: { ms: '5000' } }, { name: 'WEBHOOK_DROP', params: {} }])
  const { request, reply, echoed } = exchange(service, 'SETTLEMENT_DELAY;ms=5000, WEBHOOK_DROP')
  t.same(appliedScenarios(request, reply, 'cash-out', 1).map(s => s.name), ['SETTLEMENT_DELAY', 'WEBHOOK_DROP'])
  t.equal(echoed['x-sandbox-scenario-applied'], 'SETTLEMENT_DELAY;ms=5000,WEBHOOK_DROP')
})

t.test('resolved once per request: a second call answers the same list and uses up no armed scenario', async t => {
  const { service } = await scenarios(t)
  service.arm({ accountId: 1, scenario: 'INSUFFICIENT_FUNDS', times: 2 })
  const { request, reply } = exchange(service)
  const first = appliedScenarios(request, reply, 'cash-out', 1)
  t.equal(appliedScenarios(request, reply, 'cash-out', 1), first)
  t.equal(service.armed(1)[0].remaining, 1, 'counted once')
})

t.test('an unknown name, or one that does not apply to the endpoint, is UNKNOWN_SCENARIO listing the valid ones', async t => {
  const { service } = await scenarios(t)
  t.throws(() => service.resolve('NO_SUCH_THING', 'cash-out', 1), {
    code: 'UNKNOWN_SCENARIO',
    details: { endpoint: 'cash-out', validScenarios: Array },
  })
  t.throws(() => service.resolve('AUTO_PAY', 'cash-out', 1), { code: 'UNKNOWN_SCENARIO' }, 'a pay-in scenario on a pay-out')
  t.throws(() => service.parseHeader('WEBHOOK_DROP', null, 'GET /balance'), { code: 'UNKNOWN_SCENARIO', details: { endpoint: 'GET /balance', validScenarios: [] } }, 'an operation that takes none')
  const err = t.throws(() => service.parseHeader('NOPE', 'cash-in')) as unknown as { details: { validScenarios: string[] } }
  t.ok(err.details.validScenarios.includes('AUTO_PAY'))
})

t.test('armed scenarios: the account\'s next requests to their endpoint, counted down, then gone', async t => {
  const { service } = await scenarios(t)
  const armed = service.arm({ accountId: 1, scenario: 'SETTLEMENT_DELAY;ms=100', endpoint: 'cash-out', times: 2 })
  t.match(armed, { accountId: 1, endpoint: 'cash-out', remaining: 2 })
  const take = (accountId: number, endpoint: 'cash-out' | 'cash-in') => {
    const x = exchange(service)
    return { applied: appliedScenarios(x.request, x.reply, endpoint, accountId), echoed: x.echoed }
  }
  t.same(take(2, 'cash-out').applied, [], 'another account\'s requests are not bent')
  t.same(take(1, 'cash-in').applied, [], 'nor another endpoint\'s')
  const first = take(1, 'cash-out')
  t.same(first.applied, [{ name: 'SETTLEMENT_DELAY', params: { ms: '100' } }])
  t.equal(first.echoed['x-sandbox-scenario-applied'], 'SETTLEMENT_DELAY;ms=100')
  t.equal(service.armed(1)[0].remaining, 1)
  take(1, 'cash-out')
  t.same(service.armed(1), [], 'used up')
  t.same(take(1, 'cash-out').applied, [])
})

t.test('the header wins over what is armed, which stays armed', async t => {
  const { service } = await scenarios(t)
  service.arm({ accountId: 1, scenario: 'INSUFFICIENT_FUNDS', times: 1 })
  t.same(service.resolve('SETTLEMENT_DELAY;ms=1', 'cash-out', 1).map(s => s.name), ['SETTLEMENT_DELAY'])
  t.equal(service.armed(1).length, 1)
  const unknown = exchange(service)
  t.same(appliedScenarios(unknown.request, unknown.reply, 'cash-out', null), [], 'an unknown account takes nothing armed')
  t.same(unknown.echoed, {}, 'and nothing is echoed')
})

t.test('arm without a count stays until disarmed, and arming checks names, endpoints and parameters first', async t => {
  const { service } = await scenarios(t)
  const forever = service.arm({ accountId: 1, scenario: 'INSUFFICIENT_FUNDS' })
  for (let i = 0; i < 3; i++) t.same(service.resolve(undefined, 'cash-out', 1).map(s => s.name), ['INSUFFICIENT_FUNDS'])
  t.equal(service.disarm(forever.id), true)
  t.equal(service.disarm(forever.id), false)
  t.throws(() => service.arm({ accountId: 1, scenario: '' }), { code: 'UNKNOWN_SCENARIO' })
  t.throws(() => service.arm({ accountId: 1, scenario: 'NOPE' }), { code: 'UNKNOWN_SCENARIO', message: /NOPE/ })
  t.throws(() => service.arm({ accountId: 1, scenario: 'AUTO_PAY', endpoint: 'cash-out' }), { code: 'UNKNOWN_SCENARIO', message: /cash-in/ })
  t.throws(() => service.arm({ accountId: 1, scenario: 'SETTLEMENT_DELAY' }), { code: 'INVALID_SCENARIO_PARAMETER' }, 'its required ms is missing')
  t.same(service.armed(), [])
})

t.test('an account\'s removal disarms the account\'s scenarios only', async t => {
  const { service, store } = await scenarios(t)
  service.arm({ accountId: 1, scenario: 'INSUFFICIENT_FUNDS' })
  service.arm({ accountId: 2, scenario: 'INSUFFICIENT_FUNDS' })
  store.transact(() => store.removeAccount(1))
  t.same(service.armed(1), [])
  t.equal(service.armed(2).length, 1)
})
