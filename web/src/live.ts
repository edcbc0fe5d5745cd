/**
 * Live mode: a watch stream of the API (docs/api.md section 10) held open
 * while a page shows live data. The client's EventStream reads the
 * gateway's stream route through fetch (browsers' EventSource cannot send
 * the Authorization header), and when the connection drops (a server
 * restarting, a network change, a silent connection: no heartbeat within
 * its idle timeout) it opens the stream again from the last cursor it
 * received, so no record is missed or repeated. A failure it cannot repair
 * (the token revoked, a bad parameter) ends the watch with an error.
 */
import type { EventStream, StreamEvent } from "@mdc/client";
import { useEffect, useRef, useState } from "preact/hooks";

export type LiveStatus = "off" | "connecting" | "live" | "failed";

export interface LiveState {
  status: LiveStatus;
  error?: unknown;
  /** When the last event arrived. */
  lastEvent?: Date | undefined;
}

/**
 * Holds a watch open while `open` is given (it opens the stream, e.g.
 * `() => api().watchQuotes([symbol])`), calling `onLive` once it is live
 * (whatever commits afterwards reaches it: load the data then) and
 * `onEvent` with each record. The watch closes when `open` becomes
 * undefined, when deps change, and when the component goes away.
 */
export function useWatch(
  open: (() => Promise<EventStream<StreamEvent>>) | undefined,
  onEvent: (event: StreamEvent) => void,
  deps: unknown[],
  onLive?: () => void,
): LiveState {
  const [state, setState] = useState<LiveState>({ status: "off" });
  const handlers = useRef({ onEvent, onLive });
  handlers.current = { onEvent, onLive };
  useEffect(() => {
    if (!open) {
      setState({ status: "off" });
      return;
    }
    let closed = false;
    let stream: EventStream<StreamEvent> | undefined;
    setState({ status: "connecting" });
    (async () => {
      try {
        stream = await open();
        if (closed) {
          await stream.close();
          return;
        }
        setState({ status: "live" });
        handlers.current.onLive?.();
        for await (const event of stream) {
          if (closed) break;
          setState({ status: "live", lastEvent: new Date() });
          handlers.current.onEvent(event);
        }
      } catch (error) {
        if (!closed) setState({ status: "failed", error });
      }
    })();
    return () => {
      closed = true;
      void stream?.close();
    };
  }, [Boolean(open), ...deps]);
  return state;
}
