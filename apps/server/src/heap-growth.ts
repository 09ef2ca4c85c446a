import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap grow past what its last full collection left live, before marking it again: to three times.
 * V8 derives this from how fast its collector runs against the program, and under a steady load of connector runs
 * (a thousand a second, each with its upstream fetch and its bytes) it settled near 1.6 on the main thread. The heap's
 * room then fell below the young generation's size, and a full collection (marking the whole old generation, on
 * helper threads) ran every few hundred milliseconds in place of the cheap young-generation ones: twelve times as
 * many per download as on the proxy route. On cores the load keeps busy that marking is taken from the requests.
 * The cost is memory: a heap may reach three times its live size (the main thread's is about 45 MB live).
 */
const HEAP_GROWING_PERCENT = 200;

/** Set before the server allocates much, and before its runtime workers start (they share V8's flags). */
export const setHeapGrowth = (): void => {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
};
