import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** POST /api/pix/refund-in/:id (spec 2.7). Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
