/**
 * deps.dev's batch paging, shared by versionbatch, purlbatch and projectbatch: a batch holds at most
 * 5000 requests and is answered 1000 per page, in request order; `nextPageToken` is the base64 offset of
 * the next page ('' on the last). The client sends the same requests again with that token. A token
 * that is not base64 of an offset inside the batch is a 400. The `:dependents` list pages the same way.
 */
import { HttpError } from '../platform/errors.ts';

export const MAX_BATCH = 5000;
export const BATCH_PAGE = 1000;

export interface Page<T> {
  items: T[];
  nextPageToken: string;
}

export function pageOf<T>(requests: T[], pageToken: string | undefined, size = BATCH_PAGE): Page<T> {
  let offset = 0;
  if (pageToken) {
    let text: string;
    try {
      text = atob(pageToken);
    } catch {
      throw new HttpError(400, 'invalid pageToken');
    }
    offset = /^\d+$/.test(text) ? Number(text) : -1;
    if (offset < 0 || offset >= requests.length) throw new HttpError(400, 'invalid pageToken');
  }
  const end = offset + size;
  return { items: requests.slice(offset, end), nextPageToken: end < requests.length ? btoa(String(end)) : '' };
}
