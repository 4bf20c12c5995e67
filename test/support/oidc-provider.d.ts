// The part of oidc-provider's API that test/support/authorization-server.ts uses. The package ships no
// types and @types/oidc-provider is not a dependency, so this declares just enough for the harness to be
// type-checked (shapes from node_modules/oidc-provider/lib/helpers/defaults.js).

declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** Client metadata as registered (RFC 7591 names). */
  export type ClientMetadata = { client_id: string } & Record<string, unknown>;

  /** The Client model as oidc-provider hands it to configuration helpers. */
  export interface Client {
    readonly clientId: string;
    readonly clientAuthMethod: string;
    grantTypeAllowed(grantType: string): boolean;
  }

  /** The request context (a Koa context) the helpers receive; the harness never looks inside. */
  export type Context = object;

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
    jwt?: { sign?: { alg?: string; kid?: string } };
  }

  /** What oidc-provider stores through an adapter; the harness reads only these fields. */
  export interface AdapterPayload {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
    [field: string]: unknown;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<{ sub: string } & Record<string, unknown>>;
  }

  type Ttl = number | ((ctx: Context, token: unknown, client: Client) => number);

  export interface Configuration {
    adapter?: (model: string) => Adapter;
    clients?: ClientMetadata[];
    clientBasedCORS?: (ctx: Context, origin: string, client: Client) => boolean;
    cookies?: { keys?: string[] };
    findAccount?: (ctx: Context, id: string) => Promise<Account | undefined>;
    issueRefreshToken?: (ctx: Context, client: Client, code: unknown) => Promise<boolean>;
    rotateRefreshToken?: boolean;
    jwks?: { keys: object[] };
    pkce?: { methods?: string[]; required?: (ctx: Context, client: Client) => boolean };
    renderError?: (
      ctx: Context & { type: string; body: unknown },
      out: Record<string, string>,
    ) => Promise<void>;
    scopes?: string[];
    ttl?: Record<string, Ttl>;
    features?: {
      clientCredentials?: { enabled: boolean };
      dPoP?: { enabled: boolean };
      devInteractions?: { enabled: boolean };
      introspection?: {
        enabled: boolean;
        allowedPolicy?: (ctx: Context, client: Client, token: { clientId?: string }) => Promise<boolean>;
      };
      registration?: { enabled: boolean };
      resourceIndicators?: {
        enabled: boolean;
        defaultResource?: (
          ctx: Context,
          client: Client,
          oneOf?: string[],
        ) => Promise<string | string[] | undefined>;
        getResourceServerInfo?: (
          ctx: Context,
          resource: string,
          client: Client,
        ) => Promise<ResourceServerInfo>;
        useGrantedResource?: (ctx: Context, model: unknown) => Promise<boolean>;
      };
      revocation?: { enabled: boolean };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Trust X-Forwarded-* headers (Koa's `app.proxy`). */
    proxy: boolean;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };
}
