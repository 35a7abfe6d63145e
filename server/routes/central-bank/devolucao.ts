import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** PUT and GET /pix/:e2eid/devolucao/:id (spec 2.9). Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
