import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./app.css";
import { completeSignIn, currentUser, hasRole, loadConfig, onSignInChange, signIn, signOut } from "./auth.js";
import { navigate, useLocation } from "./router.js";
import { JobsPage } from "./pages/Jobs.jsx";
import { JobPage } from "./pages/Job.jsx";
import { ComparePage } from "./pages/Compare.jsx";
import { BackendsPage } from "./pages/Backends.jsx";
import { AlgorithmsPage } from "./pages/Algorithms.jsx";
import { AuditPage } from "./pages/Audit.jsx";

const NAV = [
  ["/", "Jobs"],
  ["/backends", "Backends"],
  ["/algorithms", "Algorithms"],
  ["/audit", "Audit"],
];

function Page({ path, params }) {
  const job = path.match(/^\/jobs\/([0-9a-z]{26})$/);
  if (path === "/" || path === "/jobs") return <JobsPage params={params} />;
  if (job) return <JobPage id={job[1]} />;
  if (path === "/compare") return <ComparePage params={params} />;
  if (path === "/backends") return <BackendsPage />;
  if (path === "/algorithms") return <AlgorithmsPage />;
  if (path === "/audit") {
    return hasRole("auditor", "platform-admin") ? (
      <AuditPage params={params} />
    ) : (
      <section>
        <h1>Audit</h1>
        <p class="error" role="alert" id="audit-refused">
          The audit trail is open to the auditor and platform-admin roles; you have{" "}
          {currentUser().roles.join(", ") || "none"}.
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>Not found</h1>
      <p>
        No page at {path}. <a href="/">Jobs</a>
      </p>
    </section>
  );
}

function App() {
  const [user, setUser] = useState(currentUser());
  const [problem, setProblem] = useState(null);
  const [ready, setReady] = useState(false);
  const { path, params } = useLocation();
  useEffect(() => onSignInChange(setUser), []);
  useEffect(() => {
    (async () => {
      try {
        await loadConfig();
        if (location.pathname === "/callback") {
          navigate(await completeSignIn(), { replace: true });
        }
      } catch (e) {
        setProblem(e.message);
      } finally {
        setReady(true);
      }
    })();
  }, []);

  if (!ready) return <p class="boot">Loading Trainyard…</p>;
  if (!user) {
    return (
      <main class="signin">
        <h1>Trainyard</h1>
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        <p>Sign in with your organisation's identity provider to see and run training jobs.</p>
        <button id="sign-in" type="button" onClick={() => signIn(path === "/callback" ? "/" : undefined)}>
          Sign in
        </button>
      </main>
    );
  }
  return (
    <>
      <header class="top">
        <a class="brand" href="/">
          Trainyard
        </a>
        <nav aria-label="Pages">
          {NAV.map(([href, label]) => (
            <a href={href} aria-current={(href === "/" ? path === "/" || path.startsWith("/jobs") : path.startsWith(href)) ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who" id="who">
          {user.name} <small>({user.roles.filter((r) => ["trainer", "team-admin", "auditor", "platform-admin"].includes(r)).join(", ")})</small>
        </span>
        <button type="button" id="sign-out" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        <Page path={path} params={params} />
      </main>
    </>
  );
}

render(<App />, document.getElementById("app"));
