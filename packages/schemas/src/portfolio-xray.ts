import { z } from 'zod';
import { Instrument } from './instruments.js';
import { Verdict } from './moat-evaluation.js';

/**
 * The instrument a holding names (CONTRACT §9), as the X-ray answers it: the holding's own
 * `Instrument` (issue 38), the one schema of it.
 */
export const XrayInstrument = Instrument;
/** An instrument (see {@link XrayInstrument}). */
export type XrayInstrument = Instrument;

/**
 * Why a holding has no evaluation in the X-ray:
 * - `fund`: an ETF or fund (the moat criteria score an operating company's filings);
 * - `not-a-share`: a bond, cash-like or other instrument;
 * - `unresolved`: no ticker is known (an ISIN or text that no resolver identified);
 * - `not-sec-filer`: resolved, but the issuer files no 10-K with the SEC (no CIK);
 * - `no-data`: the fundamentals provider has too little for this company (tried, refused);
 * - `pending`: not cached yet; an evaluation is queued and fills in the background;
 * - `quota`: not cached, and the user's `stock_evaluation` quota is spent for this period;
 * - `not-evaluated`: not cached, and this process fills nothing in the background.
 */
export const XRAY_REASONS = [
  'fund',
  'not-a-share',
  'unresolved',
  'not-sec-filer',
  'no-data',
  'pending',
  'quota',
  'not-evaluated',
] as const;
export const XrayReason = z.enum(XRAY_REASONS).describe('Why the holding has no evaluation');
/** A reason (see {@link XrayReason}). */
export type XrayReason = z.infer<typeof XrayReason>;

const Fraction = (what: string) =>
  z.number().min(0).max(1).describe(`${what}: a fraction 0–1 of valueEur, 6 decimals`);
const Euros = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('Amount in EUR, 2 decimals, as a string');

/** One holding of the X-ray. */
export const XrayHolding = z
  .object({
    symbol: z.string().describe('The holding’s symbol (the ticker when known, else as imported)'),
    instrument: XrayInstrument,
    weight: Fraction('Share of the valued holdings')
      .nullable()
      .describe(
        'Share of valueEur (fraction 0–1, 6 decimals); null when the holding has no EUR value',
      ),
    valueEur: Euros.nullable().describe(
      'Market value in EUR from the holdings read; null when unvalued',
    ),
    evaluation: z
      .object({
        totalScore: z.number(),
        maxScore: z.number(),
        verdict: Verdict,
        evaluatedAt: z.string().describe('When the cached evaluation was made (ISO 8601)'),
        dataQuality: z
          .array(z.object({ code: z.string(), series: z.string().optional(), message: z.string() }))
          .describe('Data-quality flags of the evaluation (CONTRACT §9); empty when none'),
      })
      .optional()
      .describe('The cached moat evaluation; absent with a `reason`'),
    valuation: z
      .object({
        pe: z.number().nullable().describe('Price / trailing diluted EPS'),
        forwardPe: z.number().nullable(),
        peg: z.number().nullable(),
        payoutRatio: z.number().nullable().describe('(Dividends + buybacks) / net income, percent'),
        sellTrigger: z.boolean().describe('true when P/E ≥ 40 (the methodology’s sell trigger)'),
      })
      .optional()
      .describe('The valuation signals of the cached evaluation'),
    reason: XrayReason.optional(),
  })
  .describe('A holding with its EUR weight and its moat evaluation, or why it has none');
/** One holding of the X-ray (see {@link XrayHolding}). */
export type XrayHolding = z.infer<typeof XrayHolding>;

/**
 * How concentrated the valued holdings are (weights of `valueEur`). Anchors: Morningstar's Instant
 * X-Ray lists the top holdings with their share of assets; Ghostfolio's X-ray rules flag a cluster
 * above 50 % of the investment (its default `thresholdMax`); the Herfindahl–Hirschman index is the
 * sum of squared shares (here on 0–1; the U.S. merger guidelines of 2023 call a market above 0.18,
 * 1,800 on their 0–10,000 scale, highly concentrated), and its inverse the effective number of
 * equally weighted holdings.
 */
export const XrayConcentration = z
  .object({
    largest: z
      .object({ symbol: z.string(), weight: Fraction('Its share') })
      .nullable()
      .describe('The largest holding; null without a valued holding'),
    top5Weight: Fraction('Share of the five largest holdings'),
    herfindahl: Fraction('Sum of squared weights (HHI on 0–1)'),
    effectiveHoldings: z
      .number()
      .nullable()
      .describe('1 / herfindahl, 2 decimals: as many equal holdings would be as concentrated'),
    overThreshold: z
      .array(z.string())
      .describe('Symbols of holdings above 50 % of valueEur (Ghostfolio’s cluster-risk default)'),
  })
  .describe('Concentration of the valued holdings');

/** The portfolio moat X-ray (CONTRACT §9: `GET /api/portfolios/{id}/xray`, `getPortfolioXray`). */
export const PortfolioXray = z
  .object({
    portfolioId: z.string(),
    asOf: z
      .string()
      .describe('When the holdings’ values were computed (ISO 8601, their latest `valuedAt`)'),
    valueEur: Euros.describe('Sum of the valued holdings in EUR (cash left out)'),
    holdings: z.array(XrayHolding).describe('Largest first; unvalued holdings last'),
    bands: z
      .array(z.object({ verdict: Verdict, weight: Fraction('Share in this verdict band') }))
      .describe('Every verdict band, strongest first, with its share of valueEur'),
    unratedWeight: Fraction('Share of the valued holdings without an evaluation'),
    weightedScore: z
      .number()
      .nullable()
      .describe(
        'Value-weighted mean of totalScore/maxScore × 100 over the rated holdings, 2 decimals; null with none',
      ),
    pastSellTrigger: z
      .array(z.string())
      .describe('Symbols whose valuation is past the sell trigger'),
    pending: z
      .array(z.string())
      .describe('Symbols whose evaluation is being filled in the background'),
    unvalued: z.array(z.string()).describe('Symbols without an EUR value (no price or rate)'),
    concentration: XrayConcentration,
  })
  .meta({ id: 'PortfolioXray' })
  .describe('Which holdings have a moat, which are past the sell trigger, where the money sits');
/** The X-ray (see {@link PortfolioXray}). */
export type PortfolioXray = z.infer<typeof PortfolioXray>;
