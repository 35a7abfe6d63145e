import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** PUT and GET /cob/:txid (spec 2.8). Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
