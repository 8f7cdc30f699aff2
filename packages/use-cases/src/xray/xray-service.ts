import type { Holding } from '@svc/portfolio';
import {
  type MoatEvaluation,
  type PortfolioXray,
  type ServedEvaluation,
  VERDICT_LABELS,
  type XrayHolding,
  type XrayInstrument,
  type XrayReason,
} from '@svc/schemas';
import { Decimal } from 'decimal.js';
import type { Actor } from '../moat/evaluation-service.js';
import type { PortfolioService } from '../portfolio/portfolio-service.js';
import { instrumentOf } from './instrument-of.js';

/** What a background fill says of a ticker that is not in the evaluation cache. */
export type FillState = Extract<XrayReason, 'pending' | 'quota' | 'no-data' | 'not-sec-filer'>;

/**
 * Fills missing evaluations in the background (the service's job queue), within the user's
 * `stock_evaluation` quota. The X-ray calls it with the tickers the cache lacks and reports each
 * one's state; it never waits for an evaluation.
 */
export interface EvaluationFills {
  /**
   * For each ticker (normalised, not cached): `pending` when an evaluation is queued or under way
   * (queued now when the user's quota leaves a unit for it), `quota` when the quota does not,
   * `no-data` / `not-sec-filer` when a recent attempt found nothing to evaluate.
   */
  request(actor: Actor, tickers: readonly string[]): Promise<ReadonlyMap<string, FillState>>;
}

/** What {@link createXrayService} needs. */
export interface XrayServiceDeps {
  /** The stored holdings with their EUR values (`createPortfolioService`, memoised). */
  readonly holdings: Pick<PortfolioService, 'listHoldings'>;
  /** Cached evaluations only, never a fetch (`EvaluationService.cachedMany`). */
  readonly evaluations: {
    cachedMany(tickers: readonly string[]): Promise<ReadonlyMap<string, ServedEvaluation>>;
  };
  /** The background fill; none: missing evaluations answer `not-evaluated`. */
  readonly fills?: EvaluationFills | undefined;
  /** Clock (the `asOf` of a portfolio without holdings). */
  readonly now: () => Date;
}

/** The X-ray flow (see {@link createXrayService}). */
export interface XrayService {
  /**
   * The moat X-ray of one of the actor's portfolios.
   * @throws UseCaseError `not_found` for a portfolio the actor does not own.
   */
  getXray(actor: Actor, portfolioId: string): Promise<PortfolioXray>;
}

/** Above this share of the valued holdings a holding is a cluster risk (Ghostfolio's default). */
const CLUSTER_THRESHOLD = 0.5;

const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
const ZERO = new Dec(0);
const round6 = (value: Decimal) => value.toDecimalPlaces(6).toNumber();
const round2 = (value: Decimal) => value.toDecimalPlaces(2).toNumber();

/** A holding on its way into the answer. */
interface Row {
  readonly holding: Holding;
  readonly instrument: XrayInstrument;
  readonly value: Decimal | null;
  readonly ticker: string | undefined;
}

/** Why an instrument cannot have an evaluation at all, before any cache or queue is asked. */
function reasonOfInstrument(instrument: XrayInstrument): XrayReason | undefined {
  if (instrument.kind === 'fund') return 'fund';
  if (instrument.resolution === 'unresolved' || instrument.ticker === undefined)
    return 'unresolved';
  if (instrument.kind !== 'share') return 'not-a-share';
  // a resolver that knows SEC filers gives their CIK; a share it resolved without one files none
  if (instrument.cik === undefined && ['openfigi', 'sec', 'file'].includes(instrument.resolution))
    return 'not-sec-filer';
  return undefined;
}

/** The evaluation fields of an X-ray holding, from a cached evaluation. */
function evaluationPart(served: ServedEvaluation): Pick<XrayHolding, 'evaluation' | 'valuation'> {
  const e = served as MoatEvaluation & { _evaluatedAt?: string };
  const flags = e.dataQuality ?? [];
  const v = served.valuation;
  return {
    evaluation: {
      totalScore: served.totalScore,
      maxScore: served.maxScore,
      verdict: served.verdict,
      evaluatedAt: e._evaluatedAt ?? served._cachedAt ?? '',
      dataQuality: flags.map((f) => ({
        code: f.code,
        ...(typeof f.series === 'string' ? { series: f.series } : {}),
        message: f.message,
      })),
    },
    ...(v
      ? {
          valuation: {
            pe: v.peRatio,
            forwardPe: v.forwardPE,
            peg: v.pegRatio,
            payoutRatio: v.augmentedPayoutRatio,
            sellTrigger: v.sellTrigger,
          },
        }
      : {}),
  };
}

/** Concentration of the valued holdings (see `XrayConcentration` of `@svc/schemas`). */
function concentrationOf(weighted: readonly { symbol: string; weight: Decimal }[]) {
  const sorted = [...weighted].sort((a, b) => b.weight.comparedTo(a.weight));
  const hhi = sorted.reduce((sum, h) => sum.plus(h.weight.pow(2)), ZERO);
  const first = sorted[0];
  return {
    largest: first ? { symbol: first.symbol, weight: round6(first.weight) } : null,
    top5Weight: round6(sorted.slice(0, 5).reduce((sum, h) => sum.plus(h.weight), ZERO)),
    herfindahl: round6(hhi),
    effectiveHoldings: hhi.isZero() ? null : round2(new Dec(1).div(hhi)),
    overThreshold: sorted.filter((h) => h.weight.gt(CLUSTER_THRESHOLD)).map((h) => h.symbol),
  };
}

/**
 * The portfolio moat X-ray (issue 38, CONTRACT §9): for each holding its instrument
 * (`instrumentOf`), its EUR value and weight from the holdings read (the stored values of the last
 * revaluation; weights are shares of `valueEur`, the sum of the valued holdings, cash left out),
 * its cached evaluation (score, verdict, date, data-quality flags) and valuation signals, or the
 * reason it has none. Evaluations come only from the cache; the tickers the cache lacks go to
 * {@link EvaluationFills} (background, within the user's quota) and are listed in `pending`.
 *
 * For the portfolio: the share of `valueEur` in each verdict band and unrated, the value-weighted
 * score (mean of totalScore/maxScore × 100 over the rated valued holdings, weights renormalised
 * over them), the symbols past the sell trigger (P/E ≥ 40), the unvalued ones, and the
 * concentration (largest holding, top five, Herfindahl index, effective number of holdings, those
 * above 50 %). Figures are computed in decimals and rounded at the end (weights to 6 places).
 *
 * @example
 * const xray = createXrayService({ holdings: portfolios, evaluations, fills, now: () => new Date() });
 * const answer = await xray.getXray(actor, portfolioId);
 */
export function createXrayService(deps: XrayServiceDeps): XrayService {
  return {
    async getXray(actor, portfolioId) {
      const holdings = await deps.holdings.listHoldings(actor.id, { portfolioId });
      const rows: Row[] = holdings.map((holding) => {
        const instrument = instrumentOf(holding);
        const ticker = reasonOfInstrument(instrument) === undefined ? instrument.ticker : undefined;
        const value = holding.marketValueEur === null ? null : new Dec(holding.marketValueEur);
        return { holding, instrument, value, ticker };
      });
      const tickers = [...new Set(rows.flatMap((r) => (r.ticker ? [r.ticker] : [])))];
      const cached = await deps.evaluations.cachedMany(tickers);
      const missing = tickers.filter((t) => !cached.has(t));
      // the queue unreachable does not stop the answer: those holdings are then `not-evaluated`
      const fills =
        missing.length > 0 && deps.fills
          ? await deps.fills.request(actor, missing).catch(() => new Map<string, FillState>())
          : new Map<string, FillState>();

      const total = rows.reduce((sum, r) => (r.value ? sum.plus(r.value) : sum), ZERO);
      const weightOf = (value: Decimal | null) =>
        value === null ? null : total.isZero() ? ZERO : value.div(total);
      const bands = new Map<string, Decimal>(VERDICT_LABELS.map((v) => [v, ZERO]));
      let unrated = ZERO;
      let scored = ZERO;
      let ratedWeight = ZERO;
      const pastSellTrigger: string[] = [];
      const pending: string[] = [];
      const unvalued: string[] = [];
      const weighted: { symbol: string; weight: Decimal }[] = [];

      const answers = rows.map((row) => {
        const symbol = row.holding.symbol;
        const weight = weightOf(row.value);
        const served = row.ticker ? cached.get(row.ticker) : undefined;
        const reason: XrayReason | undefined = served
          ? undefined
          : (reasonOfInstrument(row.instrument) ??
            (row.ticker ? fills.get(row.ticker) : undefined) ??
            'not-evaluated');
        if (weight === null) unvalued.push(symbol);
        else {
          weighted.push({ symbol, weight });
          if (served) {
            bands.set(served.verdict, (bands.get(served.verdict) ?? ZERO).plus(weight));
            ratedWeight = ratedWeight.plus(weight);
            if (served.maxScore > 0)
              scored = scored.plus(weight.times(served.totalScore).div(served.maxScore));
          } else unrated = unrated.plus(weight);
        }
        if (served?.valuation?.sellTrigger === true) pastSellTrigger.push(symbol);
        if (reason === 'pending') pending.push(symbol);
        const holding: XrayHolding = {
          symbol,
          instrument: row.instrument,
          weight: weight === null ? null : round6(weight),
          valueEur: row.value === null ? null : row.value.toFixed(2),
          ...(served ? evaluationPart(served) : {}),
          ...(reason ? { reason } : {}),
        };
        return { holding, sortKey: row.value };
      });
      answers.sort((a, b) => {
        if (a.sortKey === null || b.sortKey === null)
          return a.sortKey === b.sortKey ? 0 : a.sortKey === null ? 1 : -1;
        return b.sortKey.comparedTo(a.sortKey);
      });
      const valuedAt = holdings.map((h) => h.valuedAt).sort();
      return {
        portfolioId,
        asOf: valuedAt.at(-1) ?? deps.now().toISOString(),
        valueEur: total.toFixed(2),
        holdings: answers.map((a) => a.holding),
        bands: VERDICT_LABELS.map((verdict) => ({
          verdict,
          weight: round6(bands.get(verdict) ?? ZERO),
        })),
        unratedWeight: round6(unrated),
        weightedScore: ratedWeight.isZero() ? null : round2(scored.div(ratedWeight).times(100)),
        pastSellTrigger,
        pending,
        unvalued,
        concentration: concentrationOf(weighted),
      };
    },
  };
}
