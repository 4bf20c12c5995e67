// How the page talks to its inspector: the token from the page's own address on every request, JSON both
// ways, the live feed over server-sent events.

export const token = new URLSearchParams(location.search).get('token') ?? '';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function get<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { 'x-mcpwire-token': token } });
  return answer<T>(response);
}

export async function post<T>(name: string, body: unknown): Promise<T> {
  const response = await fetch(`/api/${name}`, {
    method: 'POST',
    headers: { 'x-mcpwire-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return answer<T>(response);
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const code = body.code === undefined ? '' : ` (${String(body.code)})`;
    throw new ApiError(`${String(body.error ?? response.statusText)}${code}`, response.status, body);
  }
  return body as T;
}

export function events(): EventSource {
  return new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
}

export function exportUrl(server: string): string {
  return `/api/export?server=${encodeURIComponent(server)}&token=${encodeURIComponent(token)}`;
}
