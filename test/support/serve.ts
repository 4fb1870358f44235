/** serveWorker lives under tools/ (benches and the ledger use it too; tools never import from test/). */
export { serveWorker, type Served } from '../../tools/stack/serve-worker.ts';
