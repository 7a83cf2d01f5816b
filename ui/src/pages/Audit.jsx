import { useState } from "preact/hooks";
import { api, query } from "../api.js";
import { ErrorNote, useApi } from "../hooks.jsx";
import { accessToken, hasRole } from "../auth.js";
import { when } from "../format.js";
import { navigate } from "../router.js";

const FIELDS = ["actor", "team", "action", "backend", "from", "to"];

function Verification() {
  const { data, error } = useApi("/v1/audit/verification", 30000);
  if (error) return <ErrorNote error={error} />;
  if (!data) return null;
  const c = data.chain;
  return (
    <div id="verification">
      <p class={c.ok ? "ok" : "bad"}>
        Chain {c.ok ? "verified" : "BROKEN"} through #{c.verifiedThrough} of #{c.head}, checked {when(c.checkedAt)}
        {c.problem ? ` — ${c.problem}` : ""}
      </p>
      <ul>
        {(data.digests || []).map((d) => (
          <li>
            {d.day}: {d.signed ? "signed" : "unsigned"}, {d.verified ? "verified" : "not verified"}
            {d.problem ? ` — ${d.problem}` : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}

async function download(name, blob) {
  const response = await fetch(`/v1/audit/exports/${encodeURIComponent(name)}/blobs/${encodeURIComponent(blob)}`, {
    headers: { Authorization: `Bearer ${await accessToken()}` },
  });
  if (!response.ok) throw new Error(`download failed: ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = blob.split("/").pop();
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}


function Exports() {
  const [format, setFormat] = useState("jsonl");
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  if (!hasRole("auditor")) return <p class="muted">Exports are for the auditor role.</p>;
  return (
    <form
      class="inline"
      aria-label="Export"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        try {
          setResult(await api("/v1/audit/exports", { method: "POST", body: { format } }));
        } catch (err) {
          setError(err);
        }
      }}
    >
      <label>
        Format
        <select value={format} onChange={(e) => setFormat(e.target.value)}>
          <option value="jsonl">JSON Lines (verifiable)</option>
          <option value="csv">CSV</option>
        </select>
      </label>
      <button type="submit" id="start-export">
        Export everything
      </button>
      <ErrorNote error={error} />
      {result && (
        <p id="export-result">
          Export {result.name}: chain {result.chainIntactAtExport ? "intact" : "BROKEN"} at export.{" "}
          <span class="downloads">
            {result.blobs.map((b) => (
              <button type="button" class="link" onClick={() => download(result.name, b).catch(setError)}>
                Download {b.split("/").pop()}
              </button>
            ))}
          </span>
        </p>
      )}
    </form>
  );
}

export function AuditPage({ params }) {
  const filters = Object.fromEntries(FIELDS.map((k) => [k, params.get(k) || ""]));
  const [draft, setDraft] = useState(filters);
  const [open, setOpen] = useState(null);
  const [after, setAfter] = useState(0);
  const { data, error } = useApi(`/v1/audit${query({ ...filters, limit: 100, afterSeq: after || "" })}`);
  const events = data?.events || [];
  return (
    <section>
      <h1>Audit</h1>
      <h2>Verification</h2>
      <Verification />
      <h2>Export</h2>
      <Exports />
      <h2>Events</h2>
      <form
        class="filters"
        aria-label="Filter events"
        onSubmit={(e) => {
          e.preventDefault();
          setAfter(0);
          navigate(`/audit${query(draft)}`);
        }}
      >
        {FIELDS.map((k) => (
          <label>
            {k}
            <input id={`audit-${k}`} value={draft[k]} placeholder={k === "from" || k === "to" ? "2026-12-01T00:00:00Z" : ""} onInput={(e) => setDraft({ ...draft, [k]: e.target.value })} />
          </label>
        ))}
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={error} />
      <table id="audit-events">
        <caption>
          {events.length} events{data ? `, chain head #${data.headSeq}` : ""}
        </caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Resource</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <>
              <tr>
                <td>
                  <button type="button" class="link" aria-expanded={open === e.seq} onClick={() => setOpen(open === e.seq ? null : e.seq)}>
                    {e.seq}
                  </button>
                </td>
                <td>{when(e.time)}</td>
                <td>{e.actor?.username || e.actor?.subject || "—"}</td>
                <td>{e.action}</td>
                <td>{e.resource}</td>
                <td>{e.outcome}</td>
              </tr>
              {open === e.seq && (
                <tr class="event-detail">
                  <td colspan="6">
                    <dl class="facts">
                      <dt>eventHash</dt>
                      <dd>
                        <code>{e.eventHash}</code>
                      </dd>
                      <dt>prevHash</dt>
                      <dd>
                        <code>{e.prevHash || "— (the first event)"}</code>{" "}
                        {e.seq > 1 && events.some((x) => x.seq === e.seq - 1) && (
                          <button type="button" class="link" onClick={() => setOpen(e.seq - 1)}>
                            event #{e.seq - 1}
                          </button>
                        )}
                      </dd>
                      <dt>hash</dt>
                      <dd>
                        <code>{e.hash}</code>
                      </dd>
                    </dl>
                    <pre>{JSON.stringify(e, null, 2)}</pre>
                  </td>
                </tr>
              )}
            </>
          ))}
        </tbody>
      </table>
      {after > 0 && (
        <button type="button" onClick={() => setAfter(0)}>
          First page
        </button>
      )}{" "}
      {data?.nextAfterSeq && (
        <button type="button" id="audit-next" onClick={() => setAfter(data.nextAfterSeq)}>
          Next page
        </button>
      )}
    </section>
  );
}
