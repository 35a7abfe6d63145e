import type { RoutesPlugin } from '../../route-plugin.js'
import { Type } from '@sinclair/typebox'
import { Refusal } from '../../errors/refusal.js'
import { errorResponses } from '../../schemas/common.js'
import { AccountFilterQuery, ArmedScenario, ArmedScenarioList, ArmScenarioBody, NumericIdParams, ScenarioCatalogue } from '../../schemas/sandbox.js'
import { catalogue } from '../../../scenarios/catalogue.js'
import { SANDBOX_SHAPE } from './errors.js'

/** The scenario catalogue and the scenarios armed per account. */
const scenarioRoutes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.get('/scenarios', {
    schema: {
      operationId: 'sandboxListScenarios',
      tags: ['Sandbox'],
      summary: 'The scenario catalogue: every name, the endpoints it applies to, and its effect',
      response: { 200: ScenarioCatalogue },
    },
  }, async () => ({ scenarios: catalogue.map(s => ({ ...s, endpoints: [...s.endpoints], params: [...(s.params ?? [])] })) }))

  app.post('/scenarios/arm', {
    schema: {
      operationId: 'sandboxArmScenario',
      tags: ['Sandbox'],
      summary: 'Arm a scenario for an account, for clients that cannot send X-Sandbox-Scenario',
      description: 'The scenario uses the header syntax (`NAME;ms=5000`, comma-separated). It applies to the account\'s next matching requests (all endpoints it fits, or only `endpoint`), `times` times or until disarmed. A request with the header ignores armed scenarios.',
      body: ArmScenarioBody,
      response: { 201: ArmedScenario, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request, reply) => {
    sb.accounts.require(request.body.accountId)
    const armed = sb.scenarios.arm(request.body)
    return reply.status(201).send(armed)
  })

  app.get('/scenarios/armed', {
    schema: {
      operationId: 'sandboxListArmedScenarios',
      tags: ['Sandbox'],
      summary: 'Scenarios armed, for one account or all',
      querystring: AccountFilterQuery,
      response: { 200: ArmedScenarioList },
    },
  }, async (request) => ({ armed: sb.scenarios.armed(request.query.accountId) }))

  app.delete('/scenarios/armed/:id', {
    schema: {
      operationId: 'sandboxDisarmScenario',
      tags: ['Sandbox'],
      summary: 'Disarm a scenario',
      params: NumericIdParams,
      response: { 204: Type.Null(), ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request, reply) => {
    if (!sb.scenarios.disarm(request.params.id)) throw new Refusal('SCENARIO_NOT_FOUND', `Armed scenario ${request.params.id} not found`)
    return reply.status(204).send(null)
  })
}

export default scenarioRoutes
