export function usd(value, digits = 2) {
  if (value === null || value === undefined) return "—";
  return `$${Number(value).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: Math.max(digits, 4) })}`;
}

export function when(instant) {
  if (!instant) return "—";
  return new Date(instant).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  const s = Math.round(Number(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${m}m` : m ? `${m}m ${s % 60}s` : `${s}s`;
}

export const TERMINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);
export const STATES = ["QUEUED", "PENDING", "SUBMITTED", "RUNNING", "CANCELLING", "SUCCEEDED", "FAILED", "CANCELLED"];
