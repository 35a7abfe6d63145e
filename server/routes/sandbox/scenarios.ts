import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { notFound } from '../../errors/api-error.js'
import { errorResponses, StringEnum } from '../../schemas/common.js'
import { catalogue } from '../../../scenarios/catalogue.js'
import { ENDPOINTS } from '../../../scenarios/types.js'

const EndpointSchema = StringEnum(ENDPOINTS)

const Armed = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  scenario: Type.String(),
  endpoint: Type.Union([EndpointSchema, Type.Null()]),
  remaining: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String(),
})

/** The scenario catalogue and the scenarios armed per account. */
const scenarioRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sb = app.sandbox

  app.get('/scenarios', {
    schema: {
      tags: ['Sandbox'],
      summary: 'The scenario catalogue: every name, the endpoints it applies to, and its effect',
      response: {
        200: Type.Object({
          scenarios: Type.Array(Type.Object({
            name: Type.String(),
            endpoints: Type.Array(Type.String()),
            timing: Type.String(),
            effect: Type.String(),
            params: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), required: Type.Boolean() })),
          })),
        }),
      },
    },
  }, async () => ({ scenarios: catalogue.map(s => ({ ...s, endpoints: [...s.endpoints], params: [...(s.params ?? [])] })) }))

  app.post('/scenarios/arm', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Arm a scenario for an account, for clients that cannot send X-Sandbox-Scenario',
      description: 'The scenario uses the header syntax (`NAME;ms=5000`, comma-separated). It applies to the account\'s next matching requests (all endpoints it fits, or only `endpoint`), `times` times or until disarmed. A request with the header ignores armed scenarios.',
      body: Type.Object({
        accountId: Type.Integer({ minimum: 1 }),
        scenario: Type.String({ minLength: 1, maxLength: 500 }),
        endpoint: Type.Optional(EndpointSchema),
        times: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
      }),
      response: { 201: Armed, ...errorResponses('sandbox', [400, 404]) },
    },
  }, async (request, reply) => {
    sb.accounts.require(request.body.accountId)
    const armed = sb.scenarios.arm(request.body)
    return reply.status(201).send(armed)
  })

  app.get('/scenarios/armed', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Scenarios armed, for one account or all',
      querystring: Type.Object({ accountId: Type.Optional(Type.Integer({ minimum: 1 })) }),
      response: { 200: Type.Object({ armed: Type.Array(Armed) }) },
    },
  }, async (request) => ({ armed: sb.scenarios.armed(request.query.accountId) }))

  app.delete('/scenarios/armed/:id', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Disarm a scenario',
      params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
      response: { 204: Type.Null(), ...errorResponses('sandbox', [404]) },
    },
  }, async (request, reply) => {
    if (!sb.scenarios.disarm(request.params.id)) throw notFound(`Cenário armado ${request.params.id} não encontrado`, 'SCENARIO_NOT_FOUND')
    return reply.status(204).send(null)
  })
}

export default scenarioRoutes
