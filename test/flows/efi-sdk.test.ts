import t from 'tap'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childEnv } from '../helpers/process.js'

/**
 * Efí's API Pix SDKs for Node, unchanged but for their base URL, against the sandbox over mutual TLS
 * (docs/api-pix.md, "Tested with"). The SDKs take no CA of their own, so the sandbox's server
 * certificate, made here with openssl for 127.0.0.1 as a user would make it, is trusted as an
 * integrator trusts one: NODE_EXTRA_CA_CERTS, which Node reads when a process starts. The SDKs
 * therefore run in a process of their own (efi-sdk/integrator.ts, with the sandbox inside it), whose
 * tests are this file's subtests.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-efi-sdk-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

execFileSync('openssl', [
  'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
  '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  '-keyout', join(dir, 'server.key'), '-out', join(dir, 'server.crt'),
], { stdio: 'ignore' })

t.spawn(process.execPath, ['--import', 'tsx', join(root, 'test/flows/efi-sdk/integrator.ts')], {
  cwd: root,
  env: { ...process.env, ...childEnv(), NODE_EXTRA_CA_CERTS: join(dir, 'server.crt'), EFI_SDK_DIR: dir },
}, 'Efí\'s SDKs as an integrator runs them against the sandbox')
