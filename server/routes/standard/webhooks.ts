import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** POST and GET /api/webhooks (spec 2.11, 4 rows 12-13). Owned by the webhook capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
