import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** /__sandbox/webhooks: registrations and the delivery log. Owned by the webhook capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
