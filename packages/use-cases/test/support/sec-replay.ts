/**
 * A local HTTP server that replays SEC from the shared data (issue 33's tests): the ticker map,
 * companyfacts (each company's real file, or "before" a filing: cut back to the facts filed
 * earlier), submissions, and daily form indexes written by the test. Every request is recorded
 * with its User-Agent; a path can be held (never answered) to catch a process in the middle.
 */

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { COMPANYFACTS_DIR, SHARED_DATA_DIR } from '../shared-data.js';

/** A line of a daily form index. */
export interface IndexLine {
  form: string;
  company: string;
  cik: number;
  /** YYYY-MM-DD. */
  filed: string;
  accession: string;
}

/** Writes a daily form index as SEC formats it (header, dashed rule, fixed-width lines). */
export function formIndex(lines: readonly IndexLine[]): string {
  const head = [
    'Description:           Daily Index of EDGAR Dissemination Feed by Form Type',
    'Last Data Received:    October 31, 2025',
    'Comments:              webmaster@sec.gov',
    'Anonymous FTP:         ftp://ftp.sec.gov/edgar/',
    '',
    '',
    '',
    'Form Type   Company Name                                                  CIK         Date Filed  File Name',
    '-'.repeat(141),
  ];
  const body = lines.map(
    (l) =>
      `${l.form.padEnd(17)}${l.company.padEnd(62)}${String(l.cik).padEnd(12)}${l.filed.replaceAll('-', '')}    edgar/data/${l.cik}/${l.accession}.txt`,
  );
  return `${[...head, ...body].join('\n')}\n`;
}

/** The companyfacts document with only the facts filed before `day` (YYYY-MM-DD). */
export function cutBack(document: Record<string, unknown>, day: string): Record<string, unknown> {
  const facts = document.facts as Record<
    string,
    Record<string, { units: Record<string, { filed: string }[]> }>
  >;
  const out: Record<string, unknown> = {};
  for (const [taxonomy, concepts] of Object.entries(facts)) {
    const kept: Record<string, unknown> = {};
    for (const [name, concept] of Object.entries(concepts)) {
      const units: Record<string, unknown[]> = {};
      for (const [unit, values] of Object.entries(concept.units)) {
        const earlier = values.filter((v) => v.filed < day);
        if (earlier.length > 0) units[unit] = earlier;
      }
      if (Object.keys(units).length > 0) kept[name] = { ...concept, units };
    }
    out[taxonomy] = kept;
  }
  return { ...document, facts: out };
}

/** Starts the replay server on loopback. */
export async function startSecReplay(options: { companyfacts: Record<string, string> }) {
  const state = {
    /** CIK (10 digits) → the day before which its facts are cut back; absent: the real file. */
    cutBefore: new Map<string, string>(),
    /** YYYYMMDD → index text; absent: 404. */
    indexes: new Map<string, string>(),
    /** Paths answered never (the test kills a process waiting on one). */
    held: new Set<string>(),
    requests: [] as { path: string; userAgent: string | undefined; at: number }[],
  };
  const tickers = readFileSync(join(SHARED_DATA_DIR, 'sec/company_tickers_2026-02-13.json'));
  const parsed = new Map<string, Record<string, unknown>>();
  const facts = (cik: string) => {
    const file = options.companyfacts[cik];
    if (!file) return undefined;
    let doc = parsed.get(cik);
    if (!doc) {
      doc = JSON.parse(readFileSync(join(COMPANYFACTS_DIR, file), 'utf8')) as Record<
        string,
        unknown
      >;
      parsed.set(cik, doc);
    }
    const before = state.cutBefore.get(cik);
    return before ? cutBack(doc, before) : doc;
  };
  const json = (res: ServerResponse, body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    state.requests.push({ path, userAgent: req.headers['user-agent'], at: Date.now() });
    if (state.held.has(path)) return; // never answered
    const facts_ = /^\/api\/xbrl\/companyfacts\/CIK(\d{10})\.json$/.exec(path);
    const submissions = /^\/submissions\/CIK(\d{10})\.json$/.exec(path);
    const index = /^\/Archives\/edgar\/daily-index\/\d{4}\/QTR\d\/form\.(\d{8})\.idx$/.exec(path);
    if (path === '/files/company_tickers.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(tickers);
    } else if (facts_) {
      const doc = facts(facts_[1] as string);
      if (doc) json(res, doc);
      else res.writeHead(404).end();
    } else if (submissions) {
      try {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(readFileSync(join(SHARED_DATA_DIR, `sec/submissions/CIK${submissions[1]}.json`)));
      } catch {
        res.writeHead(404).end();
      }
    } else if (index) {
      const text = state.indexes.get(index[1] as string);
      if (text === undefined) res.writeHead(403).end('Forbidden');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
