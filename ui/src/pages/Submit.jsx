import { useState } from "preact/hooks";
import { api } from "../api.js";
import { ErrorNote } from "../hooks.jsx";

const EXAMPLE = `apiVersion: trainyard.io/v1
kind: TrainingJob
metadata:
  name: my-job
spec:
  framework: pytorch
  image: python:3.11-slim
  command: [python3, train.py]
  replicas: {master: 1}
  resources: {cpus: 1, memory: 512Mi}
  estimatedHours: 1
  maxRuntime: 2h
`;

function yamlScalar(value) {
  return typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(String(value));
}

/** Submit by pasted YAML (TrainingJob or a Kubeflow document) or by algorithm + hyperparameters. */
export function SubmitForm({ onSubmitted }) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState("yaml");
  const [yaml, setYaml] = useState("");
  const [algorithms, setAlgorithms] = useState(null);
  const [chosen, setChosen] = useState(null);
  const [name, setName] = useState("");
  const [values, setValues] = useState({});
  const [error, setError] = useState(null);
  const [warnings, setWarnings] = useState([]);
  const [busy, setBusy] = useState(false);

  async function pickMode(m) {
    setMode(m);
    if (m === "algorithm" && !algorithms) {
      try {
        setAlgorithms((await api("/v1/algorithms")).algorithms || []);
      } catch (e) {
        setError(e);
      }
    }
  }

  async function pickAlgorithm(qualified) {
    setChosen(null);
    setValues({});
    if (!qualified) return;
    try {
      const algorithm = await api(`/v1/algorithms/${qualified}`);
      const version = (algorithm.versions || []).find((v) => v.isDefault) || (algorithm.versions || []).at(-1);
      setChosen({ algorithm, version });
      const initial = {};
      (version?.definition?.hyperparameters || []).forEach((h) => (initial[h.name] = h.default ?? ""));
      setValues(initial);
    } catch (e) {
      setError(e);
    }
  }

  function document() {
    if (mode === "yaml") return yaml;
    const specs = chosen.version?.definition?.hyperparameters || [];
    const lines = specs
      .filter((h) => values[h.name] !== "" && values[h.name] !== undefined)
      .map((h) => {
        const raw = values[h.name];
        const number = (h.type === "int" || h.type === "float") && raw !== "" && !isNaN(Number(raw));
        return `    ${h.name}: ${number ? Number(raw) : yamlScalar(raw)}`;
      });
    return `apiVersion: trainyard.io/v1
kind: TrainingJob
metadata:
  name: ${name}
spec:
  algorithm: ${chosen.version.reference}
  hyperparameters:${lines.length ? "\n" + lines.join("\n") : " {}"}
`;
  }

  async function submit(event) {
    event.preventDefault();
    setError(null);
    setWarnings([]);
    setBusy(true);
    try {
      const answer = await api("/v1/jobs", {
        method: "POST",
        body: document(),
        contentType: "application/yaml",
        extraHeaders: { "Idempotency-Key": crypto.randomUUID() },
      });
      setWarnings(answer.warnings || []);
      onSubmitted(answer.id);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <button type="button" id="new-job" onClick={() => setOpen(true)}>
        New job…
      </button>
    );
  }
  const specs = chosen?.version?.definition?.hyperparameters || [];
  return (
    <form class="submit" onSubmit={submit} aria-label="Submit a job">
      <fieldset>
        <legend>Submit a job</legend>
        <div role="radiogroup" aria-label="How to describe the job">
          <label>
            <input type="radio" name="mode" checked={mode === "yaml"} onChange={() => pickMode("yaml")} /> Paste YAML
          </label>
          <label>
            <input type="radio" name="mode" id="mode-algorithm" checked={mode === "algorithm"} onChange={() => pickMode("algorithm")} /> Algorithm
          </label>
        </div>
        {mode === "yaml" ? (
          <label class="block">
            Job document (a Trainyard TrainingJob, or a Kubeflow PyTorchJob, TFJob, MPIJob or XGBoostJob)
            <textarea id="job-yaml" rows="14" spellcheck={false} placeholder={EXAMPLE} value={yaml} onInput={(e) => setYaml(e.target.value)} required />
          </label>
        ) : (
          <>
            <label>
              Algorithm
              <select id="algorithm" onChange={(e) => pickAlgorithm(e.target.value)} required>
                <option value="">{algorithms === null ? "loading…" : algorithms.length ? "choose…" : "none registered"}</option>
                {(algorithms || []).map((a) => (
                  <option value={a.name}>{a.name}</option>
                ))}
              </select>
            </label>
            <label>
              Job name
              <input id="algorithm-job-name" required pattern="[a-z0-9]([a-z0-9\-]*[a-z0-9])?" value={name} onInput={(e) => setName(e.target.value)} />
            </label>
            {chosen && <p class="muted">Version {chosen.version?.reference}</p>}
            {specs.map((h) => (
              <label>
                {h.name}
                {h.required ? " (required)" : ""}
                {h.values?.length ? (
                  <select id={`hp-${h.name}`} value={values[h.name]} onChange={(e) => setValues({ ...values, [h.name]: e.target.value })}>
                    {h.values.map((v) => (
                      <option value={v}>{v}</option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={`hp-${h.name}`}
                    value={values[h.name]}
                    required={!!h.required}
                    title={h.description || ""}
                    onInput={(e) => setValues({ ...values, [h.name]: e.target.value })}
                  />
                )}
              </label>
            ))}
          </>
        )}
        <div class="actions">
          <button type="submit" id="submit-job" disabled={busy || (mode === "algorithm" && !chosen)}>
            Submit
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
        <ErrorNote error={error} />
        {warnings.map((w) => (
          <p class="warning">{w}</p>
        ))}
      </fieldset>
    </form>
  );
}
