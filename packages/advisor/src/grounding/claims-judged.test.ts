import { describe, expect, it } from 'vitest';
import { MCD } from '../../test/fixtures/mcd.js';
import { dataFacts } from './data-facts.js';
import { evaluationFacts } from './evaluation-facts.js';
import { emptyFacts, type FactSet, mergeFacts } from './facts.js';
import { groundText } from './ground.js';

const mcd = evaluationFacts(MCD);
const flagged = (text: string, facts: FactSet = mcd) =>
  groundText(text, facts).ungrounded.map((u) => [u.text, u.reason]);

describe('figures judged by the claim, not the number (issue 32)', () => {
  it('a median is not a single year: FY2024’s net margin called the median is flagged', () => {
    // 31.7 % is FY2024's net margin; the median is 27.3 %.
    expect(flagged('McDonald’s median net margin is 31.7%.')).toEqual([['31.7%', 'mismatch']]);
    expect(flagged('McDonald’s median net margin is 27.3%.')).toEqual([]);
    expect(flagged('McDonald’s net margin was 31.7% in FY2024.')).toEqual([]);
    expect(flagged('Its average ROIC is 29.4%.')).toEqual([['29.4%', 'mismatch']]);
  });

  it('a comparison must hold for the fact; a fact that is not available grounds no comparison', () => {
    expect(flagged('MCD has a net margin above 50 %.')).toEqual([['50 %', 'mismatch']]);
    expect(flagged('MCD has a net margin above 20 %.')).toEqual([]);
    expect(flagged('MCD has a net margin below 20 %.')).toEqual([['20 %', 'mismatch']]);
    expect(flagged('MCD trades at a P/E above 40.')).toEqual([['40', 'not_available']]);
    // The rule itself may be stated: the sell trigger's threshold is a fact of the evaluation.
    expect(flagged('The sell trigger is a P/E of 40 or more.')).toEqual([]);
  });

  it('a change must have the direction of the fact: MCD’s EPS grew, it did not decline', () => {
    expect(flagged('MCD’s EPS declined 9.5 % a year.')).toEqual([['9.5 %', 'no_fact']]);
    expect(flagged('MCD’s EPS grew 9.5 % a year.')).toEqual([]);
    expect(flagged('MCD’s EPS growth was -9.5 % a year.')).toEqual([['-9.5 %', 'wrong_unit']]);
  });

  it('counts of things no fact counts are not matched to unrelated counts', () => {
    const facts = mergeFacts(emptyFacts(), mcd);
    mergeFacts(
      facts,
      dataFacts(
        Array.from({ length: 10 }, (_, i) => ({ id: i })),
        'list',
      ),
    );
    expect(flagged('McDonald’s owns 10 brands and 2 CEOs ran it.', facts)).toEqual([
      ['10', 'unsupported'],
      ['2', 'unsupported'],
    ]);
    // What the facts do count still grounds: 4 of 7 criteria pass.
    expect(flagged('4 of 7 criteria pass.', facts)).toEqual([]);
  });

  it('an unrealised gain is not the realised P&L: with market value null it is not available', () => {
    const holdings = dataFacts(
      [
        {
          symbol: 'SAP',
          quantity: '10',
          currency: 'EUR',
          marketValueEur: null,
          unrealizedPnlEur: null,
          realizedPnlEur: '0.00',
        },
      ],
      'listHoldings',
    );
    expect(flagged('Your SAP position shows an unrealised gain of €0.00.', holdings)).toEqual([
      ['€0.00', 'not_available'],
    ]);
    expect(flagged('Your SAP position has a realised P&L of €0.00.', holdings)).toEqual([]);
  });

  it('McDonald’s ROIC attributed to Apple is not grounded (Apple is no subject of the facts)', () => {
    expect(flagged('Apple’s ROIC is 26.5%.')).toEqual([['26.5%', 'no_fact']]);
    expect(flagged('McDonald’s ROIC is 26.5%, and Apple’s ROIC is 26.5%.')).toEqual([
      ['26.5%', 'no_fact'],
    ]);
    const both = mergeFacts(emptyFacts(), mcd);
    mergeFacts(both, dataFacts([{ symbol: 'AAPL', name: 'Apple Inc.', quantity: '3' }], 'h'));
    expect(flagged('Apple’s ROIC is 26.5%.', both)).toEqual([['26.5%', 'no_fact']]);
    expect(flagged('MCD’s ROIC is 26.5%.', both)).toEqual([]);
  });

  it('user text is never a source of facts: tags of a saved report ground nothing', () => {
    const reports = dataFacts(
      {
        reports: [
          {
            id: 'r1',
            symbol: 'MCD',
            tags: ['net margin 88 %', 'gross margin 80 %'],
            notes: 'ROIC 99%',
            evaluation: MCD,
          },
        ],
      },
      'listMoatReports',
    );
    expect(flagged('MCD: net margin 88 %, gross margin 80 %, ROIC 99%.', reports)).toEqual([
      ['88 %', 'mismatch'],
      ['80 %', 'not_available'],
      ['99%', 'mismatch'],
    ]);
    const named = dataFacts([{ id: 'p1', name: 'Growth 42 %', baseCurrency: 'EUR' }], 'ports');
    expect(flagged('It grew 42 %.', named)).toEqual([['42 %', 'unsupported']]);
  });

  it('the offline advisor’s own table is grounded: the maximum of 87.5 points', () => {
    const table = [
      '| symbol | companyName | totalScore | maxScore | verdict |',
      '| --- | --- | --- | --- | --- |',
      `| MCD | ${MCD.companyName} | ${MCD.totalScore} | ${MCD.maxScore} | ${MCD.verdict} |`,
    ].join('\n');
    expect(flagged(table, dataFacts(MCD, 'getMoatEvaluation'))).toEqual([]);
    expect(flagged('MCD scores 64.8 of a maximum of 87.5 points.')).toEqual([]);
    expect(flagged('MCD scores 64.8 (max 87.5 points).')).toEqual([]);
  });
});

describe('words that are not companies or claims (issue 32)', () => {
  it('an author’s possessive is no company; "over 10 years" is a span', () => {
    expect(flagged('Buffett’s rule asks for a median ROIC of 26.5% for MCD.')).toEqual([]);
    expect(flagged('MCD was profitable over 10 years.')).toEqual([]);
  });

  it('holdings counted as companies are the holdings count', () => {
    const holdings = dataFacts(
      [
        { symbol: 'AAPL', quantity: '1' },
        { symbol: 'KO', quantity: '2' },
        { symbol: 'SAP', quantity: '3' },
      ],
      'listHoldings',
    );
    expect(flagged('You hold 3 companies.', holdings)).toEqual([]);
    expect(flagged('You hold 4 companies.', holdings)).toEqual([['4', 'mismatch']]);
  });
});

describe('counts of the things a tool listed (issue 32)', () => {
  it('"2 portfolios" is the length of the portfolio list; "2 brands" is not', () => {
    const portfolios = dataFacts([{ id: 'a' }, { id: 'b' }], 'listPortfolios');
    expect(flagged('You have 2 portfolios.', portfolios)).toEqual([]);
    expect(flagged('You have 1 portfolio.', portfolios)).toEqual([['1', 'unsupported']]);
    expect(flagged('You have 2 brands.', portfolios)).toEqual([['2', 'unsupported']]);
    const reports = dataFacts(
      { reports: [{ id: 'r' }, { id: 'q' }, { id: 's' }] },
      'listMoatReports',
    );
    expect(flagged('You have 3 saved reports.', reports)).toEqual([]);
  });
});

describe('a trend is not a level (issue 32)', () => {
  it('MCD’s EPS growth of 9.5 % a year is not an EPS of 9.5 %', () => {
    expect(flagged('MCD’s EPS is 9.5 %.')).toEqual([['9.5 %', 'mismatch']]);
    expect(flagged('MCD’s EPS rose 9.5 % a year.')).toEqual([]);
    expect(flagged('MCD’s EPS +9.5%/yr.')).toEqual([]);
  });
});

describe('company suffixes are not companies (issue 32)', () => {
  it('“Apple Inc.’s” is Apple', () => {
    const apple = dataFacts(
      [{ symbol: 'AAPL', name: 'Apple Inc.', quantity: '3', currency: 'USD' }],
      'listHoldings',
    );
    expect(flagged('You hold Apple Inc.’s 3 shares.', apple)).toEqual([]);
  });
});
