// The top self-time frames of a V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` or the
// inspector's Profiler.stop write it), for api.bench.mjs's BENCH_CPU_PROF: time is attributed to
// the function the sample stopped in (self time), grouped by function name and file (the last two
// path segments, `node_modules/.pnpm/<pkg>@…/node_modules/` shortened to the package), idle
// samples and the profiler's own start and stop left out of the total.

/** `file:///…/node_modules/.pnpm/x@1/node_modules/@scope/pkg/dist/a.js` → `@scope/pkg/dist/a.js`. */
function shortUrl(url) {
  if (!url) return '';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const parts = url.split('/');
  return parts.slice(-3).join('/');
}

/**
 * The `top` frames of a profile by self time: `{ total, frames: [{ name, where, share }] }`, where
 * `total` is the non-idle sample time in ms and `share` a fraction of it.
 */
export function summarise(profile, top = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // the profiler's own start and stop (called from bench-server.mjs) are not the server's work
  const own = new Set();
  const mark = (node, inside) => {
    const mine = inside || node.callFrame.url.endsWith('/bench-server.mjs');
    if (mine) own.add(node.id);
    for (const child of node.children ?? []) mark(byId.get(child), mine);
  };
  mark(profile.nodes[0], false);
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const node = byId.get(profile.samples[i]);
    const dt = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || own.has(node.id)) continue;
    total += dt;
    const key = `${functionName || '(anonymous)'}\t${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const frames = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, micros]) => {
      const [name, where] = key.split('\t');
      return { name, where, share: micros / total };
    });
  return { total: total / 1000, frames };
}

/** The summary as lines of text. */
export function formatSummary(title, { total, frames }) {
  return [
    `${title}: ${total.toFixed(0)} ms of samples (idle left out), top self time:`,
    ...frames.map(
      (f) =>
        `  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name.slice(0, 40).padEnd(40)} ${f.where}`,
    ),
  ].join('\n');
}
