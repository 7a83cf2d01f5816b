// Sign-in: OAuth 2.0 authorization code + PKCE (S256) with the IdP's public client, learnt from
// the gateway's /ui-config.json. Tokens live in this module's memory only: a reload signs in again
// (silently, while the IdP's session lasts). Only the one-time PKCE verifier and state survive the
// redirect, in sessionStorage, and are deleted when the IdP sends the browser back.
const PENDING = "trainyard.pkce";
const tokens = { access: null, refresh: null, idToken: null, expiresAt: 0, claims: null };
let config = null;
let refreshTimer = null;
let refreshing = null;
const listeners = new Set();

export function onSignInChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  listeners.forEach((l) => l(currentUser()));
}

function b64url(bytes) {
  let s = "";
  bytes.forEach((b) => (s += String.fromCharCode(b)));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function random(n = 32) {
  return b64url(crypto.getRandomValues(new Uint8Array(n)));
}

async function challengeOf(verifier) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return b64url(new Uint8Array(digest));
}

function claimsOf(jwt) {
  try {
    const part = jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const json = decodeURIComponent(
      [...atob(part)].map((c) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0")).join(""),
    );
    return JSON.parse(json);
  } catch {
    return {};
  }
}

function redirectUri() {
  return `${location.origin}/callback`;
}

export async function loadConfig() {
  const response = await fetch("/ui-config.json", { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`cannot read /ui-config.json: ${response.status}`);
  config = await response.json();
  return config;
}

export function currentUser() {
  if (!tokens.access) return null;
  const c = tokens.claims;
  return {
    name: c.preferred_username || c.sub,
    subject: c.sub,
    roles: c.realm_access?.roles || [],
    teams: c[config?.teamsClaim || "groups"] || [],
  };
}

export function hasRole(...roles) {
  const user = currentUser();
  return !!user && roles.some((r) => user.roles.includes(r));
}

/** Sends the browser to the IdP; it comes back to /callback. */
export async function signIn(returnTo = location.pathname + location.search) {
  const verifier = random(48);
  const state = random(16);
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo }));
  const params = new URLSearchParams({
    response_type: "code",
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: config.scope || "openid",
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: "S256",
  });
  location.assign(`${config.authorizationEndpoint}?${params}`);
}

/** On /callback: trades the code for tokens; returns where the user was going. */
export async function completeSignIn() {
  const params = new URLSearchParams(location.search);
  const pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
  sessionStorage.removeItem(PENDING);
  if (params.get("error")) {
    throw new Error(`the IdP refused the sign-in: ${params.get("error_description") || params.get("error")}`);
  }
  if (!pending || params.get("state") !== pending.state || !params.get("code")) {
    throw new Error("this sign-in answer does not belong to a sign-in started here; sign in again");
  }
  await tokenRequest({
    grant_type: "authorization_code",
    code: params.get("code"),
    redirect_uri: redirectUri(),
    client_id: config.clientId,
    code_verifier: pending.verifier,
  });
  return pending.returnTo && pending.returnTo.startsWith("/") && !pending.returnTo.startsWith("//")
    ? pending.returnTo
    : "/";
}

async function tokenRequest(form) {
  const response = await fetch(config.tokenEndpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams(form),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok || !body.access_token) {
    throw new Error(`the IdP gave no token: ${body.error_description || body.message || body.error || response.status}`);
  }
  tokens.access = body.access_token;
  tokens.refresh = body.refresh_token || tokens.refresh;
  tokens.idToken = body.id_token || tokens.idToken;
  tokens.claims = claimsOf(body.access_token);
  const lifetime = Number(body.expires_in) || 300;
  tokens.expiresAt = Date.now() + lifetime * 1000;
  clearTimeout(refreshTimer);
  if (tokens.refresh) {
    // Refresh at 70% of the lifetime, before any call can meet an expired token.
    refreshTimer = setTimeout(() => refresh().catch(() => expire()), lifetime * 700);
  }
  changed();
}

function refresh() {
  refreshing ??= tokenRequest({
    grant_type: "refresh_token",
    refresh_token: tokens.refresh,
    client_id: config.clientId,
  }).finally(() => (refreshing = null));
  return refreshing;
}

function expire() {
  tokens.access = tokens.refresh = tokens.idToken = null;
  tokens.claims = null;
  changed();
}

/** The access token for the next call, refreshed first when it is about to expire. */
export async function accessToken() {
  if (tokens.access && tokens.refresh && Date.now() > tokens.expiresAt - 15000) {
    await refresh();
  }
  if (!tokens.access) throw new Error("not signed in");
  return tokens.access;
}

/** Forgets the tokens, and ends the IdP's session where it has an end-session endpoint. */
export function signOut() {
  const idToken = tokens.idToken;
  clearTimeout(refreshTimer);
  expire();
  if (config.endSessionEndpoint) {
    const params = new URLSearchParams({
      client_id: config.clientId,
      post_logout_redirect_uri: `${location.origin}/`,
    });
    if (idToken) params.set("id_token_hint", idToken);
    location.assign(`${config.endSessionEndpoint}?${params}`);
  }
}
