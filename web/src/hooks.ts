import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export type Async<T> =
  | { state: "loading"; data?: T | undefined; error?: undefined }
  | { state: "ready"; data: T; error?: undefined }
  | { state: "error"; error: unknown; data?: T | undefined };

/**
 * Runs load whenever deps change and gives its state; an answer that arrives
 * after deps changed again is dropped, so a slow request cannot overwrite a
 * newer one. While reloading, the previous data stays shown.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Async<T> & { reload: () => void } {
  const [result, setResult] = useState<Async<T>>({ state: "loading" });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    setResult((prev) => ({ state: "loading", data: prev.data }));
    load().then(
      (data) => ticket === latest.current && setResult({ state: "ready", data }),
      (error: unknown) => ticket === latest.current && setResult((prev) => ({ state: "error", error, data: prev.data })),
    );
    // deps (the caller's) decide when load runs again, not load's identity.
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...result, reload };
}
