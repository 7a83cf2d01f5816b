import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, query, streamLines } from "../api.js";
import { ChartCanvas, PALETTE } from "../charts.jsx";
import { ErrorNote, useApi } from "../hooks.jsx";
import { duration, TERMINAL, usd, when } from "../format.js";
import { navigate } from "../router.js";

function DecisionChart({ decision }) {
  const candidates = decision.candidates || [];
  const labels = candidates.map((c) => `${c.backendId}${c.spot ? " (spot)" : ""}${c.chosen ? " ✓ chosen" : ""}`);
  const config = useMemo(
    () => ({
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            label: "hourly USD",
            data: candidates.map((c) => (c.hourlyUsd == null ? null : Number(c.hourlyUsd))),
            backgroundColor: candidates.map((c) => (c.chosen ? "#059669" : c.rejected ? "#9ca3af" : "#2563eb")),
          },
          {
            label: "estimated total USD",
            data: candidates.map((c) => {
              const total = c.estimatedTotalUsd ?? c.estimatedUsd;
              return total == null ? null : Number(total);
            }),
            backgroundColor: candidates.map((c) => (c.chosen ? "#6ee7b7" : c.rejected ? "#d1d5db" : "#93c5fd")),
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, title: { display: true, text: "USD" } } },
      },
    }),
    [decision],
  );
  return (
    <>
      <ChartCanvas id="decision-chart" config={config} label={`Price of each of ${candidates.length} candidates; ${decision.chosen || "none"} chosen`} />
      <table id="candidates">
        <caption>
          Policy {decision.policy || "—"}
          {decision.rankedBy ? `, ranked by ${decision.rankedBy}` : ""}; prices as of {decision.pricesAsOf || "—"}
          {decision.choice ? `. ${decision.choice}` : ""}
        </caption>
        <thead>
          <tr>
            <th scope="col">Backend</th>
            <th scope="col">Region</th>
            <th scope="col">$/h</th>
            <th scope="col">Estimated total</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <tr class={c.chosen ? "chosen" : c.rejected ? "rejected" : ""}>
              <th scope="row">
                {c.backendId}
                {c.spot ? " (spot)" : ""} <small class="muted">{c.kind}</small>
              </th>
              <td>{c.region || "—"}</td>
              <td>
                {usd(c.hourlyUsd, 4)}
                {c.estimated ? " (estimated)" : ""}
              </td>
              <td>{usd(c.estimatedTotalUsd ?? c.estimatedUsd)}</td>
              <td>{c.chosen ? <strong>chosen</strong> : c.rejected ? `rejected: ${c.rejected}` : "offer"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Timeline({ job, events }) {
  return (
    <ol class="timeline" id="timeline">
      {events.map((e) => (
        <li data-type={e.type}>
          <time datetime={e.at}>{when(e.at)}</time> <strong>{e.type}</strong> {e.message}
        </li>
      ))}
      {!events.length && <li class="muted">No events yet.</li>}
      <li class="muted">
        Attempt {job.attempt}
        {job.restarts ? `, ${job.restarts} replica restarts` : ""}
      </li>
    </ol>
  );
}

function Logs({ job }) {
  const [lines, setLines] = useState([]);
  const [follow, setFollow] = useState(!TERMINAL.has(job.state));
  const [replica, setReplica] = useState("");
  const [applied, setApplied] = useState("");
  const [status, setStatus] = useState("");
  const [error, setError] = useState(null);
  const box = useRef(null);
  useEffect(() => {
    const controller = new AbortController();
    setLines([]);
    setError(null);
    setStatus(follow ? "following…" : "loading…");
    const buffer = [];
    let timer = null;
    const flush = () => {
      timer = null;
      setLines((l) => [...l, ...buffer.splice(0)].slice(-5000));
    };
    streamLines(
      `/v1/jobs/${job.id}/logs${query({ follow: follow ? "true" : "", replica: applied })}`,
      (line) => {
        buffer.push(line);
        timer ??= setTimeout(flush, 100);
      },
      controller.signal,
    )
      .then(async () => {
        flush();
        if (!follow) {
          setStatus("");
          return;
        }
        // The follow ended with the job: read the whole log once more, so that lines the
        // replicas wrote while the job was ending are shown too.
        const all = [];
        await streamLines(`/v1/jobs/${job.id}/logs${query({ replica: applied })}`, (line) => all.push(line), controller.signal);
        clearTimeout(timer);
        buffer.length = 0;
        setLines(all.slice(-5000));
        setStatus("the job ended; the log is complete");
      })
      .catch((e) => {
        if (e.name !== "AbortError") {
          setError(e);
          setStatus("");
        }
      });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [job.id, follow, applied]);
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines]);
  return (
    <>
      <form
        class="inline"
        aria-label="Log options"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(replica);
        }}
      >
        <label>
          <input type="checkbox" id="log-follow" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
        <label>
          Replica
          <input id="log-replica" value={replica} placeholder="e.g. worker-0" onInput={(e) => setReplica(e.target.value)} />
        </label>
        <button type="submit">Show</button>
        <span class="muted" id="log-status" aria-live="polite">
          {status}
        </span>
      </form>
      <ErrorNote error={error} />
      <pre class="logs" id="logs" ref={box} tabindex="0" aria-label="Job log">
        {lines.join("\n")}
      </pre>
    </>
  );
}

function metricChart(series, byEpoch) {
  return {
    type: "line",
    data: {
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.points.map((p) => ({ x: Number(p.epoch ?? p.step ?? 0), y: p.value })),
        borderColor: PALETTE[i % PALETTE.length],
        backgroundColor: PALETTE[i % PALETTE.length],
        pointRadius: 2,
        borderDash: i ? [6, 3 + i] : [],
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      scales: { x: { type: "linear", title: { display: true, text: byEpoch ? "epoch" : "step" } } },
    },
  };
}

export function MetricCharts({ runs, idPrefix }) {
  // runs: [{label, metrics: [MetricSeries]}]; one chart per metric name, every run overlaid.
  const names = [...new Set(runs.flatMap((r) => r.metrics.map((m) => m.name)))];
  const configs = useMemo(
    () =>
      names.map((name) => {
        const series = runs
          .map((r) => ({ label: r.label, points: r.metrics.find((m) => m.name === name)?.points || [] }))
          .filter((s) => s.points.length);
        const byEpoch = series.every((s) => s.points.every((p) => p.epoch != null));
        return { name, config: metricChart(series, byEpoch) };
      }),
    [JSON.stringify(runs)],
  );
  if (!names.length) return <p class="muted">No model metrics reported.</p>;
  return configs.map(({ name, config }) => (
    <figure class="metric">
      <figcaption>{name}</figcaption>
      <ChartCanvas id={`${idPrefix}-${name}`} config={config} label={`${name} per epoch`} />
    </figure>
  ));
}

export function JobPage({ id }) {
  const job = useApi(`/v1/jobs/${id}`, 2000);
  const live = job.data && !TERMINAL.has(job.data.state);
  const events = useApi(`/v1/jobs/${id}/events`, live ? 2000 : 0);
  const decision = useApi(`/v1/jobs/${id}/decision`);
  const metrics = useApi(`/v1/jobs/${id}/metrics`, live ? 5000 : 0);
  const [compareWith, setCompareWith] = useState("");
  const [cancelError, setCancelError] = useState(null);
  if (!job.data) return job.error ? <ErrorNote error={job.error} /> : <p>Loading…</p>;
  const j = job.data;
  return (
    <section>
      <h1>
        {j.name} <span class={`state state-${j.state.toLowerCase()}`} id="job-state">{j.state}</span>
      </h1>
      <dl class="facts">
        <dt>Id</dt>
        <dd>{j.id}</dd>
        <dt>Team</dt>
        <dd>{j.team}</dd>
        <dt>Owner</dt>
        <dd>{j.owner}</dd>
        <dt>Backend</dt>
        <dd>{j.backend || "—"}</dd>
        <dt>Hourly / estimated</dt>
        <dd>
          {usd(j.hourlyUsd, 4)} / {usd(j.estimatedUsd)}
        </dd>
        <dt>Created / started / ended</dt>
        <dd>
          {when(j.createdAt)} / {when(j.startedAt)} / {when(j.endedAt)}
        </dd>
        <dt>Ran</dt>
        <dd>{duration(j.durationSeconds)}</dd>
        {j.algorithm && (
          <>
            <dt>Algorithm</dt>
            <dd>{j.algorithm}</dd>
          </>
        )}
        {j.reason && (
          <>
            <dt>Reason</dt>
            <dd>{j.reason}</dd>
          </>
        )}
      </dl>
      {!TERMINAL.has(j.state) && j.state !== "CANCELLING" && (
        <button
          type="button"
          id="cancel-job"
          onClick={async () => {
            try {
              await api(`/v1/jobs/${j.id}`, { method: "DELETE" });
              job.reload();
            } catch (e) {
              setCancelError(e);
            }
          }}
        >
          Cancel job
        </button>
      )}
      <ErrorNote error={cancelError} />
      <h2>Timeline</h2>
      <ErrorNote error={events.error} />
      <Timeline job={j} events={events.data?.events || []} />
      <h2>Routing decision</h2>
      <ErrorNote error={decision.error} />
      {decision.data && <DecisionChart decision={decision.data} />}
      <h2>Logs</h2>
      <Logs job={j} />
      <h2>Model metrics</h2>
      <ErrorNote error={metrics.error} />
      {metrics.data && <MetricCharts idPrefix="metric" runs={[{ label: j.name, metrics: metrics.data.metrics }]} />}
      <form
        class="inline"
        aria-label="Compare runs"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`/compare${query({ jobs: [j.id, ...compareWith.split(/[\s,]+/)].filter(Boolean).join(",") })}`);
        }}
      >
        <label>
          Compare with job ids
          <input id="compare-with" value={compareWith} placeholder="id, id…" onInput={(e) => setCompareWith(e.target.value)} />
        </label>
        <button type="submit" id="compare">
          Compare
        </button>
      </form>
    </section>
  );
}
