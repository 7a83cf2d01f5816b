import { useState } from "preact/hooks";
import { ErrorNote, useApi } from "../hooks.jsx";
import { when } from "../format.js";

function Detail({ name }) {
  const { data, error } = useApi(`/v1/algorithms/${name}`);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p>Loading…</p>;
  return (
    <div class="detail">
      <p>{data.description}</p>
      {(data.versions || []).map((v) => (
        <details open={v.isDefault}>
          <summary>
            {v.reference} — {v.status}
            {v.isDefault ? " (default)" : ""}, published {when(v.publishedAt)} by {v.publishedBy}
          </summary>
          <table>
            <caption>Hyperparameters</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Default</th>
                <th scope="col">Allowed</th>
              </tr>
            </thead>
            <tbody>
              {(v.definition?.hyperparameters || []).map((h) => (
                <tr>
                  <th scope="row">
                    {h.name}
                    {h.required ? " *" : ""}
                  </th>
                  <td>{h.type}</td>
                  <td>{h.default == null ? "—" : String(h.default)}</td>
                  <td>{h.values?.length ? h.values.join(", ") : [h.min, h.max].some((x) => x != null) ? `${h.min ?? ""}…${h.max ?? ""}` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </div>
  );
}

export function AlgorithmsPage() {
  const { data, error } = useApi("/v1/algorithms");
  const [open, setOpen] = useState(null);
  const algorithms = data?.algorithms || [];
  return (
    <section>
      <h1>Algorithms</h1>
      <ErrorNote error={error} />
      {data && !algorithms.length && <p class="muted">No algorithms registered for your teams yet.</p>}
      <ul class="algorithms" id="algorithms">
        {algorithms.map((a) => (
          <li>
            <button type="button" class="link" aria-expanded={open === a.name} onClick={() => setOpen(open === a.name ? null : a.name)}>
              {a.name}
            </button>{" "}
            <small class="muted">
              {a.visibility}, default version {a.defaultVersion ?? "—"}
            </small>
            {open === a.name && <Detail name={a.name} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
