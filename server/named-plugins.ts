import type { FastifyPluginAsync } from 'fastify'

const displayName = Symbol.for('fastify.display-name')

/**
 * A route plugin with a name. Fastify names an unnamed plugin by searching require.cache for the
 * module that exports it, a walk over every CommonJS module loaded: in a process that had loaded a
 * test runner, it was a tenth of building an app.
 */
export function named<P extends FastifyPluginAsync<never>> (name: string, plugin: P): P {
  if (!Object.hasOwn(plugin, displayName)) Object.defineProperty(plugin, displayName, { value: name })
  return plugin
}

/** Registers a folder's route plugins, each under its resource's name. */
export async function registerNamed (app: Parameters<FastifyPluginAsync>[0], plugins: Record<string, FastifyPluginAsync>): Promise<void> {
  for (const [name, plugin] of Object.entries(plugins)) await app.register(named(name, plugin))
}
