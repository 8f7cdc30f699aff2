// The fallback load generator of api.bench.mjs when `wrk` is not installed: autocannon in a
// process of its own (not the bench's, not the server's). Argument: one JSON case
// { url, method, headers, body, connections, seconds }; prints one line
// `BENCH {"requests","micros","p50","p99","bad","bytes"}` (latencies in µs), as the wrk script does.
import autocannon from 'autocannon';

const c = JSON.parse(process.argv[2]);
const result = await autocannon({
  url: c.url,
  method: c.method ?? 'GET',
  headers: c.headers,
  body: c.body,
  connections: c.connections,
  duration: c.seconds,
});
const figures = {
  requests: result.requests.total,
  micros: Math.round(result.duration * 1e6),
  p50: Math.round(result.latency.p50 * 1000),
  p99: Math.round(result.latency.p99 * 1000),
  bad: result.non2xx + result.errors + result.timeouts,
  bytes: result.throughput.total,
};
console.log(`\nBENCH ${JSON.stringify(figures)}`);
