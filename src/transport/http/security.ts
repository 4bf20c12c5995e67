// DNS-rebinding protection: a server bound to localhost only answers requests whose Host is localhost and
// whose Origin, when a browser sends one, is a local page. Otherwise a web page the user visits could
// reach the server through a hostname it controls that resolves to 127.0.0.1.

import type { IncomingMessage } from 'node:http';

export interface OriginPolicy {
  /** Hosts accepted in the Host header (with or without port). Undefined: any host. */
  allowedHosts?: string[];
  /** Origins accepted in the Origin header. Undefined: local origins only. */
  allowedOrigins?: string[];
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

export function localPolicy(): OriginPolicy {
  return { allowedHosts: LOCAL_HOSTS };
}

function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function includesIgnoringCase(allowed: readonly string[], name: string, host: string): boolean {
  const lowerName = name.toLowerCase();
  const lowerHost = host.toLowerCase();
  return allowed.some((a) => a.toLowerCase() === lowerName || a.toLowerCase() === lowerHost);
}

/** Why the request is refused, or undefined when it may go on. */
export function checkOrigin(request: IncomingMessage, policy: OriginPolicy): string | undefined {
  const host = request.headers.host;
  if (policy.allowedHosts) {
    if (!host) return 'the Host header is missing';
    const name = hostName(host);
    // The exact spelling first: it is every request of a local client, and lower-casing each allowed
    // host for it was a few allocations per request (issue 21).
    const allowed = policy.allowedHosts;
    if (!allowed.includes(name) && !allowed.includes(host) && !includesIgnoringCase(allowed, name, host)) {
      return `Host "${host}" is not allowed (DNS rebinding protection); allowed: ${policy.allowedHosts.join(', ')}`;
    }
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (policy.allowedOrigins) {
      if (!policy.allowedOrigins.includes(origin)) return `Origin "${origin}" is not allowed`;
    } else {
      let local = false;
      try {
        local = LOCAL_HOSTS.includes(new URL(origin).hostname) || new URL(origin).hostname === '[::1]';
      } catch {
        local = false;
      }
      if (!local) return `Origin "${origin}" is not allowed (DNS rebinding protection)`;
    }
  }
  return undefined;
}
