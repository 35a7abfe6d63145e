import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { buildApp } from './app.js'
import { prettyStream } from './journal/console.js'
import { batchedStdout } from './log-stream.js'
import type { Config } from './config.js'
import { announcement, listenFailure, readTls, type Announcement } from './startup.js'

/**
 * A sandbox listening on its port: what the process (main.ts) and the package (index.ts,
 * startSandbox) both start, so the two cannot drift. This is the one seam between "a sandbox" and
 * "a server listening": today it builds the Fastify app and listens; the sandbox core built without
 * Fastify will slot in here, and neither caller changes.
 */
export interface Serving {
  app: FastifyInstance
  /** The addresses listened on, the dashboard and docs URLs, and the warning when open to the network. */
  said: Announcement
  https: boolean
}

/**
 * pino's settings for a log level and format; `silent` is no logger at all (a silent pino still makes a
 * child per request). Without a format: pretty on a terminal, JSON lines otherwise (a pipe, a container).
 */
export function loggerFor (level: Config['logLevel'], format: Config['logFormat'] = process.stdout.isTTY ? 'pretty' : 'json'): FastifyServerOptions['logger'] {
  if (level === 'silent') return false
  return {
    level,
    stream: format === 'pretty' ? prettyStream(process.stdout) : batchedStdout,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-ssl-client-cert"]', 'req.headers["x-sandbox-admin-token"]', '*.clientSecret', '*.privateKey'], censor: '[redacted]' },
  }
}

export async function serve (config: Config): Promise<Serving> {
  const tls = readTls(config)
  const app = await buildApp({
    config,
    https: tls ? { ...tls, requestCert: true, rejectUnauthorized: false } : undefined,
    logger: loggerFor(config.logLevel, config.logFormat),
  })
  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (err) {
    // Not app.close(): closing flushes the store, and whoever holds the port may be another sandbox
    // on the same data file. Only what would outlive this attempt stops: timers and the sender thread.
    app.sandbox.scheduler.close()
    await app.sandbox.webhooks.close()
    throw listenFailure(err, config.host, config.port)
  }
  const bound = app.addresses().filter((a): a is AddressInfo => typeof a !== 'string')
  return { app, said: announcement(bound, networkInterfaces(), { https: Boolean(tls), adminToken: config.adminToken }), https: Boolean(tls) }
}
