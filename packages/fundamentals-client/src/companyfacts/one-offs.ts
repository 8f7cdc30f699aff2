import type { DataIssue, Provenance } from '@svc/schemas';
import type { YearPicks } from './derive.js';
import type { MetricSpec } from './metric-specs.js';
import type { Pick, Series } from './select-series.js';

/**
 * One node of the one-off items tree: a line the us-gaap taxonomy defines as the total of its
 * `children`. `concepts` are alternative tags for that same line (first with a value wins, like a
 * metric's candidates); `kind` says how a filed amount enters `unusualItems`.
 */
export interface OneOffNode {
  /** Short name used in the provenance note. */
  readonly name: string;
  /** Alternative us-gaap concepts (local names) for this line, in priority order. */
  readonly concepts: readonly string[];
  /**
   * `impairment`: a write-down, a charge by nature — US GAAP forbids reversing goodwill and
   * long-lived asset impairments (ASC 350-20-35-13, ASC 360-10-35-20), so a negative filed value is
   * a sign error (PG filed `GoodwillImpairmentLoss` −1,330 M for FY2012, +1,330 M from 2014) and
   * the magnitude is taken; it enters negative. `charge`: an expense as filed (a restructuring
   * reversal filed negative stays a credit); enters negated. `gain`: a gain (loss) as filed,
   * enters as is.
   */
  readonly kind: 'impairment' | 'charge' | 'gain';
  readonly children?: readonly OneOffNode[];
}

const IMPAIRMENT: OneOffNode = {
  name: 'impairment',
  concepts: ['AssetImpairmentCharges', 'OtherAssetImpairmentCharges'],
  kind: 'impairment',
  children: [
    {
      name: 'goodwill and intangibles impairment',
      concepts: ['GoodwillAndIntangibleAssetImpairment'],
      kind: 'impairment',
      children: [
        { name: 'goodwill impairment', concepts: ['GoodwillImpairmentLoss'], kind: 'impairment' },
        {
          name: 'intangibles impairment',
          concepts: ['ImpairmentOfIntangibleAssetsExcludingGoodwill'],
          kind: 'impairment',
          children: [
            {
              name: 'indefinite-lived intangibles impairment',
              concepts: ['ImpairmentOfIntangibleAssetsIndefinitelivedExcludingGoodwill'],
              kind: 'impairment',
            },
            {
              name: 'finite-lived intangibles impairment',
              concepts: ['ImpairmentOfIntangibleAssetsFinitelived'],
              kind: 'impairment',
            },
          ],
        },
      ],
    },
    {
      name: 'tangible asset impairment',
      concepts: ['TangibleAssetImpairmentCharges'],
      kind: 'impairment',
      children: [
        {
          name: 'long-lived assets held for use impairment',
          concepts: ['ImpairmentOfLongLivedAssetsHeldForUse'],
          kind: 'impairment',
        },
        {
          name: 'long-lived assets to be disposed of impairment',
          concepts: ['ImpairmentOfLongLivedAssetsToBeDisposedOf'],
          kind: 'impairment',
        },
      ],
    },
  ],
};

/**
 * The one-off items read from companyfacts (issue 39), as the us-gaap taxonomy nests them; the
 * root's two branches are added. Goodwill, intangible and other asset impairments, restructuring
 * charges, and gains or losses on disposals of assets, all inside income from continuing
 * operations. Not read: `GainLossOnSaleOfBusiness` (the cash-flow line also carries disposals
 * reported in discontinued operations — PG FY2017 5,490 M is mostly the beauty brands, outside the
 * continuing earnings the score uses), `GainLossOnSalesOfAssetsAndAssetImpairmentCharges` (nets
 * the two branches, its sign differs among filers), investment gains and impairments (market
 * moves of a portfolio, not operating one-offs), litigation (no total concept; settlement lines
 * are partly recurring).
 *
 * Sources: the us-gaap element definitions (impairments and restructuring charges are debit
 * balance, "charge against earnings"; `TangibleAssetImpairmentCharges` covers tangible assets
 * only; `AssetImpairmentCharges` the write-down of all assets), and the US GAAP reporting-scheme
 * roll-up of restructuring charges (xbrlsite.azurewebsites.net/2020/reporting-scheme/us-gaap,
 * Disclosure-552), which gives `RestructuringCostsAndAssetImpairmentCharges` and
 * `RestructuringAndRelatedCostIncurredCost` as alternative totals of `RestructuringCharges`.
 * Residual risk, not resolvable from the tags: a restructuring charge that includes write-downs
 * also tagged as an impairment, without a combined total (DAL FY2020).
 */
export const ONE_OFF_TREE: readonly OneOffNode[] = [
  {
    name: 'restructuring and impairment',
    concepts: [
      'RestructuringSettlementAndImpairmentProvisions',
      'RestructuringCostsAndAssetImpairmentCharges',
    ],
    kind: 'charge',
    children: [
      {
        name: 'restructuring',
        concepts: [
          'RestructuringCharges',
          'RestructuringCosts',
          'RestructuringAndRelatedCostIncurredCost',
        ],
        kind: 'charge',
      },
      IMPAIRMENT,
    ],
  },
  {
    name: 'disposals',
    concepts: ['GainLossOnDispositionOfAssets1', 'GainLossOnDispositionOfAssets'],
    kind: 'gain',
    children: [
      {
        name: 'PP&E disposals',
        concepts: ['GainLossOnSaleOfPropertyPlantEquipment'],
        kind: 'gain',
      },
      {
        name: 'intangibles disposals',
        concepts: ['GainLossOnDispositionOfIntangibleAssets'],
        kind: 'gain',
      },
      {
        name: 'disposal groups (not discontinued)',
        concepts: ['DisposalGroupNotDiscontinuedOperationGainLossOnDisposal'],
        kind: 'gain',
      },
    ],
  },
];

/** Helper-series key of a one-off concept (`oneOff:GoodwillImpairmentLoss`). */
export const oneOffKey = (concept: string): `oneOff:${string}` => `oneOff:${concept}`;

function conceptsOf(nodes: readonly OneOffNode[]): string[] {
  return nodes.flatMap((n) => [...n.concepts, ...conceptsOf(n.children ?? [])]);
}

/**
 * One helper spec per concept of {@link ONE_OFF_TREE} (annual durations, money, first filed at a
 * point in time like every metric), so that the tree can choose per year between a total and its
 * components.
 */
export const ONE_OFF_SPECS: readonly MetricSpec[] = conceptsOf(ONE_OFF_TREE).map((concept) => ({
  key: oneOffKey(concept),
  period: 'duration',
  unit: 'money',
  concepts: [`us-gaap:${concept}`],
}));

/**
 * Drops a one-off value that repeats, to the unit and non-zero, the same concept's value of the
 * year before: a comparative filed under the wrong period, not a second event (SPGI's 10-K filed
 * 2018-02-09 tags the 1,100 M gain on the 2016 dispositions, J.D. Power among them, as FY2017,
 * beside its CY2017Q4 379 M copy of Q4 2016). Judgement: one-offs do not recur to the dollar.
 * The year's concept counts as not tagged (a total then gives way to its components), with a
 * `dropped_outlier` issue on `unusualItems`.
 */
export function dropRepeatedOneOffs(
  series: ReadonlyMap<string, Series>,
  issues: DataIssue[],
): void {
  for (const [key, s] of series) {
    if (!key.startsWith('oneOff:')) continue;
    const labels = [...s.keys()].sort((a, b) => a - b);
    const drops = labels.filter((label) => {
      const pick = s.get(label) as Pick;
      const before = s.get(label - 1);
      return pick.value !== 0 && before !== undefined && before.value === pick.value;
    });
    for (const label of drops) {
      const pick = s.get(label) as Pick;
      issues.push({
        fiscalYear: label,
        metric: 'unusualItems',
        kind: 'dropped_outlier',
        message: `${pick.source.tag} ${pick.value} (${pick.source.accession}) repeats FY${label - 1}'s value to the unit: taken for a comparative filed under the wrong period and not read as a one-off of FY${label}`,
      });
      s.delete(label);
    }
  }
}

interface Part {
  readonly value: number;
  readonly lines: string[];
}

/** Signed contribution of one filed value (a charge negative, a gain positive). */
function signed(node: OneOffNode, pick: Pick, lines: string[]): number {
  const tag = `${pick.source.tag} ${pick.value} (${pick.source.accession}, filed ${pick.source.filed})`;
  if (node.kind === 'gain') {
    lines.push(`${node.name}: ${tag}`);
    return pick.value;
  }
  if (node.kind === 'impairment' && pick.value < 0) {
    lines.push(
      `${node.name}: ${tag}, a write-down cannot be reversed under US GAAP: taken as ${-pick.value}`,
    );
    return pick.value;
  }
  lines.push(`${node.name}: ${tag}`);
  return -pick.value;
}

/**
 * The node's amount in a year: its own line when tagged (a total wins over its components),
 * else the sum of its children's amounts (components only when the total is absent; a subtotal is
 * never added to the total it belongs to); `undefined` when nothing in the branch is tagged.
 */
function evaluate(node: OneOffNode, picks: YearPicks): Part | undefined {
  for (const concept of node.concepts) {
    const pick = picks.get(oneOffKey(concept));
    if (!pick) continue;
    const lines: string[] = [];
    return { value: signed(node, pick, lines), lines };
  }
  return sum(node.children ?? [], picks);
}

function sum(nodes: readonly OneOffNode[], picks: YearPicks): Part | undefined {
  let found: Part | undefined;
  for (const child of nodes) {
    const part = evaluate(child, picks);
    if (!part) continue;
    found = found
      ? { value: found.value + part.value, lines: [...found.lines, ...part.lines] }
      : part;
  }
  return found;
}

/**
 * `unusualItems` of one fiscal year from the one-off helper picks ({@link ONE_OFF_TREE}): signed,
 * a charge negative and a gain positive, in the reporting currency; `undefined` when the year
 * tags none of the concepts (not reported, never 0). Derived provenance
 * (`derived:oneOffItems`) whose note lists every line used.
 */
export function deriveUnusualItems(picks: YearPicks): Pick | undefined {
  const part = sum(ONE_OFF_TREE, picks);
  if (!part) return undefined;
  const source: Provenance = {
    tag: 'derived:oneOffItems',
    form: null,
    accession: null,
    filed: null,
    derived: true,
    note: `one-off items, a charge negative (a total wins over its components): ${part.lines.join('; ')}`,
  };
  return { value: part.value === 0 ? 0 : part.value, source, history: [] };
}
