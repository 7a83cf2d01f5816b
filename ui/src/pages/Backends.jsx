import { ErrorNote, useApi } from "../hooks.jsx";

function capacity(c) {
  if (!c) return "—";
  return ["gpus", "cpus", "jobs"]
    .filter((k) => c[k])
    .map((k) => `${k} ${c[k].used}${c[k].limit == null ? "" : ` / ${c[k].limit}`}`)
    .join(", ");
}

function age(seconds) {
  if (seconds == null) return "unknown";
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  return d ? `${d}d ${h}h` : `${h}h ${Math.floor((seconds % 3600) / 60)}m`;
}

/** Health, load, capacity and catalog age per backend. */
export function BackendsPage() {
  const { data, error } = useApi("/v1/backends", 5000);
  const backends = data?.backends || [];
  return (
    <section>
      <h1>Backends</h1>
      <ErrorNote error={error} />
      <table id="backends">
        <thead>
          <tr>
            <th scope="col">Backend</th>
            <th scope="col">Kind</th>
            <th scope="col">Region</th>
            <th scope="col">Health</th>
            <th scope="col">Running / queued</th>
            <th scope="col">Capacity used</th>
            <th scope="col">Price catalog</th>
          </tr>
        </thead>
        <tbody>
          {backends.map((b) => {
            const { healthy, reason } = b.health;
            return (
              <tr data-backend={b.id}>
                <th scope="row">{b.id}</th>
                <td>{b.kind}</td>
                <td>{b.region || "—"}</td>
                <td>
                  <span class={healthy ? "ok" : "bad"}>{healthy ? "healthy" : "unhealthy"}</span>
                  {reason && <small class="muted"> {reason}</small>}
                </td>
                <td>{`${b.jobs.running} / ${b.jobs.queued}`}</td>
                <td>{capacity(b.capacity)}</td>
                <td>{`${b.catalog.source}, ${age(b.catalog.ageSeconds)} old`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
