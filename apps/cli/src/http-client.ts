/** A small client of the service's REST API for the command line (`svc example`, `svc xray`). */
export interface ApiClient {
  /** Sends a request; answers the status and the parsed body (JSON, else text). */
  send(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<{ status: number; body: unknown }>;
  /**
   * Like {@link ApiClient.send}, for a 2xx answer's body.
   * @throws Error naming the status and the problem's detail otherwise.
   */
  json(method: string, path: string, body?: unknown, contentType?: string): Promise<unknown>;
}

/**
 * A client of the service at `baseUrl`: with `token`, every request carries it as a bearer
 * token; without, the session cookie a sign-in sets is kept and sent back (with the `Origin` the
 * service checks on writes).
 */
export function apiClient(baseUrl: string, token?: string): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  let cookie: string | undefined;
  const send: ApiClient['send'] = async (method, path, body, contentType = 'application/json') => {
    const headers: Record<string, string> = { origin, accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = contentType;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const session = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('service_session='))
      ?.split(';')[0];
    if (session) cookie = session;
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the text
    }
    return { status: res.status, body: parsed };
  };
  return {
    send,
    async json(method, path, body, contentType) {
      const { status, body: answer } = await send(method, path, body, contentType);
      if (status >= 200 && status < 300) return answer;
      const detail = (answer as { detail?: string } | null)?.detail ?? JSON.stringify(answer);
      throw new Error(`${method} ${path}: ${status} ${detail}`);
    },
  };
}
