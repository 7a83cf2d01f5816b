import { useEffect, useMemo, useState } from "preact/hooks";
import { api, query } from "../api.js";
import { ChartCanvas, PALETTE } from "../charts.jsx";
import { ErrorNote } from "../hooks.jsx";
import { currentUser } from "../auth.js";
import { usd } from "../format.js";

/** GET /v1/spend: per team and backend over time, budgets, the managed comparison. */
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
    // A monthly budget drawn per day: the month's budget over its number of days.
    const first = new Date(labels[0] || data.since);
    const days = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
    (data.budgets || []).forEach((b, i) =>
      datasets.push({
        type: "line",
        label: `${b.team} budget per day (monthly ÷ ${days})`,
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

export function SpendPage() {
  const teams = currentUser().teams.map((t) => t.replace(/^\//, ""));
  const [team, setTeam] = useState(teams[0] || "");
  const [draft, setDraft] = useState(team);
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
      {team ? <SpendSeries team={team} /> : <p class="muted">Name a team.</p>}
    </section>
  );
}
