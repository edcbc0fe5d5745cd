import type { ComponentType, VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ErrorNote, Loading } from "./Status";

/**
 * A component whose code is loaded the first time it is shown (a separate
 * chunk), so the first page's JavaScript stays small.
 */
export function lazy<P>(load: () => Promise<ComponentType<P>>, what: string): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  return function Lazy(props: P): VNode {
    const [component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    const [error, setError] = useState<unknown>(undefined);
    useEffect(() => {
      if (component) return;
      load().then(
        (c) => {
          loaded = c;
          setComponent(() => c);
        },
        setError,
      );
    }, []);
    if (error !== undefined) return <ErrorNote error={error} />;
    if (!component) return <Loading what={what} />;
    const C = component as ComponentType<P & object>;
    return <C {...(props as P & object)} />;
  };
}
