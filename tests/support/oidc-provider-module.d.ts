// The parts of oidc-provider (which ships no types) that the e2e OpenID provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url(ctx: unknown, interaction: { uid: string }): string };
    findAccount(ctx: unknown, sub: string): Promise<Account | undefined>;
  }
  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
