/**
 * The dashboard's one way to the API: @mdc/client (types generated from the
 * gateway's OpenAPI document, calls through openapi-fetch, MdcError for every
 * failure, retries of 503s). The gateway serves the dashboard, so the API is
 * this page's own origin.
 */
import { MdcClient, MdcError, errorFromResponse } from "@mdc/client";
import { type Session, type User, clearSession, loadSession, saveSession } from "./session";

let session: Session | undefined = loadSession();
let client: MdcClient | undefined;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Calls listener whenever the session changes (sign-in, sign-out, expiry). */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentUser(): User | undefined {
  return session?.user;
}

function newClient(token: string | undefined): MdcClient {
  // Outcomes of a long run are computed per request: allow more than the
  // client's default 10 s before calling it a timeout.
  return new MdcClient({ baseUrl: window.location.origin, token, timeoutMs: 60_000 });
}

/** The client of the signed-in developer. */
export function api(): MdcClient {
  if (!session) throw new MdcError("not signed in", { httpStatus: 401, code: "UNAUTHENTICATED" });
  client ??= newClient(session.token);
  return client;
}

/** Signs in with a developer token (the Sign In operation) and keeps it for this tab. */
export async function signIn(token: string): Promise<User> {
  const trimmed = token.trim();
  const user = await call(newClient(undefined).api.POST("/v1/dashboard/auth/sign-in", { body: { developerToken: trimmed } }), {
    endSessionOn401: false, // a wrong token typed here says nothing about the current session
  });
  const signedIn: User = { id: user.id ?? "", username: user.username ?? "", role: user.role ?? "developer" };
  session = { token: trimmed, user: signedIn };
  client = undefined;
  saveSession(session);
  notify();
  return signedIn;
}

export function signOut(): void {
  session = undefined;
  client = undefined;
  clearSession();
  notify();
}

/**
 * The data of an openapi-fetch call, or its error as MdcError. A 401 means
 * the token was revoked or refreshed meanwhile: the session ends and the app
 * shows the sign-in page.
 */
export async function call<D>(
  pending: Promise<{ data?: D; error?: unknown; response: Response }>,
  opts: { endSessionOn401?: boolean } = {},
): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    const failure = errorFromResponse(response, error);
    if (response.status === 401 && session && opts.endSessionOn401 !== false) signOut();
    throw failure;
  }
  return data as D;
}
