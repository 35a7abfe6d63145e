import { mkdirSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page, Request } from 'playwright-core'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.js'
import { launchChromium, walkThroughSources } from './chromium.js'

/**
 * What the browser tests share (the browser itself comes from chromium.ts): a page that collects its
 * errors, a real webhook receiver on 127.0.0.1, a polling wait, the screenshots folder (gitignored,
 * made at run time), and a sandbox with a page to test one view on.
 */
export const screenshotsDir = new URL('./screenshots/', import.meta.url)
export function screenshotPath (name: string): string {
  mkdirSync(screenshotsDir, { recursive: true })
  return new URL(`${name}.png`, screenshotsDir).pathname
}

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: any
}

export interface Receiver {
  url: string
  received: Received[]
  close: () => Promise<void>
}

/** A webhook receiver that answers 200 and keeps every request it got. */
export async function startReceiver (): Promise<Receiver> {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try { body = JSON.parse(text) } catch {}
      received.push({ path: req.url ?? '/', headers: req.headers, body })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>(resolve => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

/**
 * How long a wait for something that should happen may take: a loaded two-core CI machine running
 * seven test files at once can stall a page for seconds, and a wait that succeeds costs no more for it.
 */
export const WAIT_MS = 15_000

/** Polls `check` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function until<T> (what: string, check: () => T | Promise<T>, timeoutMs = WAIT_MS): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await check()
      if (value) return value as NonNullable<T>
    } catch (err) {
      last = err
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** A page of a fresh context at this size; its uncaught errors and console errors land in `errors`. */
export async function newPage (browser: Browser, viewport: { width: number, height: number }, errors: string[]): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage()
  page.setDefaultTimeout(WAIT_MS)
  page.on('pageerror', (err) => errors.push(err.message))
  page.on('console', (msg) => { if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text()) })
  return page
}

/**
 * Holds the page's next request to `url` (a glob of page.route) until `release()`, which resolves once
 * the request has gone on: a poll kept in flight, to show what the page does when something happens
 * meanwhile. `held` resolves with the request once it is held.
 */
export function holdNextRequest (page: Page, url: string): { held: Promise<Request>, release: () => Promise<void> } {
  let release!: () => void
  let continued!: () => void
  const released = new Promise<void>(resolve => { release = resolve })
  const answered = new Promise<void>(resolve => { continued = resolve })
  const held = new Promise<Request>(resolve => {
    void page.route(url, async route => { resolve(route.request()); await released; await route.continue(); continued() }, { times: 1 })
  })
  return { held, release: async () => { release(); await answered } }
}

/** A sandbox listening on 127.0.0.1 and a page of the preferred Chromium: where a test of one dashboard view starts. */
export interface DashboardSession {
  app: FastifyInstance
  base: string
  page: Page
  /** The page's uncaught errors and console errors. */
  pageErrors: string[]
  close: () => Promise<void>
}

export async function dashboardSession (config: Record<string, unknown>, viewport = { width: 1280, height: 900 }): Promise<DashboardSession> {
  const app = await buildApp({ config })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  let browser: Browser | undefined
  try {
    browser = (await launchChromium(walkThroughSources()[0])).browser
    const pageErrors: string[] = []
    const page = await newPage(browser, viewport, pageErrors)
    const opened = browser
    return { app, base, page, pageErrors, close: async () => { await opened.close(); await app.close() } }
  } catch (err) {
    await browser?.close()
    await app.close()
    throw err
  }
}
