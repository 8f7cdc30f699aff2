import type OpenAI from 'openai';
import type { z } from 'zod';
import type { ProposalView } from './frames.js';

/**
 * A model endpoint: any OpenAI-compatible chat-completions server (OpenAI, Azure OpenAI, Ollama,
 * vLLM, llama.cpp…). `null` wherever an endpoint is taken means "no model configured".
 */
export interface ModelEndpoint {
  /**
   * Constructed by the app, e.g. `new OpenAI({ baseURL, apiKey, maxRetries: 1, timeout: 30_000 })`.
   * Its `timeout` bounds the time to response headers; its `maxRetries` is used before the first
   * token only (the SDK never retries once the body started; this package retries a stream that
   * fails after the headers but before any token, up to the same count).
   */
  client: OpenAI;
  /** Model name sent as `model`. */
  model: string;
  /** Whether image attachments may be sent as `image_url` parts. */
  acceptsImages: boolean;
  /** Token budget per model answer (sent as {@link ModelEndpoint.tokenLimitParameter}). */
  maxOutputTokens: number;
  /** No chunk for this long (ms, from the request on) → abort and `upstream_unavailable`. */
  idleTimeoutMs: number;
  /**
   * Total time of one answer (ms, over all its model calls), whatever the model does: past it
   * the request is aborted; text already shown stays and the answer ends with
   * `finishReason: "timeout"` (incomplete), or `upstream_unavailable` when nothing was shown.
   * Default {@link DEFAULT_TOTAL_TIMEOUT_MS}.
   */
  totalTimeoutMs?: number;
  /**
   * Most characters of visible answer (over all its model calls); the rest is not read, the
   * request is aborted and the answer ends with `finishReason: "length"` (incomplete).
   * Default {@link DEFAULT_MAX_OUTPUT_CHARS}.
   */
  maxOutputChars?: number;
  /**
   * Request field carrying the budget: `max_tokens` (default; Ollama, vLLM, llama.cpp and OpenAI
   * chat models) or `max_completion_tokens` (required by OpenAI's reasoning models).
   */
  tokenLimitParameter?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Told of every upstream failure in full (the provider's status and text), for the log; the
   * client only ever reads a generic `upstream_unavailable` message.
   */
  onUpstreamError?: (error: unknown) => void;
}

/** Default {@link ModelEndpoint.totalTimeoutMs}: two minutes. */
export const DEFAULT_TOTAL_TIMEOUT_MS = 120_000;
/** Default {@link ModelEndpoint.maxOutputChars}: 20,000 characters (about 5,000 tokens). */
export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;
/** Longest `text` of one `delta` frame or narrative chunk; longer model pieces are split. */
export const MAX_DELTA_CHARS = 2_000;
/**
 * Characters of answer the figure check reads in one go; between two steps of a larger chunk the
 * event loop runs (other requests are served), so no chunk a model sends blocks the process.
 */
export const GROUND_STEP = 512;

/** What a tool answers: data for the model, a one-line summary for the `tool` frame, a proposal. */
export interface ToolOutcome {
  /** Sent to the model as untrusted, bounded, spotlighted JSON; also grounds the answer's numbers. */
  data: unknown;
  /** Shown in the `tool` frame (`done`), e.g. "3 holdings". */
  summary?: string;
  /** A stored proposal: becomes a `proposal` frame. Only proposal tools return one. */
  proposal?: ProposalView;
}

/**
 * A tool the caller supplies (a port, scoped to the session's user by the caller): the package
 * never imports a store. Arguments from the model are validated with `parameters` before `run`;
 * a failure goes back to the model as the tool's result, never to the user as a crash.
 */
export interface AdvisorTool<A = unknown> {
  /** Name the model calls it by, e.g. `listHoldings` (the caller's names: none are built in). */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** Argument schema; sent as JSON Schema (`z.toJSONSchema`). Use `z.object({})` for none. */
  parameters: z.ZodType<A>;
  /**
   * The ask of the offline rules this tool answers (see {@link OfflineIntent}); none: the rules
   * never call it. With no tool for an ask, the offline answer says the tool is unavailable.
   */
  offline?: OfflineIntent;
  /**
   * Who wrote the figures of its data: `service` (default: computed or stored by the service from
   * filings and the ledger — they ground the answer) or `client` (written by a client, e.g. saved
   * reports: their figures ground nothing, issue 41).
   */
  source?: 'service' | 'client';
  /** Runs the tool; `signal` aborts with the turn. Throwing sends the message back to the model. */
  run(args: A, ctx: { signal: AbortSignal }): Promise<ToolOutcome>;
}

/** A message of the conversation (the server owns the system prompt: no `system` role). */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A file the user attached to the latest message, already parsed by the caller: `text` for CSV,
 * JSON, text and PDF (extracted), `base64` for images. Untrusted: sent to the model as data.
 */
export interface Attachment {
  filename: string;
  /** e.g. `text/csv`, `application/pdf`, `image/png`. */
  mediaType: string;
  kind: 'text' | 'image';
  text?: string;
  base64?: string;
  /** What the caller noticed, e.g. "12 of 14 rows parsed; line 7: bad date" (shown to the model). */
  note?: string;
  /**
   * A hint, not the user's data (e.g. the portfolio snapshot a client sends): sent to the model
   * as data like any attachment, but never a source of facts — its figures ground nothing.
   */
  hint?: boolean;
}

/** What the turn is about; every field is optional. */
export interface TurnContext {
  /** BCP-47 tag the user writes in (the model answers in the language of the last message). */
  language?: string;
  /** ISO 4217 currency amounts are shown in, e.g. `EUR`. */
  baseCurrency?: string;
  /** The portfolio the question is about (already checked to be the user's). */
  activePortfolio?: { id: string; name: string };
}

/** Input of {@link runAdvisorTurn}. */
export interface AdvisorTurnInput {
  /** The model, or `null` for the offline rules. */
  endpoint: ModelEndpoint | null;
  /** The conversation, oldest first; the last message is the user's ask. */
  messages: ChatMessage[];
  /** The tools of this user's session (read tools and proposal tools; no write tools). */
  // biome-ignore lint/suspicious/noExplicitAny: tools of any argument type are accepted.
  tools: AdvisorTool<any>[];
  /** Files attached to the latest message. */
  attachments?: Attachment[];
  context?: TurnContext;
  /** Aborts the upstream request and the tools; the iterable then ends. */
  signal: AbortSignal;
  /** The clock (today's date in the prompt). */
  now: () => Date;
}

/**
 * The asks the offline rules (no model) answer, each with one tool: the tool whose
 * {@link AdvisorTool.offline} names the ask. Argument shapes the rules send:
 * `portfolios {}`, `holdings { portfolioId? }`, `cash { portfolioId? }`, `evaluate { symbol }`,
 * `reports {}`, `import { filename, portfolioId? }`, `xray { portfolioId }` (the active portfolio,
 * else the user's only one, found with the `portfolios` tool).
 */
export type OfflineIntent =
  | 'import'
  | 'holdings'
  | 'cash'
  | 'evaluate'
  | 'reports'
  | 'portfolios'
  | 'xray';
