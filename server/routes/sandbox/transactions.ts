import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** /__sandbox/transactions: list, read, settle and fail. Owned by the pay-outs capability; settle/fail dispatch to the service of each transaction kind. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
