// Workload identity federation (MCP extension SEP-1933): a client that runs as a workload (a Kubernetes
// pod, a SPIFFE workload, a cloud function) already holds a JWT that its platform issued to it, and the
// authorization server is configured to trust that platform. The client presents the JWT as a JWT bearer
// grant (RFC 7523 §2.1) with the server's `resource`: no client registration, no client id, no secret.
// The platform rotates the JWT, so it is asked for anew each time a token is needed.

export interface WorkloadIdentity {
  /**
   * The workload's JWT (its `aud` the authorization server, as the platform was told), or a function that
   * reads the current one (e.g. a projected service account token file).
   */
  assertion: string | (() => string | Promise<string>);
  /** A client id to send along (with no authentication), for a server that wants one; none by default. */
  clientId?: string;
  /**
   * The file `assertion` reads (see workloadIdentityFromFile): kept with the tokens, so that a client made
   * later without these options (a later command) takes its next token the same way.
   */
  file?: string;
}

/** A workload whose platform keeps its JWT in a file (a projected service account token), read each time. */
export function workloadIdentityFromFile(file: string, clientId?: string): WorkloadIdentity {
  return {
    assertion: async () => {
      const { readFile } = await import('node:fs/promises');
      return readFile(file, 'utf8');
    },
    file,
    ...(clientId ? { clientId } : {}),
  };
}

/** The current workload JWT; undefined when there is none to give. */
export async function workloadAssertion(identity: WorkloadIdentity): Promise<string | undefined> {
  const value = typeof identity.assertion === 'function' ? await identity.assertion() : identity.assertion;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
