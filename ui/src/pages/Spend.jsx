import { useEffect, useMemo, useState } from "preact/hooks";
import { api, query } from "../api.js";
import { ChartCanvas, PALETTE } from "../charts.jsx";
import { ErrorNote } from "../hooks.jsx";
import { currentUser } from "../auth.js";
import { useServedPaths } from "../capabilities.js";
import { usd } from "../format.js";

function lastMonths(n) {
  const now = new Date();
  const months = [];
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

/** Issue 17's GET /v1/spend: per team and backend over time, budgets, the managed comparison. */
function SpendSeries({ team }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api(`/v1/spend${query({ team, granularity: "day" })}`).then(setData, setError);
  }, [team]);
  const chart = useMemo(() => {
    if (!data) return null;
    const labels = [...new Set(data.series.flatMap((s) => s.points.map((p) => p.start.slice(0, 10))))].sort();
    const datasets = data.series.map((s, i) => ({
      type: "bar",
      label: `${s.team} · ${s.backend}`,
      stack: s.team,
      data: labels.map((l) => s.points.find((p) => p.start.startsWith(l))?.usd ?? 0),
      backgroundColor: PALETTE[i % PALETTE.length],
    }));
    const days = labels.length || 30;
    (data.budgets || []).forEach((b, i) =>
      datasets.push({
        type: "line",
        label: `${b.team} budget per day`,
        data: labels.map(() => b.monthlyUsd / days),
        borderColor: PALETTE[(i + 3) % PALETTE.length],
        borderDash: [6, 4],
        pointRadius: 0,
      }),
    );
    return { type: "bar", data: { labels, datasets }, options: { responsive: true, maintainAspectRatio: false, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: "USD" } } } } };
  }, [data]);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p>Loading…</p>;
  return (
    <>
      <ChartCanvas id="spend-chart" config={chart} label="Spend per day, per team and backend, with budget lines" />
      <h2>What the same jobs would have cost on the managed platforms</h2>
      <table id="comparison">
        <thead>
          <tr>
            <th scope="col">Team</th>
            <th scope="col">Jobs</th>
            <th scope="col">Actual</th>
            <th scope="col">Managed platform (jobs quoted): cost</th>
          </tr>
        </thead>
        <tbody>
          {(data.comparison || []).map((c) => (
            <tr>
              <th scope="row">{c.team}</th>
              <td>{c.jobs}</td>
              <td>{usd(c.actualUsd)}</td>
              <td>{c.managed.map((m) => `${m.backend} (${m.jobsQuoted}): ${usd(m.usd)}`).join("; ") || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Today's API: GET /v1/teams/{team}/spend per month, the last six, against the budget. */
function MonthlySpend({ team }) {
  const [rows, setRows] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setRows(null);
    setError(null);
    Promise.all(lastMonths(6).map((month) => api(`/v1/teams/${encodeURIComponent(team)}/spend${query({ month })}`))).then(setRows, setError);
  }, [team]);
  const chart = useMemo(() => {
    if (!rows) return null;
    const datasets = [
      { type: "bar", label: "accrued USD", stack: "s", data: rows.map((r) => Number(r.accruedUsd)), backgroundColor: PALETTE[0] },
      { type: "bar", label: "committed USD (live jobs)", stack: "s", data: rows.map((r) => Number(r.committedUsd)), backgroundColor: PALETTE[1] },
    ];
    if (rows.some((r) => r.budgetUsd != null)) {
      datasets.push({ type: "line", label: "monthly budget", data: rows.map((r) => (r.budgetUsd == null ? null : Number(r.budgetUsd))), borderColor: PALETTE[3], borderDash: [6, 4], pointRadius: 0 });
    }
    return { type: "bar", data: { labels: rows.map((r) => r.month), datasets }, options: { responsive: true, maintainAspectRatio: false, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: "USD" } } } } };
  }, [rows]);
  if (error) return <ErrorNote error={error} />;
  if (!rows) return <p>Loading…</p>;
  return (
    <>
      <ChartCanvas id="spend-chart" config={chart} label={`Spend of team ${team} per month, with its budget`} />
      <table id="spend-months">
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Accrued</th>
            <th scope="col">Committed</th>
            <th scope="col">Total</th>
            <th scope="col">Budget</th>
            <th scope="col">Remaining</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              <th scope="row">{r.month}</th>
              <td>{usd(r.accruedUsd)}</td>
              <td>{usd(r.committedUsd)}</td>
              <td>{usd(r.totalUsd)}</td>
              <td>{usd(r.budgetUsd)}</td>
              <td>{usd(r.remainingUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">Per backend, per day and the managed-platform comparison come with a gateway that serves GET /v1/spend.</p>
    </>
  );
}

export function SpendPage() {
  const served = useServedPaths();
  const teams = currentUser().teams.map((t) => t.replace(/^\//, ""));
  const [team, setTeam] = useState(teams[0] || "");
  const [draft, setDraft] = useState(team);
  const modern = served.has("/v1/spend");
  return (
    <section>
      <h1>Spend</h1>
      <form
        class="inline"
        aria-label="Team"
        onSubmit={(e) => {
          e.preventDefault();
          setTeam(draft.trim());
        }}
      >
        <label>
          Team
          <input id="spend-team" list="my-teams" value={draft} onInput={(e) => setDraft(e.target.value)} />
          <datalist id="my-teams">
            {teams.map((t) => (
              <option value={t} />
            ))}
          </datalist>
        </label>
        <button type="submit">Show</button>
      </form>
      {served.size === 0 ? <p>Loading…</p> : modern ? <SpendSeries team={team} /> : team ? <MonthlySpend team={team} /> : <p class="muted">Name a team.</p>}
    </section>
  );
}
