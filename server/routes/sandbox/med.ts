import type { RoutesPlugin } from '../../route-plugin.js'
import { errorResponses } from '../../schemas/common.js'
import { MedOpenBody, MedTransitionBody, MedTransitionView, SandboxMedList, SandboxMedView } from '../../schemas/payins.js'
import { AccountFilterQuery, NumericIdParams } from '../../schemas/sandbox.js'
import type { MedRecord } from '../../store/state.js'
import { medView } from '../../dialects/gateway/payloads/pay-in.js'
import { medRefundSummary } from '../../dialects/gateway/notifier.js'
import { appliedScenarios } from '../../applied-scenarios.js'
import { SANDBOX_SHAPE } from './errors.js'

const view = (m: MedRecord) => ({ ...medView(m), accountId: m.accountId })

/** /__sandbox/med: the payer's bank opens MED disputes and moves them (docs/assumptions.md, MED). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.post('/med', {
    schema: {
      operationId: 'sandboxOpenMed',
      tags: ['Sandbox'],
      summary: 'Open a MED against a PIX the sandbox received (as the payer\'s bank would)',
      description: 'OPEN, reconciled with the received payment; fires med_created. 404 when no received PIX has that endToEndId; 409 when a MED is already open for it.',
      body: MedOpenBody,
      response: { 201: SandboxMedView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409]) },
    },
  }, async (request, reply) => {
    const record = sb.med.open(request.body, accountId => appliedScenarios(request, reply, 'med-open', accountId))
    return reply.status(201).send(view(record))
  })

  app.get('/med', {
    schema: {
      operationId: 'sandboxListMed',
      tags: ['Sandbox'],
      summary: 'Every MED, or one account\'s (no rate limit)',
      querystring: AccountFilterQuery,
      response: { 200: SandboxMedList },
    },
  }, async (request) => ({ meds: sb.med.all(request.query.accountId).map(view) }))

  app.get('/med/:id', {
    schema: { operationId: 'sandboxGetMed', tags: ['Sandbox'], summary: 'One MED', params: NumericIdParams, response: { 200: SandboxMedView, ...errorResponses(SANDBOX_SHAPE, [404]) } },
  }, async (request) => view(sb.med.get(request.params.id)))

  app.post('/med/:id/transition', {
    schema: {
      operationId: 'sandboxTransitionMed',
      tags: ['Sandbox'],
      summary: 'Move a MED: OPEN -> RECEIVED -> ANALYZED (APPROVED or REJECTED), or CANCELLED before analysis',
      description: 'ANALYZED needs analysisResult. APPROVED (of a REFUND_REQUEST) debits what is left of the payment through a devolução of natureza MED_FRAUDE (fraud causes such as UNAUTHORIZED_TRANSACTION, SOCIAL_ENGINEERING) or MED_OPERACIONAL, and fires med_accepted; REJECTED fires med_rejected. 409 for a transition the current state does not allow.',
      params: NumericIdParams,
      body: MedTransitionBody,
      response: { 200: MedTransitionView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409]) },
    },
  }, async (request, reply) => {
    const { record, refund } = sb.med.transition(request.params.id, request.body, accountId => appliedScenarios(request, reply, 'med-transition', accountId))
    return { ...view(record), refund: refund === null ? null : medRefundSummary(refund) }
  })
}

export default routes
