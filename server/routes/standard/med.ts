import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** GET /api/med (spec 2.10, 4 row 11). Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
