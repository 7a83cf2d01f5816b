import { useEffect, useMemo, useState } from "preact/hooks";
import { api, query } from "../api.js";
import { ErrorNote, useApi } from "../hooks.jsx";
import { duration, STATES, TERMINAL, usd, when } from "../format.js";
import { navigate } from "../router.js";
import { SubmitForm } from "./Submit.jsx";

const FILTERS = ["team", "backend", "algorithm", "owner", "since", "until"];

/**
 * The filters go to the server; the page applies them again to jobs it already holds (live
 * updates of the first page), so a row that stopped matching leaves at once.
 */
function matches(job, f) {
  if (f.team && job.team !== f.team) return false;
  if (f.backend && job.backend !== f.backend) return false;
  if (f.owner && job.owner !== f.owner) return false;
  if (f.algorithm && !(job.algorithm || "").startsWith(f.algorithm)) return false;
  if (f.since && job.createdAt < new Date(f.since).toISOString()) return false;
  if (f.until && job.createdAt >= new Date(f.until).toISOString()) return false;
  return true;
}

function filtersFrom(params) {
  const f = { state: params.getAll("state") };
  FILTERS.forEach((k) => (f[k] = params.get(k) || ""));
  return f;
}

export function JobsPage({ params }) {
  const filters = useMemo(() => filtersFrom(params), [params.toString()]);
  const [draft, setDraft] = useState(filters);
  const [more, setMore] = useState([]);
  const [next, setNext] = useState(null);
  const [actionError, setActionError] = useState(null);
  useEffect(() => setDraft(filters), [filters]);
  const apiQuery = (extra) =>
    query({
      ...filters,
      since: filters.since && new Date(filters.since).toISOString(),
      until: filters.until && new Date(filters.until).toISOString(),
      limit: 50,
      ...extra,
    });
  // Live: the first page again every 2 s; pages loaded with "More" stay as loaded.
  const first = useApi(`/v1/jobs${apiQuery({})}`, 2000);
  useEffect(() => {
    setMore([]);
    setNext(first.data?.next || null);
  }, [first.data?.next, params.toString()]);

  const jobs = [...(first.data?.jobs || []), ...more].filter((j) => matches(j, filters));

  function apply(event) {
    event.preventDefault();
    navigate(`/${query(draft)}`);
  }

  async function loadMore() {
    const page = await api(`/v1/jobs${apiQuery({ cursor: next })}`);
    setMore((m) => [...m, ...page.jobs]);
    setNext(page.next || null);
  }

  async function cancel(job) {
    setActionError(null);
    try {
      await api(`/v1/jobs/${job.id}`, { method: "DELETE" });
      first.reload();
    } catch (e) {
      setActionError(e);
    }
  }

  return (
    <section>
      <h1>Jobs</h1>
      <SubmitForm onSubmitted={(id) => navigate(`/jobs/${id}`)} />
      <form class="filters" onSubmit={apply} aria-label="Filter jobs">
        <label>
          State
          <select
            id="filter-state"
            multiple
            size="3"
            onChange={(e) => setDraft({ ...draft, state: [...e.target.selectedOptions].map((o) => o.value) })}
          >
            {STATES.map((s) => (
              <option value={s} selected={draft.state.includes(s)}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {FILTERS.map((k) => (
          <label>
            {k[0].toUpperCase() + k.slice(1)}
            <input
              id={`filter-${k}`}
              type={k === "since" || k === "until" ? "datetime-local" : "text"}
              value={draft[k]}
              placeholder={k === "algorithm" ? "team/name@N" : ""}
              onInput={(e) => setDraft({ ...draft, [k]: e.target.value })}
            />
          </label>
        ))}
        <button type="submit">Filter</button>
        <a href="/">Clear</a>
      </form>
      <ErrorNote error={first.error || actionError} />
      <table class="jobs" id="jobs">
        <caption class="sr-only">Jobs, newest first, updated live</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">State</th>
            <th scope="col">Team</th>
            <th scope="col">Owner</th>
            <th scope="col">Backend</th>
            <th scope="col">$/h</th>
            <th scope="col">Estimated</th>
            <th scope="col">Created</th>
            <th scope="col">Ran</th>
            <th scope="col"><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr data-job={job.id} data-state={job.state}>
              <td>
                <a href={`/jobs/${job.id}`}>{job.name}</a>
                {job.algorithm && <small class="muted"> {job.algorithm}</small>}
              </td>
              <td>
                <span class={`state state-${job.state.toLowerCase()}`}>{job.state}</span>
              </td>
              <td>{job.team}</td>
              <td>{job.owner}</td>
              <td>{job.backend || "—"}</td>
              <td>{usd(job.hourlyUsd)}</td>
              <td>{usd(job.estimatedUsd)}</td>
              <td>{when(job.createdAt)}</td>
              <td>{duration(job.durationSeconds)}</td>
              <td>
                {!TERMINAL.has(job.state) && job.state !== "CANCELLING" && (
                  <button type="button" class="small" aria-label={`Cancel ${job.name}`} onClick={() => cancel(job)}>
                    Cancel
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!first.loading && jobs.length === 0 && <p class="muted">No jobs match.</p>}
      {next && (
        <button type="button" onClick={loadMore}>
          More
        </button>
      )}
    </section>
  );
}
