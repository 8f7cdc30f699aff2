/**
 * The metrics a figure can be said to be, and the words (English and German; the moat template's
 * words in French, Spanish, Italian, Dutch and Portuguese) that name them near
 * a number. A claim "ROIC of 26.5%" is the figure `26.5%` with the metric `roic`; it is checked
 * against the facts of that metric only.
 */
export const METRIC_WORDS = {
  // Moat evaluation (criteria, score, valuation)
  score:
    'scores?|scored|punkte|punkten|points|pts|erreicht|total score|gesamtpunktzahl|obtient|obtiene|puntos|ottiene|punti|scoort|punten|obtém|pontos',
  criteria:
    'criterion|criteria|kriterium|kriterien|critère|critères|criterio|criterios|criteri|critério|critérios',
  criteria_passed:
    'pass|passes|passed|passing|erfüllt|bestanden|remplis|rempli|se cumplen|cumple|cumplen|soddisfatti|soddisfatto|gehaald|cumpridos|cumprido',
  criteria_warning:
    'warning|warnings|warns|warnung|warnungen|alerte|advertencia|avviso|waarschuwing|alerta',
  criteria_failed:
    'fail|fails|failed|failing|verfehlt|nicht erfüllt|échec|no cumple|non soddisfatto|niet gehaald|não cumprido',
  roic: 'roic|return on invested capital|kapitalrendite|rendite auf das investierte kapital|rentabilité des capitaux investis|rentabilidad del capital invertido|rendimento del capitale investito|rendement op geïnvesteerd kapitaal|retorno sobre o capital investido',
  gross_margin:
    'gross margins?|bruttomarge|rohertragsmarge|marge brute|margen bruto|margine lordo|brutomarge|margem bruta',
  net_margin:
    'net margins?|nettomarge|profit margins?|umsatzrendite|marge nette|margen neto|margine netto|margem líquida',
  operating_margin: 'operating margins?|operative marge|ebit[- ]marge',
  eps_growth:
    'eps growth|eps trend|earnings growth|earnings per share growth|gewinnwachstum|eps-wachstum',
  eps: 'eps|earnings per share|gewinn je aktie|gewinn pro aktie',
  r_squared: String.raw`r²|r\^2|r-squared|r squared|bestimmtheitsmaß`,
  retained_earnings: 'retained earnings|gewinnrücklagen|thesaurierte gewinne',
  buybacks: 'buybacks?|share repurchases?|aktienrückkäufe|aktienrückkauf',
  debt: 'debt|schulden|verschuldung|verbindlichkeiten|dette|deuda|debito|schuld|dívida',
  interest: 'interest expense|interest|zinsen|zinsaufwand',
  capex: 'capex|capital expenditures?|investitionen|investitionsausgaben',
  revenue: 'revenues?|sales|umsatz|umsätze|erlöse',
  net_income: 'net income|earnings|profits?|nettogewinn|jahresüberschuss|gewinn',
  free_cash_flow: 'free cash flow|fcf|freier cashflow',
  steadiness:
    'steadiness|durability|beständigkeit|stetigkeit|durabilité|durabilidad|durata|duurzaamheid|durabilidade',
  pe: 'p/e|pe ratio|price[- /]to[- ]earnings|price/earnings|kgv|kurs[- ]gewinn[- ]verhältnis',
  forward_pe: 'forward p/e|forward pe|forward-kgv|erwartetes kgv',
  peg: 'peg',
  payout:
    'payout ratio|payout|ausschüttungsquote|taux de distribution|ratio de reparto|rapporto di distribuzione|uitkeringsratio|índice de distribuição',
  // Portfolio (holdings, cash)
  quantity:
    'shares?|units?|stück|stücke|anteile|quantity|menge|anzahl|hold|holds|halte|hältst|besitze|besitzt',
  average_cost: String.raw`average cost|avg\.? cost|cost per share|cost per unit|bought at|purchase price|einstandskurs|kaufkurs|durchschnittskosten|averagecost`,
  last_price: 'last price|price|quote|trades? at|kurs|preis|lastprice',
  market_value: 'market value|marktwert|worth|valued at|value|wert|marketvalue|marketvalueeur',
  cost_basis: 'cost basis|einstandswert|anschaffungskosten|costbasis|costbasiseur',
  pnl: 'unrealized|unrealised|p&l|pnl|gain|loss|gewinn/verlust|buchgewinn|buchverlust|unrealizedpnl|unrealizedpnleur',
  realized_pnl:
    'realized|realised|realized gain|realised gain|realized p&l|realised p&l|realisiert|realisierter gewinn|realizedpnl|realizedpnleur',
  weight:
    'weights?|weighting|share of the portfolio|share of your portfolio|share of portfolio|of the portfolio|of your portfolio|of portfolio|portfolio share|anteil|gewichtung|des portfolios|des depots',
  cash: 'cash|balance|bargeld|guthaben|kontostand|amount|amounteur',
  holdings_count:
    'holdings|positions|stocks|securities|companies|positionen|werte|titel|unternehmen',
} as const;

/** A metric id (a key of {@link METRIC_WORDS}). */
export type Metric = keyof typeof METRIC_WORDS;

/** Every metric id. */
export const METRICS = Object.keys(METRIC_WORDS) as Metric[];

// Longer alternatives first, so "forward p/e" is forward_pe and "net margin" is not "margin".
const ORDERED = METRICS.flatMap((metric) =>
  METRIC_WORDS[metric].split('|').map((word) => ({ metric, word })),
).sort((a, b) => b.word.length - a.word.length);

/**
 * One regex over every metric word, longest alternatives first (no capture groups: the metric of
 * a match is {@link metricOfMention} of its text).
 */
export const MENTION = new RegExp(
  `(?<![\\p{L}\\d])(?:${ORDERED.map((o) => `(?:${o.word})`).join('|')})(?![\\p{L}\\d])`,
  'giu',
);

/** Each word's own anchored regex, in the order of {@link MENTION}'s alternatives. */
const ANCHORED = ORDERED.map((o) => ({
  metric: o.metric,
  regex: new RegExp(`^(?:${o.word})$`, 'iu'),
}));
const MENTION_CACHE = new Map<string, Metric | null>();

/**
 * The metric of a text {@link MENTION} matched: the first alternative that matches all of it
 * (the one the regex chose). Cached per distinct text (bounded), so a text full of metric words
 * costs one lookup a word.
 */
export function metricOfMention(text: string): Metric | undefined {
  const key = text.toLowerCase();
  const known = MENTION_CACHE.get(key);
  if (known !== undefined) return known ?? undefined;
  const metric = ANCHORED.find((a) => a.regex.test(text))?.metric ?? null;
  if (MENTION_CACHE.size < 10_000) MENTION_CACHE.set(key, metric);
  return metric ?? undefined;
}

/** The metric of a field name of tool data (`marketValueEur` → `market_value`), if known. */
export function metricOfField(field: string): Metric | undefined {
  const byField: Record<string, Metric> = {
    quantity: 'quantity',
    averageCost: 'average_cost',
    lastPrice: 'last_price',
    price: 'last_price',
    priceEur: 'last_price',
    marketValue: 'market_value',
    marketValueEur: 'market_value',
    costBasisEur: 'cost_basis',
    unrealizedPnlEur: 'pnl',
    realizedPnlEur: 'realized_pnl',
    weight: 'weight',
    amount: 'cash',
    amountEur: 'cash',
    totalScore: 'score',
    maxScore: 'score',
    peRatio: 'pe',
    forwardPE: 'forward_pe',
    pegRatio: 'peg',
    augmentedPayoutRatio: 'payout',
    // the X-ray's valuation signals (getPortfolioXray, issue 38)
    pe: 'pe',
    forwardPe: 'forward_pe',
    peg: 'peg',
    payoutRatio: 'payout',
  };
  return byField[field];
}
