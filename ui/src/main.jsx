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
import { SpendPage } from "./pages/Spend.jsx";

// The roles the API allows for each page's calls: a page the user's roles do not open says so
// rather than calling the API to be refused.
const WORK = ["trainer", "team-admin", "platform-admin"];
const AUDIT = ["auditor", "platform-admin"];
const SPEND = ["team-admin", "platform-admin"];
const NAV = [
  ["/", "Jobs", WORK],
  ["/backends", "Backends", WORK],
  ["/spend", "Spend", SPEND],
  ["/algorithms", "Algorithms", WORK],
  ["/audit", "Audit", AUDIT],
];

function Refused({ title, roles, id }) {
  const mine = currentUser().roles.filter((r) => [...WORK, ...AUDIT].includes(r));
  const other = NAV.find(([, , need]) => hasRole(...need));
  return (
    <section>
      <h1>{title}</h1>
      <p class="error" role="alert" id={id}>
        {title} is open to the {roles.join(", ")} roles; you have {mine.join(", ") || "none of them"}.
        {other && (
          <>
            {" "}
            See <a href={other[0]}>{other[1]}</a>.
          </>
        )}
      </p>
    </section>
  );
}

function Page({ path, params }) {
  const job = path.match(/^\/jobs\/([0-9a-z]{26})$/);
  const allowed = (roles, title, page, id) =>
    hasRole(...roles) ? page : <Refused title={title} roles={roles} id={id || `refused`} />;
  if (path === "/" || path === "/jobs") return allowed(WORK, "Jobs", <JobsPage params={params} />);
  if (job) return allowed(WORK, "Job", <JobPage id={job[1]} />);
  if (path === "/compare") return allowed(WORK, "Compare", <ComparePage params={params} />);
  if (path === "/backends") return allowed(WORK, "Backends", <BackendsPage />);
  if (path === "/spend") return allowed(SPEND, "Spend", <SpendPage />);
  if (path === "/algorithms") return allowed(WORK, "Algorithms", <AlgorithmsPage />);
  if (path === "/audit") return allowed(AUDIT, "Audit", <AuditPage params={params} />, "audit-refused");
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
          {NAV.filter(([, , roles]) => hasRole(...roles)).map(([href, label]) => (
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
