// The moat card's MCP App, bundled into dist/moat-card.html by scripts/bundle-app.mjs: it connects
// to the host through the ext-apps `App` bridge (postMessage to the parent frame) and draws each
// getMoatEvaluation result it is given.
import { App } from '@modelcontextprotocol/ext-apps';
import { MoatEvaluation } from '@svc/schemas';
import { type CardEvaluation, renderMoatCard } from '../card.js';

const root = document.getElementById('root') as HTMLElement;

function status(text: string): void {
  const p = document.createElement('p');
  p.className = 'card-status';
  p.setAttribute('role', 'status');
  p.textContent = text;
  root.replaceChildren(p);
}

/** The problem's `detail` of a failed result (its one text block is the problem JSON). */
function problemDetail(content: readonly { type: string; text?: string }[] | undefined): string {
  const text = content?.find((block) => block.type === 'text')?.text ?? '';
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? detail : text;
  } catch {
    return text;
  }
}

function applyTheme(context: { theme?: string | undefined } | undefined): void {
  const theme = context?.theme;
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
}

const app = new App({ name: 'moat-card', version: '0.1.0' });
app.ontoolinput = ({ arguments: args }) => {
  const symbol = typeof args?.symbol === 'string' ? args.symbol : 'the company';
  status(`Evaluating ${symbol}…`);
};
app.ontoolresult = (result) => {
  if (result.isError === true) {
    status(`No evaluation: ${problemDetail(result.content)}`);
    return;
  }
  const parsed = MoatEvaluation.safeParse(result.structuredContent);
  if (!parsed.success) {
    status('The result is not a moat evaluation.');
    return;
  }
  root.innerHTML = renderMoatCard(parsed.data as CardEvaluation);
};
app.ontoolcancelled = () => status('The evaluation was cancelled.');
app.onhostcontextchanged = applyTheme;
app.connect().then(
  () => applyTheme(app.getHostContext()),
  (error: unknown) => status(`Could not connect to the host: ${String(error)}`),
);
