import type { McpPrincipal } from './bearer-guard.js';
import type { ToolRegistry } from './tool-registry.js';

/** Tokens whose tool registries are kept, at most (the least recently used dropped). */
const KEPT_TOKENS = 256;

/**
 * The tool registries of the fast path, one per token, built on first use and kept for the
 * token's next calls: a registry is bound to what the verified token says (owner, plan, token
 * id, scopes: the key) and holds nothing of a request (the problem mapping, which logs through
 * the request, is an argument of each call), so one registry serves any number of the token's
 * calls at once; nothing is taken, given back or parked. Revocation is unaffected: the bearer
 * guard checks the token on every request before its registry is looked up. Bounded:
 * {@link KEPT_TOKENS} tokens, the least recently used dropped.
 */
export class TokenTools {
  readonly #kept = new Map<string, ToolRegistry>();

  /** @param build the registry of a token (`buildToolRegistry` over the token's owner and scopes) */
  constructor(private readonly build: (principal: McpPrincipal) => ToolRegistry) {}

  /** The registry of the request's token. */
  of(principal: McpPrincipal): ToolRegistry {
    const { user, tokenId, scopes } = principal;
    // ids, plan and scope names hold no space or NUL: the key cannot be read two ways
    const key = `${tokenId}\u0000${user.id}\u0000${user.plan}\u0000${scopes.join(' ')}`;
    let tools = this.#kept.get(key);
    if (tools === undefined) {
      tools = this.build(principal);
      if (this.#kept.size >= KEPT_TOKENS) {
        const oldest = this.#kept.keys().next().value;
        if (oldest !== undefined) this.#kept.delete(oldest);
      }
    } else {
      this.#kept.delete(key); // moved to the end: the most recently used
    }
    this.#kept.set(key, tools);
    return tools;
  }
}
