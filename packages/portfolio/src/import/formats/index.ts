import type { BrokerFormatSpec } from '../row.js';
import { degiroFormat } from './degiro.js';
import { etoroFormat } from './etoro.js';
import { ghostfolioFormat } from './ghostfolio.js';
import { ibkrTradesFormat } from './ibkr.js';
import { ibkrCashFormat } from './ibkr-cash.js';
import { revolutFormat } from './revolut.js';
import { saxoFormat } from './saxo.js';
import { schwabFormat } from './schwab.js';
import { tradeRepublicFormat } from './trade-republic.js';
import { trading212Format } from './trading212.js';
import { xtbFormat } from './xtb.js';

/**
 * Every CSV layout the importer reads, in the order auto-detection tries them (more specific
 * headers first). Adding a broker is one module under `formats/` plus one entry here.
 */
export const CSV_FORMATS = {
  ghostfolio: ghostfolioFormat,
  revolut: revolutFormat,
  'ibkr-trades': ibkrTradesFormat,
  'ibkr-cash': ibkrCashFormat,
  degiro: degiroFormat,
  etoro: etoroFormat,
  saxo: saxoFormat,
  schwab: schwabFormat,
  'trade-republic': tradeRepublicFormat,
  trading212: trading212Format,
  xtb: xtbFormat,
} as const satisfies Record<string, BrokerFormatSpec>;
