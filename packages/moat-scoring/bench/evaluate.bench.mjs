// Evaluations per second of evaluateMoat on a 10-year fixture, one core. Run after `pnpm build`.
import { METRIC_KEYS } from '@svc/schemas';
import { evaluateMoat } from '../dist/index.js';

const source = { tag: 'bench', form: '10-K', accession: null, filed: null, derived: false };

/** A 10-year compounder with every metric reported (revenue in USD, growing 8%/yr, one dip). */
function fixture() {
  const years = [];
  for (let i = 0; i < 10; i += 1) {
    const r = 50e9 * 1.08 ** i * (i === 5 ? 0.93 : 1);
    const shares = 1e9 * 0.98 ** i;
    const ni = r * (0.2 + 0.005 * Math.sin(i));
    const values = {
      revenue: r,
      costOfRevenue: r * 0.4,
      grossProfit: r * 0.6,
      sellingGeneralAdministrative: r * 0.2,
      researchDevelopment: r * 0.03,
      depreciationAmortization: r * 0.03,
      operatingIncome: r * 0.3,
      interestExpense: 4e8,
      pretaxIncome: r * 0.29,
      incomeTaxExpense: r * 0.07,
      netIncome: ni,
      incomeFromContinuingOperations: null, // like most filers: no discontinued operations
      dilutedEps: ni / shares,
      dilutedShares: shares,
      operatingCashFlow: r * 0.27,
      capitalExpenditure: r * 0.04,
      dividendsPaid: r * 0.06,
      shareRepurchases: r * 0.08,
      cash: 12e9,
      shortTermDebt: 2e9,
      longTermDebt: 15e9 + i * 1e9,
      totalEquity: r * 0.7,
      retainedEarnings: 60e9 * 1.07 ** i,
      currentAssets: r * 0.5,
      currentLiabilities: r * 0.35,
      propertyPlantEquipmentNet: r * 0.3,
      goodwill: 10e9,
      intangibleAssets: 3e9,
      sharesOutstanding: shares,
    };
    const year = {
      fiscalYear: 2015 + i,
      periodStart: `${2015 + i}-01-01`,
      periodEnd: `${2015 + i}-12-31`,
    };
    for (const key of METRIC_KEYS)
      year[key] = values[key] === null ? null : { value: values[key], source };
    years.push(year);
  }
  return {
    company: {
      ticker: 'BENCH',
      cik: null,
      name: 'Bench Corp',
      sicCode: '2080',
      sicDescription: null,
      sector: 'Manufacturing',
      industry: 'Beverages',
      fiscalYearEnd: '12-31',
      currency: 'USD',
    },
    years,
    provider: 'bench',
    retrievedAt: null,
    issues: [],
  };
}

const fundamentals = fixture();
let sink = 0;
const run = (n) => {
  for (let i = 0; i < n; i += 1) sink += evaluateMoat(fundamentals).totalScore;
};

run(5_000); // warm-up (JIT)
const rounds = [];
const cpuRounds = [];
for (let round = 0; round < 5; round += 1) {
  const n = 20_000;
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  run(n);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  rounds.push(n / seconds);
  cpuRounds.push(n / ((cpu.user + cpu.system) / 1e6));
}
cpuRounds.sort((a, b) => a - b);
rounds.sort((a, b) => a - b);
const median = rounds[2];
const sample = evaluateMoat(fundamentals);
console.log(
  `evaluateMoat, 10 fiscal years, 8 criteria (${sample.totalScore}/${sample.maxScore}, ${sample.verdict})`,
);
console.log(
  `  median of 5 rounds × 20,000: ${Math.round(median).toLocaleString('en-US')} evaluations/s (${(1e6 / median).toFixed(1)} µs each)`,
);
console.log(
  `  per CPU-second of this process (less sensitive to a busy machine): ${Math.round(cpuRounds[2]).toLocaleString('en-US')} evaluations/s`,
);
console.log(
  `  slowest round ${Math.round(rounds[0]).toLocaleString('en-US')}/s, fastest ${Math.round(rounds[4]).toLocaleString('en-US')}/s, target > 50,000/s: ${median > 50_000 ? 'met' : 'NOT met'}`,
);
if (sink === 0) console.log('');
