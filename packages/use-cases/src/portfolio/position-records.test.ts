import { CashPosition, Holding } from '@svc/portfolio';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { money, toCashPosition, toHolding } from './position-records.js';

const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
/** The rounding as decimal.js does it: the reference of the digit-wise rounding. */
function reference(value: string, places: number): string {
  const rounded = new Dec(value).toDecimalPlaces(places, Dec.ROUND_HALF_EVEN);
  return (rounded.isZero() ? new Dec(0) : rounded).toFixed(places);
}

describe('money', () => {
  it('rounds half-even to 2 places and drops the sign of zero', () => {
    expect(money('1661.5185424951')).toBe('1661.52');
    expect(money('0.125')).toBe('0.12');
    expect(money('0.135')).toBe('0.14');
    expect(money('0.1250000001')).toBe('0.13');
    expect(money('-0.125')).toBe('-0.12');
    expect(money('-0.004')).toBe('0.00');
    expect(money('-0')).toBe('0.00');
    expect(money('99.995')).toBe('100.00');
    expect(money('-999.999')).toBe('-1000.00');
    expect(money('7')).toBe('7.00');
    expect(money('7.')).toBe('7.00');
    expect(money('0007.1')).toBe('7.10');
    expect(money('1e3')).toBe('1000.00');
    expect(money(null)).toBeNull();
  });

  it('answers what decimal.js answers for every value of a sweep', () => {
    const values: string[] = [];
    for (const whole of ['0', '1', '9', '99', '1234567890123']) {
      for (const fraction of [
        '',
        '0',
        '005',
        '004999',
        '005001',
        '015',
        '025',
        '995',
        '9999999',
        '12345678901',
      ]) {
        for (const sign of ['', '-'])
          values.push(`${sign}${whole}${fraction ? `.${fraction}` : ''}`);
      }
    }
    for (let i = 0; i < 500; i += 1) {
      const digits = (n: number) =>
        Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
      values.push(`${i % 2 ? '-' : ''}${digits(1 + (i % 7))}.${digits(i % 12)}`);
    }
    for (const value of values) expect(money(value), value).toBe(reference(value, 2));
  });
});

describe('toHolding', () => {
  it('publishes weight at 6 places, half-even', () => {
    const holding = toHolding({
      id: 'h1',
      portfolioId: 'p1',
      symbol: 'AAPL',
      name: null,
      quantity: '10',
      averageCost: '180',
      currency: 'USD',
      lastPrice: null,
      marketValue: null,
      marketValueEur: null,
      costBasisEur: null,
      unrealizedPnlEur: null,
      weight: '0.12345650',
      valuedAt: '2024-03-01T15:00:00.000Z',
      priceAsOf: null,
      fxAsOf: null,
      stale: null,
      realizedPnlEur: null,
    } as Parameters<typeof toHolding>[0]);
    expect(holding.weight).toBe('0.123456');
    expect(holding.name).toBe('AAPL');
    // REST writes this answer without a zod pass (mapperAnswers): it must be exactly a Holding
    expect(Holding.strict().parse(holding)).toEqual(holding);
  });
});

describe('toCashPosition', () => {
  it('answers exactly a CashPosition (REST writes it without a zod pass)', () => {
    const cash = toCashPosition({
      id: 'c1',
      portfolioId: 'p1',
      currency: 'USD',
      amount: '-12.345',
      amountEur: null,
      valuedAt: '2024-03-01T15:00:00.000Z',
      fxAsOf: null,
    } as Parameters<typeof toCashPosition>[0]);
    expect(cash.amount).toBe('-12.34');
    expect(CashPosition.strict().parse(cash)).toEqual(cash);
  });
});
