import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { DictTransferBody, DictTransferCreated, DictTransferHeaders } from '../../../../schemas/payouts.js'
import { canonicalIdempotencyKey } from '../../../../domain/ids.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { SIMPLE } from '../../errors.js'

/** POST /dict/pix (docs/gateway.md §2.3, 4.1 endpoint 4, 7.6): a transfer by directory key, idempotent by x-idempotency-key. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.post('/dict/pix', {
    config: { auth: true },
    schema: {
      operationId: 'dictTransfer',
      tags: ['Central bank'],
      summary: 'Transfer to a directory key',
      description: 'A repeat with the same x-idempotency-key returns the same transfer (same status and body) and creates nothing. ' +
        'The endToEndId of the answer is provisional (the transaction UUID); the real one arrives in the TRANSFER webhook.',
      security: [{ bearer: [] }],
      headers: DictTransferHeaders,
      body: DictTransferBody,
      response: { 201: DictTransferCreated, ...errorResponses(SIMPLE, [400, 401, 422]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    // Looked up and stored in canonical form, so the index and the record (and a restart) agree.
    const key = canonicalIdempotencyKey(request.headers['x-idempotency-key'])
    // Lookup and insert run with no await between them, so racing repeats create exactly one transfer.
    const previous = sb.payouts.transferFor(account, key)
    if (previous) return reply.status(201).send(previous.data.response!)
    const scenarios = appliedScenarios(request, reply, 'dict-pix', account.id)
    const tx = sb.payouts.createDictTransfer(account, { ...request.body, idempotencyKey: key }, scenarios)
    return reply.status(201).send(tx.data.response!)
  })
}

export default routes
