// History-API routing: the gateway serves index.html for each of these paths.
import { useEffect, useState } from "preact/hooks";

const listeners = new Set();

export function navigate(to, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  listeners.forEach((l) => l());
}

addEventListener("popstate", () => listeners.forEach((l) => l()));

/** Same-origin links go through the router rather than reloading the page (and the tokens). */
addEventListener("click", (event) => {
  const a = event.target.closest?.("a[href]");
  if (!a || a.target || a.hasAttribute("download") || event.defaultPrevented) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/v1/")) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

export function useLocation() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => listeners.delete(l);
  }, []);
  return { path: location.pathname, params: new URLSearchParams(location.search) };
}
