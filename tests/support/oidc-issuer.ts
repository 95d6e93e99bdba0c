import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './server';

export interface OidcAccount {
  email: string;
  name: string;
  /** A path on the provider (PICTURE_PATH serves a picture). */
  picture?: string;
}

/** A profile picture the provider serves, like a real one's avatar host. */
export const PICTURE_PATH = '/pictures/sunrise.svg';

export interface LocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the app's callback and starts answering (the app's port is known only once it runs). */
  start(redirectUri: string): Promise<void>;
  stop(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, with one confidential
 * client. Its sign-in page asks for an email (any email signs in, with a verified address and the
 * name from `accounts`) and offers Cancel, which answers the client with access_denied.
 */
export async function createOidcProvider(accounts: Record<string, OidcAccount> = {}): Promise<LocalOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'afterglow-e2e';
  const clientSecret = 'afterglow-e2e-secret-afterglow-e2e-secret';
  let server: Server | undefined;

  return {
    issuer,
    clientId,
    clientSecret,
    async start(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
        cookies: { keys: ['afterglow-e2e-cookie-key'] },
        ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        async findAccount(_ctx, sub) {
          const account: OidcAccount = accounts[sub] ?? { email: sub, name: `Person ${sub.split('@')[0]}` };
          return {
            accountId: sub,
            async claims() {
              const picture = account.picture ? new URL(account.picture, issuer).href : undefined;
              return { sub, email: account.email, email_verified: true, name: account.name, picture };
            },
          };
        },
      });
      const handle = provider.callback();
      const interaction = async (req: IncomingMessage, res: ServerResponse) => {
        if (req.method === 'GET') {
          const details = await provider.interactionDetails(req, res);
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sunrise ID</title><link rel="icon" href="data:,"></head><body>
<h1>Sign in to Sunrise ID</h1>
<form method="post" action="/interaction/${escapeHtml(details.uid)}">
<label>Email <input name="email" type="email" required></label>
<button type="submit" name="action" value="login">Sign in</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form></body></html>`);
          return;
        }
        const form = await readForm(req);
        if (form.get('action') === 'cancel') {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled' }, { mergeWithLastSubmission: false });
          return;
        }
        const details = await provider.interactionDetails(req, res);
        const accountId = String(form.get('email'));
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      };
      server = createServer((req, res) => {
        if (req.url === PICTURE_PATH) {
          res.writeHead(200, { 'content-type': 'image/svg+xml' });
          res.end('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="#f59e0b"/></svg>');
          return;
        }
        if (req.url?.startsWith('/interaction/')) {
          interaction(req, res).catch((error: Error) => {
            res.writeHead(500);
            res.end(error.message);
          });
          return;
        }
        handle(req, res);
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async stop() {
      if (!server) return;
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    },
  };
}
