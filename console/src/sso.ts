/**
 * Single sign-on for the console: the authorization-code flow with PKCE (S256) against the issuer
 * state-service names at GET /sso/v1/console, as the public client it names. The access token is
 * then the admin API's bearer, kept like the admin token (this tab's sessionStorage). The verifier
 * and state live in sessionStorage only between the redirect and its return.
 */
export interface SsoSettings {
  enabled: boolean;
  issuer?: string;
  client_id?: string;
  scopes?: string;
}

const PENDING_KEY = 'route-console.sso-pending';

interface Pending {
  verifier: string;
  state: string;
  redirectUri: string;
  tokenEndpoint: string;
}

export async function ssoSettings(): Promise<SsoSettings> {
  try {
    const response = await fetch('/sso/v1/console', { headers: { Accept: 'application/json' } });
    if (!response.ok) return { enabled: false };
    return (await response.json()) as SsoSettings;
  } catch {
    return { enabled: false };
  }
}

function randomText(bytes: number): string {
  const data = new Uint8Array(bytes);
  crypto.getRandomValues(data);
  return base64Url(data);
}

function base64Url(data: Uint8Array): string {
  let text = '';
  data.forEach((b) => (text += String.fromCharCode(b)));
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

async function discovery(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`the issuer answered ${response.status}`);
  return response.json();
}

/** The console's address without query or fragment: the redirect URI. */
function redirectUri(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

/** Sends the browser to the issuer's sign-in page. */
export async function startSsoSignIn(settings: SsoSettings): Promise<void> {
  if (!settings.enabled || !settings.issuer || !settings.client_id) throw new Error('single sign-on is off');
  const endpoints = await discovery(settings.issuer);
  const pending: Pending = {
    verifier: randomText(48),
    state: randomText(24),
    redirectUri: redirectUri(),
    tokenEndpoint: endpoints.token_endpoint,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: settings.client_id,
    redirect_uri: pending.redirectUri,
    scope: settings.scopes ?? 'openid',
    state: pending.state,
    code_challenge: await pkceChallenge(pending.verifier),
    code_challenge_method: 'S256',
  });
  window.location.assign(`${endpoints.authorization_endpoint}?${query}`);
}

/**
 * When the page is the issuer's redirect back (code and state in the query), trades the code for
 * the access token and cleans the URL; null when the page is not such a return.
 */
export async function completeSsoSignIn(settings: SsoSettings): Promise<string | null> {
  const params = new URLSearchParams(window.location.search);
  const code = params.get('code');
  const state = params.get('state');
  const error = params.get('error');
  if (!code && !error) return null;
  const stored = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.hash}`);
  if (error) throw new Error(params.get('error_description') ?? error);
  if (!stored) throw new Error('no sign-in was started in this tab');
  const pending = JSON.parse(stored) as Pending;
  if (state !== pending.state) throw new Error('the sign-in answer does not match the request (state)');
  const response = await fetch(pending.tokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: pending.redirectUri,
      client_id: settings.client_id ?? '',
      code_verifier: pending.verifier,
    }),
  });
  if (!response.ok) throw new Error(`the issuer refused the code (${response.status})`);
  const tokens = (await response.json()) as { access_token?: string };
  if (!tokens.access_token) throw new Error('the issuer sent no access token');
  return tokens.access_token;
}

/** The caller, from GET /admin/v1/me. */
export interface Me {
  subject: string;
  via: string;
  role: string;
  team_id?: string | null;
  allowed: string[];
}

/** Whether the caller's role reaches `METHOD /admin/v1<path>` (path as a template, e.g. /groups/{id}). */
export function may(me: Me | null, method: string, path: string): boolean {
  return me !== null && me.allowed.includes(`${method} /admin/v1${path}`);
}
