import { type FetchRecord, type HostFetchRequest, urlForRecord } from '@platform/runtime';

/** A fetch of a call as the main thread saw it: whether its request went out, with the connector's credentials. */
export type SentFetch = { request: HostFetchRequest; sent: boolean; credentialsInjected: boolean };

/**
 * A call's fetch records with what only the main thread knows of those its end aborted. The worker records such a
 * fetch when the call ends, before any answer: it cannot tell whether the request had gone out (a fetch still waiting
 * for an OAuth token had not) or carried the credentials. Records and fetches pair by method and URL, in the order
 * the fetches started (both sides keep it).
 */
export const withSentState = (records: FetchRecord[], fetches: readonly SentFetch[]): FetchRecord[] => {
  if (!records.some((record) => record.aborted && record.requestSent)) return records;
  const unpaired = [...fetches];
  return records.map((record) => {
    if (!record.aborted || !record.requestSent) return record;
    const at = unpaired.findIndex(
      (fetch) => fetch.request.method === record.method && urlForRecord(fetch.request.url) === record.url,
    );
    const fetch = at === -1 ? undefined : unpaired.splice(at, 1)[0];
    return {
      ...record,
      requestSent: fetch?.sent ?? false,
      credentialsInjected: fetch?.credentialsInjected ?? false,
    };
  });
};
