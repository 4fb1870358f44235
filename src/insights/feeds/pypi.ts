/**
 * PyPI's changelog by serial over XML-RPC (`POST {PYPI_URL}/pypi`): `changelog_last_serial()` is where a
 * follower starts, `changelog_since_serial(serial)` answers every event after it as
 * `[name, version, timestamp, action, serial]`, in serial order. Chosen over the RSS feeds, which list
 * only the last 40 updates and carry no serial. Names are PEP 503-normalised (as the store keeps them); an
 * action `remove project` is a deletion. PyPI has deprecated XML-RPC but keeps these two methods for
 * mirrors; the answer has no limit, so one read is one request.
 */
import { normalizePypiName } from '../../versions/names/index.ts';
import { fetchUpstream } from '../ingest/http.ts';
import { UpstreamError } from '../ingest/types.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';
import { parseXmlRpc, xmlRpcCall } from './xml-rpc.ts';

async function call(env: Record<string, unknown>, method: string, params: number[]): Promise<unknown> {
  const url = `${insightsConfig(env).PYPI_URL}/pypi`;
  const res = await fetchUpstream(url, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: xmlRpcCall(method, params),
  });
  const answer = parseXmlRpc(await res.text());
  if (answer.fault) throw new UpstreamError(`${url}: ${method} fault: ${answer.fault}`);
  return answer.value;
}

export const pypiFeed: Feed = {
  registry: 'pypi',
  system: 'PYPI',
  async start(env) {
    const serial = await call(env, 'changelog_last_serial', []);
    if (typeof serial !== 'number') throw new UpstreamError('changelog_last_serial: not an int');
    return String(serial);
  },
  async read(env, cursor) {
    const events = await call(env, 'changelog_since_serial', [Number(cursor)]);
    if (!Array.isArray(events)) throw new UpstreamError('changelog_since_serial: not an array');
    const changes: FeedChange[] = [];
    let next = Number(cursor);
    for (const e of events) {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[4] !== 'number')
        throw new UpstreamError('changelog_since_serial: malformed event');
      const name = normalizePypiName(e[0]);
      changes.push(e[3] === 'remove project' ? { name, deleted: true } : { name });
      next = Math.max(next, e[4]);
    }
    return { changes, cursor: String(next), more: false };
  },
};
