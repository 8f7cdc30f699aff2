import { addDays } from './dates.js';
import type { RawFact } from './document.js';
import type { FactReader } from './fact-history.js';
import { SPLIT_RATIO_CONCEPT } from './metric-specs.js';

/**
 * A stock split (or reverse split) found in the filings. Share counts filed before it are
 * multiplied by `ratio`, per-share values divided by it, to put them on the latest filing's basis.
 */
export interface SplitEvent {
  /** New shares per old share: 4 for a 4-for-1 split, 0.1 for a 1-for-10 reverse split. */
  readonly ratio: number;
  /** Latest filing date that still reported a restated period on the old basis. */
  readonly lastPreSplitFiled: string | null;
  /** Earliest filing date that reported the same period on the new basis. */
  readonly firstPostSplitFiled: string | null;
  /** Date of the filer's `StockholdersEquityNoteStockSplitConversionRatio1` fact, if any. */
  readonly tagDate: string | null;
  /** Human-readable evidence, for provenance notes and issues. */
  readonly evidence: string;
}

/**
 * Split ratios considered "clean" (forward splits seen in US filings: 5-for-4, 3-for-2, 2-for-1 …
 * 20-for-1), and their inverses for reverse splits.
 */
const FORWARD_RATIOS = [1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30];
const CLEAN_RATIOS = [...FORWARD_RATIOS, ...FORWARD_RATIOS.map((r) => 1 / r)];

/**
 * Relative tolerance when matching a restatement ratio to a clean split ratio: weighted share
 * counts are restated exactly (MA FY2012: 9.98–10.03), EPS is rounded to cents.
 */
const RATIO_TOLERANCE = 0.02;
/** EPS below this (in currency units) is too coarsely rounded to evidence a ratio. */
const MIN_EPS_FOR_EVIDENCE = 0.1;

const SHARE_CONCEPTS: readonly [string, 'duration' | 'instant'][] = [
  ['us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding', 'duration'],
  ['us-gaap:WeightedAverageNumberOfSharesOutstandingBasic', 'duration'],
  ['us-gaap:WeightedAverageNumberOfShareOutstandingBasicAndDiluted', 'duration'],
  ['us-gaap:CommonStockSharesOutstanding', 'instant'],
];
const EPS_CONCEPTS = [
  'us-gaap:EarningsPerShareDiluted',
  'us-gaap:EarningsPerShareBasic',
  'us-gaap:EarningsPerShareBasicAndDiluted',
];

/** Matches a ratio to a clean split ratio within {@link RATIO_TOLERANCE}; `null` if none. */
export function cleanSplitRatio(ratio: number): number | null {
  if (!Number.isFinite(ratio) || ratio <= 0) return null;
  for (const clean of CLEAN_RATIOS) {
    if (Math.abs(ratio / clean - 1) <= RATIO_TOLERANCE) return clean;
  }
  return null;
}

interface Evidence {
  ratio: number;
  before: string;
  after: string;
  kind: 'shares' | 'eps';
}

/**
 * Finds stock splits from (a) restatements of the same period between consecutive annual
 * reports whose ratio is a clean split ratio — share counts multiplied, EPS divided — and
 * (b) the filer's `StockholdersEquityNoteStockSplitConversionRatio1` facts. A restatement
 * event needs one share-count pair or two EPS pairs (EPS restatements for other reasons are
 * common and rounding is coarse), and EPS pairs alone do not count when a share count was
 * reported unchanged across the same filings; a tagged ratio alone is enough.
 */
export function detectStockSplits(reader: FactReader): SplitEvent[] {
  const evidence = [...shareEvidence(reader), ...epsEvidence(reader)];
  const unchanged = unchangedShares(reader);
  const events = mergeEvidence(evidence).filter(
    (e) => e.shares >= 1 || (e.eps >= 2 && !contradicted(e, unchanged)),
  );
  const tags = taggedSplits(reader);
  const out: SplitEvent[] = [];
  for (const e of events) {
    const tag = tags.find(
      (t) =>
        t.ratio === e.ratio && t.date > addDays(e.before, -400) && t.date <= addDays(e.after, 30),
    );
    if (tag) tags.splice(tags.indexOf(tag), 1);
    out.push({
      ratio: e.ratio,
      lastPreSplitFiled: e.before,
      firstPostSplitFiled: e.after,
      tagDate: tag?.date ?? null,
      evidence:
        `${formatRatio(e.ratio)} split: periods restated by ×${Number(e.ratio.toPrecision(4))} between the filings of ${e.before} and ${e.after}` +
        (tag
          ? `; StockholdersEquityNoteStockSplitConversionRatio1 = ${tag.ratio} at ${tag.date}`
          : ''),
    });
  }
  for (const t of tags) {
    out.push({
      ratio: t.ratio,
      lastPreSplitFiled: null,
      firstPostSplitFiled: null,
      tagDate: t.date,
      evidence: `${formatRatio(t.ratio)} split: StockholdersEquityNoteStockSplitConversionRatio1 = ${t.ratio} at ${t.date}`,
    });
  }
  return out.sort((a, b) => splitDate(a).localeCompare(splitDate(b)));
}

/** Best known date of a split (for ordering and messages). */
export function splitDate(event: SplitEvent): string {
  return event.tagDate ?? event.firstPostSplitFiled ?? '';
}

/**
 * Whether a value filed on `filed` predates the split, so needs adjusting: it was filed no later
 * than the last old-basis report, or before the tagged split date.
 */
export function filedBeforeSplit(event: SplitEvent, filed: string): boolean {
  if (event.lastPreSplitFiled !== null && filed <= event.lastPreSplitFiled) return true;
  if (event.tagDate === null) return false;
  return (
    filed < event.tagDate &&
    (event.firstPostSplitFiled === null || filed < event.firstPostSplitFiled)
  );
}

/** Product of the ratios of all splits after `filed` (1 when none). */
export function splitFactorSince(events: readonly SplitEvent[], filed: string): number {
  let factor = 1;
  for (const e of events) if (filedBeforeSplit(e, filed)) factor *= e.ratio;
  return factor;
}

/** "4:1" for 4, "1:10" for 0.1, "3:2" for 1.5, "5:4" for 1.25. */
export function formatRatio(ratio: number): string {
  const forward = ratio >= 1 ? ratio : 1 / ratio;
  const [num, den] = Number.isInteger(forward)
    ? [forward, 1]
    : Number.isInteger(forward * 2)
      ? [forward * 2, 2]
      : [forward * 4, 4];
  return ratio >= 1 ? `${num}:${den}` : `${den}:${num}`;
}

function* pairs(history: readonly RawFact[]): Generator<[RawFact, RawFact]> {
  for (let i = 1; i < history.length; i++) {
    const a = history[i - 1];
    const b = history[i];
    if (a && b && a.accn !== b.accn && a.filed < b.filed) yield [a, b];
  }
}

/** Two filings that reported one period's share count alike (within {@link RATIO_TOLERANCE}). */
interface Unchanged {
  readonly before: string;
  readonly after: string;
}

/**
 * An EPS-only event is no split when a share count was reported unchanged across it: from a filing
 * on or before its last old-basis filing to one on or after its first new-basis filing. AAPL's
 * 10-K/A of 2010-01-25 restated FY2008 EPS from 5.36 to 6.78 (×0.79, a new revenue-recognition
 * rule) with its share counts as before; taken for a 4:5 split it would have moved every earlier
 * EPS by a quarter in a point-in-time read, where the first-filed copies are used.
 */
function contradicted(event: MergedEvent, unchanged: readonly Unchanged[]): boolean {
  return unchanged.some((u) => u.before <= event.before && u.after >= event.after);
}

function unchangedShares(reader: FactReader): Unchanged[] {
  const out: Unchanged[] = [];
  for (const [concept, period] of SHARE_CONCEPTS) {
    for (const history of reader.histories(concept, 'shares', period).values()) {
      for (const [a, b] of pairs(history)) {
        if (a.val > 0 && Math.abs(b.val / a.val - 1) <= RATIO_TOLERANCE) {
          out.push({ before: a.filed, after: b.filed });
        }
      }
    }
  }
  return out;
}

function shareEvidence(reader: FactReader): Evidence[] {
  const out: Evidence[] = [];
  for (const [concept, period] of SHARE_CONCEPTS) {
    for (const history of reader.histories(concept, 'shares', period).values()) {
      for (const [a, b] of pairs(history)) {
        if (a.val <= 0 || b.val <= 0) continue;
        const ratio = cleanSplitRatio(b.val / a.val);
        if (ratio !== null) out.push({ ratio, before: a.filed, after: b.filed, kind: 'shares' });
      }
    }
  }
  return out;
}

function epsEvidence(reader: FactReader): Evidence[] {
  const out: Evidence[] = [];
  for (const concept of EPS_CONCEPTS) {
    for (const history of reader.histories(concept, 'perShare', 'duration').values()) {
      for (const [a, b] of pairs(history)) {
        if (Math.abs(b.val) < MIN_EPS_FOR_EVIDENCE || Math.abs(a.val) < MIN_EPS_FOR_EVIDENCE)
          continue;
        const ratio = cleanSplitRatio(a.val / b.val);
        if (ratio !== null) out.push({ ratio, before: a.filed, after: b.filed, kind: 'eps' });
      }
    }
  }
  return out;
}

interface MergedEvent {
  ratio: number;
  before: string;
  after: string;
  shares: number;
  eps: number;
}

function mergeEvidence(evidence: readonly Evidence[]): MergedEvent[] {
  const events: MergedEvent[] = [];
  const sorted = [...evidence].sort((a, b) => a.before.localeCompare(b.before));
  for (const e of sorted) {
    const hit = events.find((m) => m.ratio === e.ratio && e.before < m.after && e.after > m.before);
    if (hit) {
      if (e.before > hit.before) hit.before = e.before;
      if (e.after < hit.after) hit.after = e.after;
      hit[e.kind]++;
    } else {
      events.push({
        ratio: e.ratio,
        before: e.before,
        after: e.after,
        shares: e.kind === 'shares' ? 1 : 0,
        eps: e.kind === 'eps' ? 1 : 0,
      });
    }
  }
  return events;
}

interface TaggedSplit {
  ratio: number;
  date: string;
}

/**
 * Tagged split ratios, one per split. Only instants count: their date is the split (or record)
 * date. Filers also tag the ratio on reporting-period durations (TSLA: a 5 on 2019-01-01 →
 * 2019-09-30 in a 2020 10-Q), which date nothing. Instants of one ratio within 200 days are one
 * split (announcement and effective dates: NVDA 2021-06-03 and 2021-07-19); the later date wins.
 */
function taggedSplits(reader: FactReader): TaggedSplit[] {
  const facts = reader
    .allFacts(SPLIT_RATIO_CONCEPT, 'perShare')
    .filter((f) => f.start === undefined && cleanSplitRatio(f.val) !== null)
    .sort((a, b) => a.end.localeCompare(b.end));
  const out: TaggedSplit[] = [];
  for (const f of facts) {
    const ratio = cleanSplitRatio(f.val) as number;
    const hit = out.find((t) => t.ratio === ratio && f.end <= addDays(t.date, 200));
    if (!hit) out.push({ ratio, date: f.end });
    else if (f.end > hit.date) hit.date = f.end;
  }
  return out;
}
