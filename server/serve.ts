import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { AddressInfo, Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import { buildApp } from './app.js'
import { prettyStream } from './journal/console.js'
import { batchedStdout } from './log-stream.js'
import { ConfigSchema, type Config } from './config.js'
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
  /**
   * Stops serving, always in bounded time (docs/reliability.md, "Stopping"): answers what is in
   * flight, closes idle connections at once, gives a request still arriving `--stop-grace-ms`, cuts
   * what remains, then flushes the store. Resolves once all of it is done; a second call waits too.
   */
  stop: () => Promise<void>
}

/**
 * How long, by default, a request still arriving when the sandbox stops (its headers or its body half
 * sent) has to finish arriving: then it is answered, else its connection is cut (`--stop-grace-ms`). A
 * few seconds: a client that is sending is done by then, and one that stalled does not hold
 * `docker stop` until its kill.
 */
export const SHUTDOWN_GRACE_MS: number = (ConfigSchema.properties.stopGraceMs as { default: number }).default

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
  return { app, said: announcement(bound, networkInterfaces(), { https: Boolean(tls), adminToken: config.adminToken }), https: Boolean(tls), stop: stopper(app, config.stopGraceMs) }
}

/**
 * What makes the stop end whatever the clients do. Fastify's close stops listening, answers a request
 * that starts on a live connection with 503 and `Connection: close`, releases held requests and
 * long-polls, and node closes the keep-alive connections that sit between requests. Node counts a
 * connection that has not sent a byte yet as busy, though, and keeps a keep-alive connection open
 * after an answer it was writing when the stop began; and a half-sent request would wait forever.
 */
function stopper (app: FastifyInstance, graceMs: number): () => Promise<void> {
  const server = app.server
  // Every connection as TCP sees it, and with TLS as HTTP sees it too (the raw socket has read the handshake).
  const connections = new Set<Socket>()
  const track = (socket: Socket): void => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  }
  server.on('connection', track)
  server.on('secureConnection', track)
  let stopped: Promise<void> | undefined
  return () => {
    stopped ??= (() => {
      // Read when an answer ends: a connection whose answer goes out from now on closes right after it.
      server.keepAliveTimeout = 1
      const closed = app.close()
      // After this turn's reads: a connection whose first bytes are already waiting in the kernel is
      // read (and so not silent) before the silent ones are closed.
      setImmediate(() => { for (const socket of connections) if (socket.bytesRead === 0) socket.destroy() })
      const cut = setTimeout(() => { for (const socket of connections) socket.destroy() }, graceMs)
      return closed.finally(() => clearTimeout(cut))
    })()
    return stopped
  }
}
