import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AskModelForMapping, mappingToOffer } from '../src/portfolio/model-mapping.js';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

// Headers no vocabulary knows: the generic proposal asks, and only a model can place them.
const OPAQUE = ['c1;c2;c3;c4;c5', '01/02/2024;buy;AAPL;3;150', '03/04/2024;buy;MSFT;1;300'].join(
  '\n',
);

const MODEL_MAPPING = {
  delimiter: ';',
  columns: { date: 'c1', action: 'c2', symbol: 'c3', quantity: 'c4', price: 'c5' },
  dateOrder: 'mdy',
  decimal: '.',
  actions: { buy: 'buy' },
  currency: 'USD',
};

describe.each(engines)(
  'a mapping to offer for a file the importer cannot place ($name)',
  (engine) => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await engine.open();
    });
    afterAll(() => database.cleanup());

    async function portfolio(label: string) {
      const repos = createRepositories(database.db);
      const user = await repos.users.create({ email: uniqueEmail(label) });
      const service = createPortfolioService({
        db: database.db,
        quotes: null,
        fx: null,
        now: () => new Date(),
      });
      const p = await service.createPortfolio(user.id, { name: label });
      const count = async () => (await repos.transactions.listAll(user.id, p.id)).length;
      return { userId: user.id, portfolioId: p.id, count };
    }

    it("offers the model's mapping only after its dry run passes, and stores nothing", async () => {
      const { userId, portfolioId, count } = await portfolio('model-ok');
      const asked: unknown[] = [];
      const ask: AskModelForMapping = async (request) => {
        asked.push(request);
        return MODEL_MAPPING;
      };
      const result = await mappingToOffer({ db: database.db, ask }, userId, portfolioId, OPAQUE);
      expect(result).toMatchObject({ offered: true, source: 'model', mapping: MODEL_MAPPING });
      if (!result.offered) return;
      expect(result.preview.holdings.map((h) => `${h.symbol} ${h.quantity}`)).toEqual([
        'AAPL 3',
        'MSFT 1',
      ]);
      expect(asked).toHaveLength(1);
      expect(await count()).toBe(0);
    });

    it("refuses a model's mapping that fails rows or is not a mapping", async () => {
      const { userId, portfolioId } = await portfolio('model-bad');
      const wrong: AskModelForMapping = async () => ({ ...MODEL_MAPPING, dateOrder: 'ymd' });
      const failing = await mappingToOffer(
        { db: database.db, ask: wrong },
        userId,
        portfolioId,
        OPAQUE,
      );
      expect(failing).toEqual({ offered: false, reason: expect.stringContaining('line 2') });
      const junk: AskModelForMapping = async () => ({ columns: 'everything' });
      const invalid = await mappingToOffer(
        { db: database.db, ask: junk },
        userId,
        portfolioId,
        OPAQUE,
      );
      expect(invalid).toEqual({ offered: false, reason: 'the model gave no valid mapping' });
      const none = await mappingToOffer({ db: database.db }, userId, portfolioId, OPAQUE);
      expect(none.offered).toBe(false);
    });

    it("refuses a model's mapping whose result fails a check (a sale beyond the units the file bought)", async () => {
      const { userId, portfolioId, count } = await portfolio('model-doubt');
      const sold = `${OPAQUE}\n05/06/2024;sell;AAPL;5;160`;
      const reversed: AskModelForMapping = async () => ({
        ...MODEL_MAPPING,
        actions: { buy: 'buy', sell: 'sell' },
      });
      const result = await mappingToOffer(
        { db: database.db, ask: reversed },
        userId,
        portfolioId,
        sold,
      );
      expect(result).toEqual({
        offered: false,
        reason: expect.stringContaining(
          'fails its checks: positions (line 4 sells 5 AAPL when 3 are held',
        ),
      });
      expect(await count()).toBe(0);
    });

    it('offers the generic proposal without asking the model when it has no question', async () => {
      const { userId, portfolioId } = await portfolio('generic');
      const text = 'Date;Type;Ticker;Quantity;Price;Currency\n2024-01-15;Buy;AAPL;2;150;USD\n';
      const ask: AskModelForMapping = async () => {
        throw new Error('the model must not be asked');
      };
      const result = await mappingToOffer({ db: database.db, ask }, userId, portfolioId, text);
      expect(result).toMatchObject({ offered: true, source: 'generic' });
    });
  },
);
