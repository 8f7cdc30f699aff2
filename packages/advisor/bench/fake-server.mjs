// The fake OpenAI-compatible server of the grounding bench, in its own process (so its own work
// does not count as the advisor's): answers every chat request with the text of the JSON file
// named by argv[2] ({"pieces": [...]}, one content delta each), prints its URL, and stops when
// its stdin closes.
import { readFileSync } from 'node:fs';
import { startFakeOpenAI, textSteps } from '../dist/testing.js';

const { pieces } = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const server = await startFakeOpenAI({ script: () => ({ steps: textSteps(pieces) }) });
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().then(() => process.exit(0));
});
