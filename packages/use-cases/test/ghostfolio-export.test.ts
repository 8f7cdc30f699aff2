import { describe, expect, it } from 'vitest';
import { toGhostfolioExport } from '../src/account-data/ghostfolio.js';
import type { AccountExport } from '../src/account-data/schemas.js';
import { ghostfolioImportErrors } from './support/ghostfolio-import-dto.js';

// A native export of every transaction type, as `exportAccount` writes it (hand-made).
const NATIVE = {
  format: 'moat-portfolio-export',
  version: 1,
  exportedAt: '2024-06-01T00:00:00.000Z',
  portfolios: [
    {
      id: 'p1',
      name: 'Main',
      baseCurrency: 'EUR',
      createdAt: '2024-01-01T00:00:00.000Z',
      transactions: [
        {
          id: 't1',
          type: 'deposit',
          amount: '1000',
          currency: 'USD',
          executedAt: '2024-01-02T00:00:00.000Z',
          note: 'first deposit',
        },
        {
          id: 't2',
          type: 'buy',
          symbol: 'AAPL',
          quantity: '10',
          price: '130.5',
          fee: '1',
          currency: 'USD',
          executedAt: '2024-01-03T00:00:00.000Z',
        },
        {
          id: 't3',
          type: 'sell',
          symbol: 'AAPL',
          quantity: '3',
          price: '170',
          currency: 'USD',
          executedAt: '2024-02-03T00:00:00.000Z',
        },
        {
          id: 't4',
          type: 'dividend',
          symbol: 'AAPL',
          amount: '1.68',
          currency: 'USD',
          executedAt: '2024-03-03T00:00:00.000Z',
        },
        {
          id: 't5',
          type: 'fee',
          amount: '5',
          currency: 'USD',
          executedAt: '2024-03-04T00:00:00.000Z',
          note: 'custody',
        },
        {
          id: 't6',
          type: 'fee',
          symbol: 'AAPL',
          amount: '0.5',
          currency: 'USD',
          executedAt: '2024-03-05T00:00:00.000Z',
          note: 'withholding tax',
        },
        {
          id: 't7',
          type: 'deposit',
          amount: '0.42',
          currency: 'USD',
          executedAt: '2024-03-31T00:00:00.000Z',
          note: 'interest',
        },
        {
          id: 't8',
          type: 'withdrawal',
          amount: '100',
          currency: 'USD',
          executedAt: '2024-04-01T00:00:00.000Z',
        },
        {
          id: 't9',
          type: 'split',
          symbol: 'AAPL',
          ratio: '2',
          currency: 'USD',
          executedAt: '2024-05-01T00:00:00.000Z',
        },
        {
          id: 't10',
          type: 'fee',
          amount: '5',
          currency: 'USD',
          executedAt: '2024-05-04T00:00:00.000Z',
          note: 'custody',
        },
      ],
    },
  ],
} as unknown as AccountExport;

describe("the Ghostfolio export passes Ghostfolio's own import validation", () => {
  const document = toGhostfolioExport(NATIVE, {
    version: '1.0.0',
    cashByPortfolio: new Map([['p1', '700']]),
  });

  it('every row passes the re-declared DTOs and the MANUAL symbol rule', () => {
    expect(ghostfolioImportErrors(document)).toEqual([]);
  });

  it('the checker can fail: a free-text MANUAL symbol, an unknown field, a negative fee', () => {
    const [first, ...rest] = document.activities;
    const broken = {
      ...document,
      activities: [
        { ...first, dataSource: 'MANUAL', symbol: 'custody' },
        { ...rest[0], unknownField: 1 },
        { ...rest[1], fee: -1 },
        ...rest.slice(2),
      ],
    };
    const errors = ghostfolioImportErrors(broken as never);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('activities.0.symbol ("custody") must be a UUID'),
        expect.stringContaining('property unknownField should not exist'),
        expect.stringContaining('fee must not be less than 0'),
      ]),
    );
  });

  it('writes interest as INTEREST and fees without an instrument as custom assets, one profile each', () => {
    const rows = document.activities.map((a) => [a.type, a.dataSource, a.unitPrice, a.fee]);
    expect(rows).toEqual([
      ['BUY', 'YAHOO', 130.5, 1],
      ['SELL', 'YAHOO', 170, 0],
      ['DIVIDEND', 'YAHOO', 1.68, 0],
      ['FEE', 'MANUAL', 0, 5],
      ['FEE', 'YAHOO', 0, 0.5],
      ['INTEREST', 'MANUAL', 0.42, 0],
      ['FEE', 'MANUAL', 0, 5],
    ]);
    const custody = document.activities.filter(
      (a) => a.type === 'FEE' && a.dataSource === 'MANUAL',
    );
    expect(new Set(custody.map((a) => a.symbol)).size).toBe(1);
    expect(document.assetProfiles.map((p) => p.name).sort()).toEqual(['Interest', 'custody']);
  });

  it('says in its meta what it left out', () => {
    expect(document.meta.leftOut).toEqual({ deposits: 1, withdrawals: 1, splits: 1 });
    expect(document.meta.note).toMatch(/1 deposit\(s\) and 1 withdrawal\(s\).*1 split/);
  });
});
