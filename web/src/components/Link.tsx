import type { ComponentChildren, VNode } from "preact";
import { navigate } from "../router";

/**
 * A real link (it opens in a new tab, copies, shows its address) that
 * navigates without a page load when clicked plainly.
 */
export function Link(props: { to: string; children: ComponentChildren; class?: string; current?: boolean; testId?: string }): VNode {
  const click = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={props.to} class={props.class} onClick={click} aria-current={props.current ? "page" : undefined} data-testid={props.testId}>
      {props.children}
    </a>
  );
}
