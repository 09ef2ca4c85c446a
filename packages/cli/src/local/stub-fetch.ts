import type { HostFetch, HostFetchResponse } from '@platform/runtime';
import type { FetchAssert } from './test-file.ts';

const encoder = new TextEncoder();

/** An assert's canned response: a string body as it is, anything else as JSON (the platform CLI's format). */
export const cannedResponse = (
  url: string,
  response: NonNullable<FetchAssert['response']>,
): HostFetchResponse => ({
  status: response.status,
  statusText: '',
  url,
  redirected: false,
  headers: Object.fromEntries(response.headers.map(([name, value]) => [name.toLowerCase(), value])),
  body: encoder.encode(
    typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? null),
  ),
});

export type StubbedFetch = {
  fetch: HostFetch;
  /** What went wrong with the fetches of the test so far, and the asserts' counts not reached. */
  failures(): string[];
};

/**
 * The fetch of one test: each request must match an assert by URL and method; it answers the assert's response, or
 * the real upstream when the assert has none. A request no assert names, or one more than `count`, fails the test.
 */
export const stubbedFetch = (asserts: readonly FetchAssert[], passThrough: HostFetch): StubbedFetch => {
  const seen = asserts.map(() => 0);
  const problems: string[] = [];
  return {
    fetch: async (request, signal) => {
      const index = asserts.findIndex(
        (a) => a.url === request.url && a.method.toUpperCase() === request.method.toUpperCase(),
      );
      const assert = asserts[index];
      if (assert === undefined) {
        problems.push(`fetch ${request.method} ${request.url} is not in asserts.fetch`);
        throw new Error('the test file does not expect this fetch');
      }
      seen[index] = (seen[index] ?? 0) + 1;
      if ((seen[index] ?? 0) > assert.count) {
        problems.push(`fetch ${assert.method} ${assert.url} made more than ${assert.count} time(s)`);
      }
      return assert.response ? cannedResponse(request.url, assert.response) : passThrough(request, signal);
    },
    failures: () => [
      ...problems,
      ...asserts.flatMap((a, i) =>
        (seen[i] ?? 0) < a.count
          ? [`fetch ${a.method} ${a.url} expected ${a.count} time(s), made ${seen[i] ?? 0}`]
          : [],
      ),
    ],
  };
};
