/**
 * With --data, a write journals the records the store's write API touched since the previous one;
 * there is no other way to change a record (test/unit/write-path.test.ts). The files of this folder
 * check the API itself: each runs suites that change some kinds of record again against a data file,
 * and each test ends by reloading the file and its journal and comparing them with the live state,
 * record by record (test/helpers/app.ts, PIX_TEST_PERSIST). A change the API made without journaling
 * it (a removal, a sequence, a replaced state) shows up as a difference. Split by kind of record so
 * that they run side by side: pay-outs, the directory, charges and payments. suites.ts lists them;
 * the route and flow groups leave them to this folder.
 */
import { runJournaled } from './suites.js'

await runJournaled('payments')
