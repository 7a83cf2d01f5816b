import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api.js";

/** Loads `path` (again whenever it changes, and every `everyMs` when given). */
export function useApi(path, everyMs) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const alive = useRef(true);
  const load = useCallback(async () => {
    if (!path) return;
    try {
      const data = await api(path);
      if (alive.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (alive.current) setState((s) => ({ data: s.data, error, loading: false }));
    }
  }, [path]);
  useEffect(() => {
    alive.current = true;
    setState((s) => ({ ...s, loading: true }));
    load();
    const timer = everyMs ? setInterval(load, everyMs) : null;
    return () => {
      alive.current = false;
      clearInterval(timer);
    };
  }, [load, everyMs]);
  return { ...state, reload: load };
}

export function ErrorNote({ error }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error.describe ? error.describe() : error.message}
    </p>
  );
}
