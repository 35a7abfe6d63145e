/**
 * The suites of webhook deliveries and their faults run against a data file, each test ending
 * by comparing the reloaded file and journal with the live state (the reasoning is in
 * payments.test.ts).
 */
import { runJournaled } from './suites.js'

await runJournaled('deliveries')
