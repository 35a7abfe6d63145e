import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** POST /api/pix/cash-in (spec 2.6). Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
