/**
 * The signed-in developer: the token and who it belongs to, kept in
 * sessionStorage, so for this browser tab only (a new tab signs in again, a
 * closed tab forgets the token).
 */
export interface User {
  id: string;
  username: string;
  role: string;
}

const TOKEN_KEY = "mdc.token";
const USER_KEY = "mdc.user";

export interface Session {
  token: string;
  user: User;
}

export function loadSession(): Session | undefined {
  try {
    const token = sessionStorage.getItem(TOKEN_KEY);
    const user = JSON.parse(sessionStorage.getItem(USER_KEY) ?? "null") as User | null;
    return token && user && typeof user.username === "string" ? { token, user } : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(TOKEN_KEY, session.token);
  sessionStorage.setItem(USER_KEY, JSON.stringify(session.user));
}

export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

export function isAdmin(user: User | undefined): boolean {
  return user?.role === "admin";
}
