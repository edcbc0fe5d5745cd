import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { MdcError } from "@mdc/client";
import { sessionEndReason, signIn } from "../api";
import { Field, FormMessage } from "../components/Field";
import { type FormErrors, NO_ERRORS, formErrors } from "../formerrors";
import { navigate } from "../router";

/** Sign-in with a developer token; the token stays in this tab only. */
export function SignInPage({ next }: { next?: string | undefined }): VNode {
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [reason] = useState(sessionEndReason);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      await signIn(token);
      navigate(next ?? "/runs", { replace: true });
    } catch (error) {
      // A wrong token is a 401 naming no field: it is about the token all the same.
      if (error instanceof MdcError && error.httpStatus === 401) {
        setErrors({ fields: { developerToken: "This token is unknown or was revoked. Check it (tokens start with mdc_) and try again." } });
      } else if (error instanceof MdcError && error.httpStatus === 429 && error.reason === "SIGN_IN_THROTTLED") {
        setErrors({ fields: { developerToken: "Too many failed sign-ins from this address: wait a minute, then try again." } });
      } else {
        const found = formErrors(error, ["developerToken"]);
        setErrors(found.message && !Object.keys(found.fields).length ? { fields: { developerToken: found.message } } : found);
      }
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="main">
      <form onSubmit={submit} class="card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">mdc dashboard</h1>
        {reason && <p class="form-error" role="alert" data-testid="session-ended">{reason}</p>}
        <p class="intro">Sign in with your developer token. It is kept in this browser tab only and forgotten when the tab closes.</p>
        <Field id="developer-token" label="Developer token" error={errors.fields["developerToken"]}>
          {(input) => (
            <input
              {...input}
              name="developerToken"
              type="password"
              autoComplete="off"
              spellcheck={false}
              placeholder="mdc_…"
              required
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormMessage message={errors.message} />
        <button type="submit" class="primary" disabled={busy}>{busy ? "Signing in…" : "Sign in"}</button>
      </form>
    </main>
  );
}
