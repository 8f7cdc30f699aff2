import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { PortfolioXray } from '@svc/schemas';
import { formatXray } from './format/xray-table.js';
import { apiClient } from './http-client.js';

/** Usage of `svc xray`. */
export const XRAY_USAGE = `  svc xray <PORTFOLIO_ID> --token-file <file> [--url http://127.0.0.1:3000] [--json]
                                       the portfolio's moat X-ray from a running service, read
                                       with a personal access token (portfolio:read, moat:read;
                                       portfolio:values for the EUR amounts) kept in <file>`;

/**
 * `svc xray` (`pnpm xray`): `GET /api/portfolios/{id}/xray` of a running service with a personal
 * access token, printed as a table (`--json`: the answer as it came).
 *
 * Exit codes: 0 done, 1 the service refused or could not be reached, 2 usage.
 */
export async function xrayCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      'token-file': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [portfolioId] = positionals;
  if (values.help || positionals.length !== 1 || !portfolioId || !values['token-file']) {
    process.stderr.write(`usage:\n${XRAY_USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const token = (await readFile(values['token-file'], 'utf8')).trim();
  const api = apiClient(values.url, token);
  const xray = (await api.json(
    'GET',
    `/api/portfolios/${encodeURIComponent(portfolioId)}/xray`,
  )) as PortfolioXray;
  process.stdout.write(`${values.json ? JSON.stringify(xray, null, 2) : formatXray(xray)}\n`);
  return 0;
}
