// Chart.js, registered with only the parts the dashboard draws (bars and lines), so the bundle
// carries nothing else.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "preact/hooks";

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);
Chart.defaults.animation = false;
Chart.defaults.font.family = "system-ui, sans-serif";

export const PALETTE = ["#2563eb", "#d97706", "#059669", "#dc2626", "#7c3aed", "#0891b2", "#be185d"];

/**
 * A canvas drawn by Chart.js from `config`; re-drawn when `config` changes. After each draw the
 * canvas carries data-points="n,m,…", the elements drawn per dataset, so tests (and people with
 * dev tools) can see what the chart holds.
 */
export function ChartCanvas({ config, label, id }) {
  const canvas = useRef(null);
  useEffect(() => {
    const chart = new Chart(canvas.current, config);
    canvas.current.dataset.points = chart.data.datasets
      .map((_, i) => chart.getDatasetMeta(i).data.length)
      .join(",");
    return () => chart.destroy();
  }, [config]);
  return (
    <div class="chart">
      <canvas ref={canvas} id={id} role="img" aria-label={label} />
    </div>
  );
}
