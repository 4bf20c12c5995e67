// The Bearer challenge of RFC 6750 §3 in both directions: the resource server writes it into
// WWW-Authenticate when it refuses a request, and the client reads it to learn where the protected
// resource metadata is (RFC 9728 §5.1) and which scope would do (MCP's scope step-up). One module, so
// that what the server writes is exactly what the client can read.

/** The parameters of one challenge; values are plain strings, quoted on the way out. */
export type ChallengeParams = Record<string, string>;

/** `Bearer k="v", ...` (or another scheme's): values are quoted, with `\` and `"` escaped (RFC 9110 §5.6.4). */
export function formatChallenge(params: ChallengeParams, scheme = 'Bearer'): string {
  const parts = Object.entries(params).map(
    ([key, value]) => `${key}="${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`,
  );
  return parts.length === 0 ? scheme : `${scheme} ${parts.join(', ')}`;
}

/**
 * The parameters of the Bearer challenge in a WWW-Authenticate value, or undefined when it has none. A
 * value may hold several challenges (`Basic realm="x", Bearer scope="a"`): only Bearer's are read, and
 * parameter names are compared without case, as the RFC says.
 */
export function parseBearerChallenge(header: string | null | undefined): ChallengeParams | undefined {
  return parseChallenge(header, 'Bearer');
}

/** The parameters of one scheme's challenge (`DPoP error="use_dpop_nonce"`, RFC 9449 §7.1), the same way. */
export function parseChallenge(
  header: string | null | undefined,
  scheme: string,
): ChallengeParams | undefined {
  if (!header) return undefined;
  const tokens = tokenize(header);
  let params: ChallengeParams | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'scheme') {
      if (params) break; // the next challenge starts: this scheme's parameters are complete
      if (token.name.toLowerCase() === scheme.toLowerCase()) params = {};
    } else if (params && token.kind === 'param') {
      params[token.name.toLowerCase()] = token.value;
    }
  }
  return params;
}

type Token = { kind: 'scheme'; name: string } | { kind: 'param'; name: string; value: string };

/** Splits a challenge list into schemes and `name=value` parameters (token68 values are skipped). */
function tokenize(header: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const skip = () => {
    while (i < header.length && /[\s,]/.test(header[i]!)) i++;
  };
  while (i < header.length) {
    skip();
    const start = i;
    while (i < header.length && /[^\s,=]/.test(header[i]!)) i++;
    const name = header.slice(start, i);
    if (name === '') {
      i++;
      continue;
    }
    while (i < header.length && header[i] === ' ') i++;
    if (header[i] !== '=') {
      out.push({ kind: 'scheme', name });
      continue;
    }
    i++;
    while (i < header.length && header[i] === ' ') i++;
    let value = '';
    if (header[i] === '"') {
      i++;
      while (i < header.length && header[i] !== '"') {
        if (header[i] === '\\' && i + 1 < header.length) i++;
        value += header[i];
        i++;
      }
      i++;
    } else {
      const from = i;
      while (i < header.length && /[^\s,]/.test(header[i]!)) i++;
      value = header.slice(from, i);
      // `token68=` (base64 padding) after a scheme, not a parameter.
      if (value === '' || /^=+$/.test(value)) continue;
    }
    out.push({ kind: 'param', name, value });
  }
  return out;
}
