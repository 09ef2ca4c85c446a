// One autocannon run, in a worker thread of the bench (off the event loop that serves the loopback target), timing
// every 2xx answer itself: autocannon's own latency histogram keeps whole milliseconds, and a p99 of 1 ms against one
// of 4 ms is no ratio to judge by when the true values may be 1.9 and 4.0. Posts requests per second (answers over
// the run's duration), p50 and p99 in milliseconds, and the count of errors and of answers other than 2xx. Plain
// JavaScript, like bare-node-proxy.mjs.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const { url, headers, connections, duration } = workerData;
// Room for 100,000 answers a second, made up front: growing an array while timing would add pauses of its own.
let latencies = new Float64Array(Math.max(1, duration) * 100_000);
let count = 0;

const instance = autocannon({ url, headers, connections, duration }, (error, result) => {
  if (error) throw error;
  const sorted = latencies.subarray(0, count).sort();
  // The nearest-rank percentile: the smallest latency that at least this share of the answers did not exceed.
  const percentile = (share) => sorted[Math.max(0, Math.ceil(share * count) - 1)] ?? 0;
  parentPort.postMessage({
    requestsPerSecond: result.totalCompletedRequests / result.duration,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
    failures: result.errors + result.non2xx,
  });
});
instance.on('response', (_client, statusCode, _bytes, milliseconds) => {
  if (statusCode < 200 || statusCode > 299) return;
  if (count === latencies.length) {
    const larger = new Float64Array(latencies.length * 2);
    larger.set(latencies);
    latencies = larger;
  }
  latencies[count++] = milliseconds;
});
