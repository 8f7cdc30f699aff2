import { type CardEvaluation, renderMoatCard } from './card.js';
import { CARD_STYLE } from './card-style.js';
import { escapeMarkup } from './escape.js';

/** Options of {@link moatCardPage}. */
export interface MoatCardPageOptions {
  /** The CSP nonce of the page's one `<style>` element (the page has no script). */
  readonly nonce: string;
}

/**
 * The moat card as a whole HTML document, rendered on the server ({@link renderMoatCard} inside
 * a page with {@link CARD_STYLE}): no script, no external resource, so a CSP of
 * `default-src 'none'; style-src 'nonce-…'` serves it. Used by `GET /evaluation/{symbol}`.
 *
 * @example
 * reply.type('text/html').send(moatCardPage(evaluation, { nonce }));
 */
export function moatCardPage(evaluation: CardEvaluation, options: MoatCardPageOptions): string {
  const nonce = escapeMarkup(options.nonce);
  const title = escapeMarkup(`${evaluation.companyName} (${evaluation.symbol}): moat card`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style nonce="${nonce}">${CARD_STYLE}</style></head>
<body><main>
${renderMoatCard(evaluation)}
</main></body></html>`;
}
