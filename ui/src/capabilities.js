// What this gateway's API serves, from its public /openapi.json: pages use calls newer gateways
// add (issue 17's) only where they are described, so an older gateway shows "not yet" rather than
// failing requests.
import { useEffect, useState } from "preact/hooks";

let paths = null;

async function load() {
  const response = await fetch("/openapi.json", { headers: { Accept: "application/json" } });
  const doc = response.ok ? await response.json() : { paths: {} };
  return new Set(Object.keys(doc.paths || {}));
}

export function useServedPaths() {
  const [served, setServed] = useState(new Set());
  useEffect(() => {
    paths ??= load().catch(() => new Set());
    paths.then(setServed);
  }, []);
  return served;
}
