/**
 * The dashboard's one way to the API: @mdc/client, a plain dependency (types
 * generated from the gateway's OpenAPI document, its transport with timeouts
 * and retries, MdcError for every failure). Pages call `api().call(verb,
 * path, init)` for any route and `api().paginate(...)` for lists. The
 * gateway serves the dashboard, so the API is this page's own origin.
 */
import { MdcClient, MdcError } from "@mdc/client";
import { type Session, type User, clearSession, loadSession, saveSession } from "./session";

let session: Session | undefined = loadSession();
let client: MdcClient | undefined;
/** Why the last session ended, when it was not the person's own sign-out; the sign-in page says it once. */
let endReason: string | undefined;
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

/** A client of this origin. With `endSessionOn401`, a 401 any of its calls gets means the token was revoked
 * or refreshed meanwhile: the session ends (if it is still the one this client was made for) and the app
 * shows the sign-in page. */
function newClient(token: string | undefined, endSessionOn401: boolean): MdcClient {
  const created: MdcClient = new MdcClient({
    baseUrl: window.location.origin,
    token,
    // Outcomes of a long run are computed per request: allow more than the
    // client's default 10 s before calling it a timeout.
    timeoutMs: 60_000,
    onError: (error) => {
      if (endSessionOn401 && error.httpStatus === 401 && client === created) {
        signOut("Your session ended because the token stopped working: an admin refreshed or revoked it. Sign in with your current token.");
      }
    },
  });
  return created;
}

/** The client of the signed-in developer. */
export function api(): MdcClient {
  if (!session) throw new MdcError("not signed in", { httpStatus: 401, code: "UNAUTHENTICATED" });
  client ??= newClient(session.token, true);
  return client;
}

/** Every item of a list (`api().paginate(...)`), all pages read. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Signs in with a developer token (the Sign In operation) and keeps it for this tab. A wrong token typed
 * here says nothing about the current session, so its 401 ends none. */
export async function signIn(token: string): Promise<User> {
  const trimmed = token.trim();
  const user = await newClient(undefined, false).call("POST", "/v1/dashboard/auth/sign-in", { body: { developerToken: trimmed } });
  const signedIn: User = { id: user.id ?? "", username: user.username ?? "", role: user.role ?? "developer" };
  session = { token: trimmed, user: signedIn };
  endReason = undefined;
  client = undefined;
  saveSession(session);
  notify();
  return signedIn;
}

/** Ends the session; `reason` (for people) is shown on the sign-in page when the person did not ask for it. */
export function signOut(reason?: string): void {
  endReason = reason;
  session = undefined;
  client = undefined;
  clearSession();
  notify();
}

/** Why the session ended, if it ended by itself; undefined after a sign-out the person asked for. */
export function sessionEndReason(): string | undefined {
  return endReason;
}
