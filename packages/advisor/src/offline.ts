import type { AdvisorFrame } from './frames.js';
import { groundText } from './grounding/ground.js';
import { type OfflineStrings, offlineStrings } from './offline-strings.js';
import { runToolCall, type ToolRunState } from './tool-runner.js';
import { turnFacts } from './turn-facts.js';
import type { AdvisorTurnInput, OfflineIntent, ToolOutcome } from './types.js';
import { newBoundary } from './untrusted.js';

/** The first line of every offline answer in English (other languages open with its translation). */
export const OFFLINE_NOTICE =
  'No AI model is configured, so I answer with fixed rules from your data.';

/** What the offline rules recognise in the user's latest message. */
export type { OfflineIntent } from './types.js';

/** Words that look like tickers but are not (upper-case words of ordinary questions). */
const NOT_SYMBOLS = new Set(
  'I A AN AND OR THE IS OF MY ME DO TO IN ON AT IT BE AI OK CSV PDF PNG JSON USD EUR GBP CHF JPY ETF PE PEG ROIC EPS FCF CEO IPO API MCP NO YES DE EN FOR WHAT HOW'.split(
    ' ',
  ),
);

/** A ticker in the text: `$AAPL`, or an upper-case word of 1–5 letters (`BF-B`, `BRK.B`). */
export function findSymbol(text: string): string | undefined {
  const dollar = /\$([A-Za-z]{1,5}(?:[.-][A-Za-z])?)\b/.exec(text);
  if (dollar?.[1]) return dollar[1].toUpperCase();
  for (const match of text.matchAll(/(?<![\p{L}\d])([A-Z]{1,5}(?:[.-][A-Z])?)(?![\p{L}\d])/gu)) {
    const word = match[1] ?? '';
    if (!NOT_SYMBOLS.has(word)) return word;
  }
  return undefined;
}

/** An X-ray word of each supported language ("x-ray", "Röntgen", "radiographie", "doorlichting", …). */
const XRAY_WORDS = /x-?ray|röntgen|radiograph|radiograf|doorlicht/;
/** The sell trigger (P/E ≥ 40) in each supported language. */
const SELL_TRIGGER_WORDS =
  /sell[- ]?(trigger|signal)|verkaufs(signal|auslöser|schwelle)|(seuil|signal|déclencheur) de vente|(señal|disparador|umbral) de venta|(segnale|soglia) di vendita|verkoop(signaal|drempel)|(sinal|gatilho) de venda/;
/** A moat, a verdict or a rating, in each supported language. */
const MOAT_WORDS =
  /moat|verdict|rated|rating|burggraben|urteil|bewert|avantage concurrentiel|ventaja competitiva|foso|vantaggio competitivo|fossato|giudizi|concurrentievoordeel|slotgracht|oordeel|vantagem competitiva|fosso|veredict/;
/** A word for the user's holdings or portfolio as a whole, in each supported language. */
const PORTFOLIO_WORDS =
  /hold|position|portfolio|depot|bestand|portefeuille|cartera|portafogli|carteira|posizion|posici|posiç|posities/;
/** "Where is my money", in each supported language. */
const WHERE_MONEY_WORDS =
  /where (is|does|sits|are) my money|where my money|wo (steckt|liegt|ist) mein geld|où (est|se trouve|va) mon argent|dónde está mi dinero|dove (sono|stanno) i miei soldi|dov['’]è il mio denaro|waar (zit|staat|is) mijn geld|onde está o meu dinheiro|onde está meu dinheiro/;

/**
 * Whether `text` asks about the moat of the portfolio as a whole (issue 38): an X-ray word, "where
 * is my money", or a moat/verdict/sell-trigger word with a holdings/portfolio word and no ticker
 * ("which of my holdings have a moat?", "are any of my positions past the sell trigger?").
 * A sell-trigger question that names no ticker is about the portfolio too.
 */
function asksXray(t: string, text: string): boolean {
  if (XRAY_WORDS.test(t) || WHERE_MONEY_WORDS.test(t)) return true;
  const symbol = findSymbol(text) !== undefined;
  if (SELL_TRIGGER_WORDS.test(t) && (!symbol || PORTFOLIO_WORDS.test(t))) return true;
  return MOAT_WORDS.test(t) && PORTFOLIO_WORDS.test(t) && !symbol;
}

/**
 * The asks the offline rules answer, in every supported language (en, de, fr, es, it, nl, pt): import an attached file (a text
 * attachment and an import/add word, or an attachment with no other ask), holdings, cash,
 * evaluate a symbol (an evaluate/moat/score word and a ticker), saved reports, portfolios, and
 * the portfolio's moat X-ray ({@link asksXray}; it answers a holdings ask of the same message too:
 * it lists every holding).
 */
export function offlineIntents(text: string, hasTextAttachment: boolean): OfflineIntent[] {
  const t = text.toLowerCase();
  const intents: OfflineIntent[] = [];
  const xray = asksXray(t, text);
  const asksImport =
    /import|upload|add (these|this|the)|hinzufüg|einlesen|übernehm|ajout|añad|agreg|aggiung|voeg|adicion/.test(
      t,
    );
  if (hasTextAttachment && asksImport) intents.push('import');
  if (
    /hold|position|own\b|invested|bestand|besitz|halte|positionen|détien|possède|posici|tengo|posizion|possiedo|posities|bezit|posiç|tenho|possuo/.test(
      t,
    )
  )
    intents.push(xray ? 'xray' : 'holdings');
  else if (xray) intents.push('xray');
  if (
    /cash|balance|liquid|bargeld|guthaben|kontostand|espèces|efectivo|saldo|contanti|contant|dinheiro/.test(
      t,
    )
  ) {
    intents.push('cash');
  }
  if (
    /evaluat|moat|analy[sz]|score|rated|rating|rate\b|bewert|burggraben|benot|note\b|notiert|évalu|evalu|analiz|analis|valut|beoordeel|avali|punteggio|pontua|puntua/.test(
      t,
    ) &&
    findSymbol(text)
  ) {
    intents.push('evaluate');
  }
  if (/report|bericht|rapport|informe|relazion|verslag|relatório|relatorio/.test(t)) {
    intents.push('reports');
  }
  if (intents.length === 0 && /portfolio|depot|portefeuille|cartera|portafogli|carteira/.test(t)) {
    intents.push('portfolios');
  }
  if (intents.length === 0 && hasTextAttachment) intents.push('import');
  return intents;
}

function fmt(value: unknown): string {
  if (typeof value === 'number') return String(Number(value.toFixed(2)));
  if (value === null || value === undefined) return '–';
  return String(value)
    .replace(/[\n\r|]/g, ' ')
    .slice(0, 80);
}

/** The rows of a tool result: an array, the one array property of an object, or the object. */
function rowsOf(data: unknown): Record<string, unknown>[] {
  const asRows = (items: unknown[]) =>
    items.filter((i): i is Record<string, unknown> => i !== null && typeof i === 'object');
  if (Array.isArray(data)) return asRows(data);
  if (data !== null && typeof data === 'object') {
    const arrays = Object.values(data).filter(Array.isArray);
    if (arrays.length === 1 && arrays[0]) return asRows(arrays[0]);
    return [data as Record<string, unknown>];
  }
  return [];
}

/** A markdown table of the `columns` that the rows have (at most 50 rows). */
function table(rows: Record<string, unknown>[], columns: string[]): string {
  const present = columns.filter((c) => rows.some((r) => r[c] !== undefined));
  if (present.length === 0) return '';
  const head = `| ${present.join(' | ')} |\n|${present.map(() => ' --- |').join('')}`;
  const body = rows.slice(0, 50).map((r) => `| ${present.map((c) => fmt(r[c])).join(' | ')} |`);
  const more = rows.length > 50 ? `\n\n(${rows.length - 50} more not shown)` : '';
  return `${head}\n${body.join('\n')}${more}`;
}

const COLUMNS: Record<Exclude<OfflineIntent, 'import' | 'xray'>, string[]> = {
  holdings: ['symbol', 'name', 'quantity', 'averageCost', 'currency', 'marketValueEur', 'weight'],
  cash: ['currency', 'amount', 'amountEur'],
  evaluate: ['symbol', 'companyName', 'totalScore', 'maxScore', 'verdict'],
  reports: ['symbol', 'companyName', 'totalScore', 'maxScore', 'verdict', 'createdAt'],
  portfolios: ['name', 'baseCurrency', 'id'],
};

function render(
  intent: OfflineIntent,
  outcome: ToolOutcome | undefined,
  failed: string,
  s: OfflineStrings,
): string {
  if (!outcome) return failed;
  if (intent === 'import') {
    if (!outcome.proposal) return outcome.summary ?? s.noImport;
    return `${outcome.proposal.summary}\n\n${s.importPending}`;
  }
  if (intent === 'xray') return renderXray(outcome, s);
  // An evaluation is one row (its criteria are not the table: its array must not be taken for rows).
  const rows =
    intent === 'evaluate' && outcome.data !== null && typeof outcome.data === 'object'
      ? [outcome.data as Record<string, unknown>]
      : rowsOf(outcome.data);
  if (rows.length === 0) return s.nothingFound;
  const text = table(rows, COLUMNS[intent]);
  return text === '' ? (outcome.summary ?? s.nothingToShow) : text;
}

/** The columns of the X-ray's holdings table (fields of `getPortfolioXray`'s holdings, flattened). */
const XRAY_COLUMNS = [
  'symbol',
  'weight',
  'valueEur',
  'totalScore',
  'maxScore',
  'verdict',
  'pe',
  'peg',
  'sellTrigger',
  'reason',
];

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * The X-ray of `getPortfolioXray` as markdown, from its data only: a table of the holdings
 * (weight, value, score, verdict, P/E, PEG, sell trigger, or the reason there is no evaluation),
 * the share of the money per verdict band and unrated, the value-weighted score, the holdings past
 * the sell trigger, and those pending or without a value.
 */
function renderXray(outcome: ToolOutcome, s: OfflineStrings): string {
  const x = record(outcome.data);
  if (!Array.isArray(x.holdings)) return outcome.summary ?? s.nothingToShow;
  if (x.holdings.length === 0) return s.nothingFound;
  const rows = x.holdings.map((h) => {
    const holding = record(h);
    const evaluation = record(holding.evaluation);
    const valuation = record(holding.valuation);
    return {
      symbol: holding.symbol,
      weight: holding.weight,
      valueEur: holding.valueEur,
      totalScore: evaluation.totalScore,
      maxScore: evaluation.maxScore,
      verdict: evaluation.verdict,
      pe: valuation.pe,
      peg: valuation.peg,
      sellTrigger: valuation.sellTrigger,
      reason: holding.reason,
    };
  });
  const bands = Array.isArray(x.bands)
    ? [...x.bands.map(record), { verdict: 'unrated', weight: x.unratedWeight }]
    : [];
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : s.xray.none);
  const lines = [
    `- ${s.xray.weightedScore}: ${fmt(x.weightedScore)}`,
    `- ${s.xray.pastSellTrigger}: ${list(strings(x.pastSellTrigger))}`,
    ...(strings(x.pending).length > 0 ? [`- ${s.xray.pending}: ${list(strings(x.pending))}`] : []),
    ...(strings(x.unvalued).length > 0
      ? [`- ${s.xray.unvalued}: ${list(strings(x.unvalued))}`]
      : []),
  ];
  return [
    table(rows, XRAY_COLUMNS),
    ...(bands.length > 0 ? [`**${s.xray.bands}**\n\n${table(bands, ['verdict', 'weight'])}`] : []),
    lines.join('\n'),
  ].join('\n\n');
}

/**
 * The advisor without a model (`endpoint` null): rules for the common asks of the user's latest
 * message ({@link offlineIntents}), each answered by calling the same tools as the model path
 * (the tool each ask is marked on, `AdvisorTool.offline`) with the same frames (`tool`, `proposal`,
 * `delta`), rendered as plain markdown from the tool data only, then `done` with
 * `finishReason: "offline"` and `_grounding`. The answer opens with {@link OFFLINE_NOTICE}.
 * Does not yield `start` (the caller does).
 */
export async function* runOfflineTurn(input: AdvisorTurnInput): AsyncGenerator<AdvisorFrame> {
  const ask = [...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const textFiles = (input.attachments ?? []).filter((a) => a.kind === 'text');
  const state: ToolRunState = {
    tools: new Map(input.tools.map((t) => [t.name, t])),
    boundary: newBoundary(),
    signal: input.signal,
    calls: 0,
    results: new Map(),
    facts: turnFacts({ messages: [{ role: 'user', content: ask }] }),
  };
  const portfolioId = input.context?.activePortfolio?.id;
  const scoped = portfolioId ? { portfolioId } : {};
  const s = offlineStrings(input.context?.language, ask);
  let answer = s.inEnglish === '' ? `${s.notice}\n\n` : `${s.notice} ${s.inEnglish}\n\n`;
  yield { type: 'delta', text: answer };
  const say = (text: string): AdvisorFrame => {
    answer += `${text}\n\n`;
    return { type: 'delta', text: `${text}\n\n` };
  };
  const intents = offlineIntents(ask, textFiles.length > 0);
  if (intents.length === 0) yield say(s.help);
  let n = 0;
  const byIntent = new Map(input.tools.flatMap((t) => (t.offline ? [[t.offline, t.name]] : [])));
  const run = async function* (name: string, args: Record<string, unknown>) {
    n += 1;
    const call = { id: `offline_${n}`, name, arguments: JSON.stringify(args) };
    return (yield* runToolCall(call, state)).outcome;
  };
  for (const intent of intents) {
    const name = byIntent.get(intent);
    if (name === undefined) {
      yield say(`## ${s.titles[intent]}\n\n${s.unavailable(s.titles[intent])}`);
      continue;
    }
    if (intent === 'xray' && portfolioId === undefined) {
      // no active portfolio: the user's only one, found with the portfolios tool
      const lister = byIntent.get('portfolios');
      const listed = lister === undefined ? undefined : yield* run(lister, {});
      const portfolios = listed ? rowsOf(listed.data).filter((p) => typeof p.id === 'string') : [];
      const only = portfolios.length === 1 ? (portfolios[0]?.id as string) : undefined;
      if (only === undefined) {
        const why =
          portfolios.length === 0
            ? s.nothingFound
            : `${table(portfolios, COLUMNS.portfolios)}\n\n${s.xray.choosePortfolio}`;
        yield say(`## ${s.titles.xray}\n\n${why}`);
        continue;
      }
      const outcome = yield* run(name, { portfolioId: only });
      yield say(`## ${s.titles.xray}\n\n${render(intent, outcome, s.failed(name), s)}`);
      continue;
    }
    const calls: Array<Record<string, unknown>> =
      intent === 'import'
        ? textFiles.map((f) => ({ filename: f.filename, ...scoped }))
        : intent === 'evaluate'
          ? [{ symbol: findSymbol(ask) }]
          : intent === 'holdings' || intent === 'cash' || intent === 'xray'
            ? [scoped]
            : [{}];
    for (const args of calls) {
      const outcome = yield* run(name, args);
      yield say(`## ${s.titles[intent]}\n\n${render(intent, outcome, s.failed(name), s)}`);
    }
  }
  yield {
    type: 'done',
    finishReason: 'offline',
    complete: true,
    _grounding: groundText(answer, state.facts),
  };
}
