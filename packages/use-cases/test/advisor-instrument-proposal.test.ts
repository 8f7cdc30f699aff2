/**
 * Issue 38: an agent corrects what an instrument is through the advisor's proposals (propose →
 * the user confirms), the flow of `PUT /api/portfolios/{id}/instruments/{symbol}`: journalled with
 * the source `advisor`, revertible, and applied only while the instrument is the one the summary
 * showed. PostgreSQL and PGlite.
 */
import { createTestBackends } from '@svc/portfolio-store/testing';
import { InstrumentAssignmentResult } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { createProposalService } from '../src/advisor/confirm-proposal.js';
import { UseCaseError } from '../src/errors.js';
import { portfolioFixture } from './support/portfolio-fixture.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const NOW = new Date('2026-11-26T12:00:00Z');
const now = () => NOW;

describe.each(engines)('proposeAssignInstrument on $name', (engine) => {
  const fx = portfolioFixture(engine, { quotes: null, fx: null, now });

  async function setup() {
    const { userId, portfolio } = await fx.newPortfolio('Main');
    // an ETF recorded under an exchange ticker nobody resolved
    for (const executedAt of ['2024-01-02T15:00:00Z', '2024-02-01T15:00:00Z']) {
      await fx.service.recordTransaction(userId, portfolio.id, {
        type: 'buy',
        symbol: 'VWRL',
        quantity: '5',
        price: '100',
        currency: 'EUR',
        executedAt,
      });
    }
    const { run } = fx.proposalTools(userId, portfolio.id, {
      lastUserMessage: 'VWRL is the Vanguard FTSE All-World ETF on Euronext Amsterdam',
    });
    const propose = (args: object) => run('proposeAssignInstrument', args);
    const confirm = (proposalId: string) =>
      createProposalService({ db: fx.database.db, quotes: null, fx: null, now }).confirm(
        { id: userId, plan: 'pro' } as never,
        { proposalId, decision: 'accept' },
      );
    const instrumentOf = async (symbol: string) =>
      (await fx.service.listHoldings(userId, { portfolioId: portfolio.id })).find(
        (h) => h.symbol === symbol,
      )?.instrument;
    return { userId, portfolio, propose, confirm, instrumentOf };
  }

  const ASSIGNMENT = { ticker: 'VWRL', mic: 'XAMS', isin: 'IE00B3RBWM25', kind: 'fund' };

  it('proposes, names the instrument before and after, and applies on confirmation only', async () => {
    const { portfolio, userId, propose, confirm, instrumentOf } = await setup();
    const before = await instrumentOf('VWRL');
    const outcome = await propose({ symbol: 'VWRL', assignment: ASSIGNMENT });
    const proposal = outcome?.proposal;
    expect(proposal?.kind).toBe('assign_instrument');
    expect(proposal?.summary).toBe(
      `In “Main”, say that VWRL (now ${shownAs(before)}) is ticker VWRL on XAMS, ISIN IE00B3RBWM25, fund, other fields kept: 2 transaction(s) reassigned; a revert undoes it`,
    );
    // nothing changed yet
    expect(await instrumentOf('VWRL')).toEqual(before);

    const applied = (await confirm(proposal?.id ?? '')) as { result: Record<string, unknown> };
    const result = InstrumentAssignmentResult.parse(applied.result.assignment);
    // stored under the listing's symbol for quotes on Euronext Amsterdam
    expect(result).toMatchObject({ symbol: 'VWRL.AS', transactionCount: 2 });
    expect(await instrumentOf('VWRL')).toBeUndefined();
    expect(await instrumentOf('VWRL.AS')).toMatchObject({
      ticker: 'VWRL',
      mic: 'XAMS',
      isin: 'IE00B3RBWM25',
      kind: 'fund',
      resolution: 'user',
    });
    // journalled as the advisor's edit, and a revert undoes it
    const changes = await fx.service.listChanges(userId, portfolio.id, {});
    expect(changes.items[0]).toMatchObject({
      id: result.changeId,
      kind: 'edit',
      source: 'advisor',
    });
    await fx.service.revertChange(userId, portfolio.id, result.changeId);
    expect(await instrumentOf('VWRL')).toEqual(before);
  });

  it('refuses (409, nothing written) when the instrument changed after the proposal', async () => {
    const { portfolio, userId, propose, confirm, instrumentOf } = await setup();
    const outcome = await propose({ symbol: 'VWRL', assignment: ASSIGNMENT });
    // the user names it over REST in the meantime
    await fx.service.assignInstrument(userId, portfolio.id, 'VWRL', {
      ticker: 'VWRL',
      name: 'Vanguard FTSE All-World',
    });
    const codeOf = (e: unknown) => (e instanceof UseCaseError ? e.code : String(e));
    const error = await confirm(outcome?.proposal?.id ?? '').catch((e: unknown) => e);
    expect(codeOf(error)).toBe('conflict');
    expect((error as UseCaseError).message).toContain('(name, resolution, unresolvedReason)');
    expect(await instrumentOf('VWRL')).toMatchObject({
      name: 'Vanguard FTSE All-World',
      resolution: 'user',
    });
    expect(await instrumentOf('VWRL')).not.toHaveProperty('mic');
    // and when the symbol was moved to another listing since: the same 409
    const again = await propose({ symbol: 'VWRL', assignment: ASSIGNMENT });
    await fx.service.assignInstrument(userId, portfolio.id, 'VWRL', {
      ticker: 'VWRL',
      mic: 'XLON',
    });
    expect(codeOf(await confirm(again?.proposal?.id ?? '').catch((e: unknown) => e))).toBe(
      'conflict',
    );
    expect(await instrumentOf('VWRL.L')).toMatchObject({ mic: 'XLON' });
  });

  it('refuses a symbol the portfolio never held, and a malformed assignment', async () => {
    const { propose } = await setup();
    const missing = await propose({ symbol: 'MSFT', assignment: { ticker: 'MSFT' } })?.catch(
      (e: unknown) => e,
    );
    expect((missing as UseCaseError).code).toBe('not_found');
    const tool = fx
      .proposalTools('x', 'none', { lastUserMessage: '' })
      .tools()
      .find((t) => t.name === 'proposeAssignInstrument');
    expect(
      tool?.parameters.safeParse({ symbol: 'VWRL', assignment: { mic: 'XAMS' } }).success,
    ).toBe(false);
  });
});

/** What the summary says an instrument is (the same words as `instrumentText`). */
function shownAs(instrument: Record<string, unknown> | undefined): string {
  if (!instrument) return '';
  const { ticker, mic, isin, kind, currency, resolution } = instrument as Record<string, string>;
  return [
    ticker ? `ticker ${ticker}${mic ? ` on ${mic}` : ''}` : undefined,
    isin ? `ISIN ${isin}` : undefined,
    [kind, currency ? `in ${currency}` : undefined].filter(Boolean).join(' '),
  ]
    .filter(Boolean)
    .join(', ')
    .concat(
      resolution === 'unresolved'
        ? ' (unresolved)'
        : resolution
          ? ` (resolved by ${resolution})`
          : '',
    );
}
