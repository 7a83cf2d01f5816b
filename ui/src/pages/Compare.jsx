import { useEffect, useState } from "preact/hooks";
import { api, query } from "../api.js";
import { ErrorNote } from "../hooks.jsx";
import { MetricCharts } from "./Job.jsx";

/** Two or more runs' metrics overlaid, one chart per metric name. */
export function ComparePage({ params }) {
  const ids = (params.get("jobs") || "").split(",").filter(Boolean);
  const [runs, setRuns] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    (async () => {
      try {
        const names = new Set();
        const loaded = await Promise.all(ids.map((id) => api(`/v1/jobs/${id}/metrics`)));
        loaded.forEach((m) => m.metrics.forEach((s) => names.add(s.name)));
        // The server's comparison per metric: the runs the caller may read, side by side.
        const byRun = new Map(ids.map((id) => [id, { label: id, metrics: [] }]));
        for (const name of names) {
          const c = await api(`/v1/metrics/compare${query({ jobs: ids.join(","), name })}`);
          c.runs.forEach((r) => {
            const run = byRun.get(r.jobId);
            run.label = `${r.name} (${r.jobId.slice(-6)})`;
            run.metrics.push(r.series);
          });
        }
        setRuns([...byRun.values()]);
      } catch (e) {
        setError(e);
      }
    })();
  }, [params.get("jobs")]);
  return (
    <section>
      <h1>Compare runs</h1>
      <p class="muted">{ids.length} runs</p>
      <ErrorNote error={error} />
      {runs && <MetricCharts idPrefix="compare" runs={runs} />}
    </section>
  );
}
