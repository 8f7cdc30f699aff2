import { ApiError } from '../problem.js';

/** Methods that change state and so need the cross-site check. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);

function originOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '' || value === 'null') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/** The origin a request claims to come from: `Origin`, else the origin of `Referer`. */
export function requestOrigin(headers: {
  origin?: string | string[] | undefined;
  referer?: string | string[] | undefined;
}): string | undefined {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return originOf(first(headers.origin)) ?? originOf(first(headers.referer));
}

/**
 * Cross-site request check (OWASP CSRF cheat sheet, "verifying origin with standard headers"):
 * a state-changing request must come from one of `allowed` origins. With `required`, a request
 * that names no origin at all is refused too (cookie-authenticated requests); without it
 * (sign-in forms, non-browser clients), only a foreign origin is refused.
 *
 * @throws {ApiError} `forbidden` when the origin is foreign (or missing while required: the detail
 *   names the header to send, `Origin: <the first allowed origin>`).
 */
export function assertSameOrigin(
  request: { method: string; headers: Parameters<typeof requestOrigin>[0] },
  allowed: ReadonlySet<string>,
  required: boolean,
): void {
  if (!STATE_CHANGING_METHODS.has(request.method)) return;
  const origin = requestOrigin(request.headers);
  if (origin === undefined) {
    if (required) {
      const expected = [...allowed][0] ?? 'this service';
      throw new ApiError(
        'forbidden',
        `cross-site check failed: the request names no Origin. A write with the session cookie ` +
          `must send the header "Origin: ${expected}" (browsers send it themselves; with curl ` +
          `add -H "Origin: ${expected}").`,
      );
    }
    return;
  }
  if (!allowed.has(origin)) {
    throw new ApiError('forbidden', `cross-site check failed: origin ${origin} is not allowed`);
  }
}
