// The identification broker stand-in: a real OpenID provider (oidc-provider 8, the major that supports
// Node 20) mounted at /oidc. It registers one client (the onboarding server's default configuration),
// requires PKCE S256, puts the national id claim `nin` in the ID token, and shows its own login page per
// country (chosen by acr_values: nbid → Norway, mitid → Denmark, ftn → Finland) listing that country's
// personas, with a cancel button that answers error=access_denied. Signing keys are generated at start.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import Provider, { interactionPolicy, type Adapter, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';
import { findPersona, personas } from './personas.ts';
import { html, page } from './html.ts';
import type { SandboxContext } from './state.ts';

export const OIDC_MOUNT = '/oidc';

/** The test client; server/config.ts defaults to the same values. Not a secret: it only opens the sandbox. */
export const SANDBOX_OIDC_CLIENT = {
  clientId: 'onboarding-sandbox',
  clientSecret: 'sandbox-only-client-secret-not-for-production',
} as const;

const ACR_PREFIX = 'urn:signicat:oidc:method:';
const methods: Record<string, { country: CountryCode; eid: string }> = {
  nbid: { country: 'NO', eid: 'BankID' },
  mitid: { country: 'DK', eid: 'MitID' },
  ftn: { country: 'FI', eid: 'Finnish bank ID' },
};

function methodOf(acrValues: unknown): { country: CountryCode; eid: string } | undefined {
  if (typeof acrValues !== 'string') return undefined;
  for (const value of acrValues.split(' ')) {
    const m = value.startsWith(ACR_PREFIX) ? methods[value.slice(ACR_PREFIX.length)] : undefined;
    if (m) return m;
  }
  return undefined;
}

/** Any loopback host and port, path /onboarding/signicat: test stacks listen on random ports and *.localhost hosts. */
function sandboxRedirectAllowed(value: string): boolean {
  try {
    const url = new URL(value);
    const host = url.hostname;
    const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopback && url.pathname === '/onboarding/signicat' && !url.search && !url.hash;
  } catch {
    return false;
  }
}

// Generated once per process (never committed); tests build many sandbox apps and RSA generation is slow.
let signingKeyOfProcess: JsonWebKey | undefined;
function developmentSigningKey(): JsonWebKey {
  return (signingKeyOfProcess ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }));
}

/** In-memory storage of the provider's artifacts (codes, sessions, grants), one map per model, with expiry. */
function memoryAdapterFactory(): (name: string) => Adapter {
  const stores = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();
  const now = () => Math.floor(Date.now() / 1000);
  return (name) => {
    const store = stores.get(name) ?? new Map<string, { payload: AdapterPayload; expiresAt: number }>();
    stores.set(name, store);
    const live = (id: string) => {
      const entry = store.get(id);
      if (entry && entry.expiresAt <= now()) store.delete(id);
      return store.get(id)?.payload;
    };
    const findBy = (key: 'uid' | 'userCode', value: string) => {
      for (const [id, e] of store) if (e.payload[key] === value) return live(id);
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        store.set(id, { payload, expiresAt: now() + (expiresIn || 3600) });
      },
      find: async (id) => live(id),
      findByUid: async (uid) => findBy('uid', uid),
      findByUserCode: async (userCode) => findBy('userCode', userCode),
      async consume(id) {
        const payload = live(id);
        if (payload) payload.consumed = now();
      },
      async destroy(id) {
        store.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const [id, e] of store) if (e.payload.grantId === grantId) store.delete(id);
      },
    };
  };
}

/** An opaque, stable subject per person (the national id goes only into the `nin` claim). */
const subjectOf = (nationalId: string) => createHash('sha256').update(`sandbox-sub:${nationalId}`).digest('base64url').slice(0, 22);

export function createOidcProvider(ctx: SandboxContext): { provider: Provider; interactions: express.Router } {
  const issuer = `${ctx.publicUrl}${OIDC_MOUNT}`;
  const signingKey = developmentSigningKey();

  // The broker authenticates every request afresh: no single sign-on from an earlier identification.
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check('fresh_identification', 'every authorization request identifies the person', (kctx: KoaContextWithOIDC) =>
        kctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const configuration: Configuration = {
    clients: [
      {
        client_id: SANDBOX_OIDC_CLIENT.clientId,
        client_secret: SANDBOX_OIDC_CLIENT.clientSecret,
        redirect_uris: ['http://127.0.0.1:3000/onboarding/signicat'],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey as never] },
    adapter: memoryAdapterFactory(),
    // Short lifetimes: a sandbox identification is one round trip.
    ttl: { AuthorizationCode: 60, IdToken: 300, AccessToken: 300, Interaction: 600, Session: 600, Grant: 600 },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true, methods: ['S256'] },
    scopes: ['openid', 'nin', 'profile'],
    claims: { openid: ['sub'], nin: ['nin'], profile: ['given_name', 'family_name'] },
    acrValues: Object.keys(methods).map((m) => `${ACR_PREFIX}${m}`),
    // Put the scopes' claims (nin, the names) in the ID token itself, as the broker does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `${OIDC_MOUNT}/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const persona = findPersona(id);
      if (!persona) return undefined;
      return { accountId: id, claims: () => ({ sub: subjectOf(id), nin: persona.nationalId, given_name: persona.givenName, family_name: persona.surname }) };
    },
    // A first-party client: the scopes it asks for are granted without a consent screen.
    async loadExistingGrant(kctx) {
      const grantId = kctx.oidc.result?.consent?.grantId ?? kctx.oidc.session!.grantIdFor(kctx.oidc.client!.clientId);
      if (grantId) {
        const existing = await kctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new kctx.oidc.provider.Grant({ clientId: kctx.oidc.client!.clientId, accountId: kctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid nin profile');
      await grant.save();
      return grant;
    },
  };

  const provider = new Provider(issuer, configuration);
  const registered = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function (this: InstanceType<typeof provider.Client>, value: string) {
    return registered.call(this, value) || sandboxRedirectAllowed(value);
  };

  const interactions = express.Router();
  const form = express.urlencoded({ extended: false });
  const loginBody = z.object({ nationalId: z.string().min(1) });

  const sendError = (res: Response, status: number, text: string) =>
    res
      .status(status)
      .type('html')
      .send(page('Identification failed', html`<p>${text}</p>`));

  interactions.get('/interaction/:uid', async (req: Request, res: Response) => {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return sendError(res, 400, 'This identification has expired. Start again from the onboarding page.');
    }
    const method = methodOf(details.params.acr_values);
    const listed = personas.filter((p) => (method ? p.country === method.country : p.country !== 'SE'));
    const uid = encodeURIComponent(details.uid);
    res.type('html').send(
      page(
        `${method?.eid ?? 'Identification'} (sandbox)`,
        html`<p>Stand-in for the identification broker. Choose who identifies.</p>
<section aria-labelledby="persona-heading">
<h2 id="persona-heading">Test persons</h2>
<form method="post" action="${OIDC_MOUNT}/interaction/${uid}/login">
<label for="nationalId">Identify as</label>
<select id="nationalId" name="nationalId">
${listed.map((p) => html`<option value="${p.nationalId}">${p.name} (${p.country}, ${p.scenario})</option>`)}
</select>
<button type="submit">Identify</button>
</form>
</section>
<form method="post" action="${OIDC_MOUNT}/interaction/${uid}/abort">
<button type="submit">Cancel</button>
</form>`,
      ),
    );
  });

  interactions.post('/interaction/:uid/login', form, async (req, res) => {
    try {
      const details = await provider.interactionDetails(req, res);
      const body = loginBody.safeParse(req.body);
      const persona = body.success ? findPersona(body.data.nationalId) : undefined;
      const method = methodOf(details.params.acr_values);
      if (!persona || (method && persona.country !== method.country)) return sendError(res, 400, 'Choose one of the listed persons.');
      await provider.interactionFinished(req, res, { login: { accountId: persona.nationalId } }, { mergeWithLastSubmission: false });
    } catch {
      sendError(res, 400, 'This identification has expired. Start again from the onboarding page.');
    }
  });

  interactions.post('/interaction/:uid/abort', form, async (req, res) => {
    try {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled the identification' },
        { mergeWithLastSubmission: false },
      );
    } catch {
      sendError(res, 400, 'This identification has expired. Start again from the onboarding page.');
    }
  });

  return { provider, interactions };
}
