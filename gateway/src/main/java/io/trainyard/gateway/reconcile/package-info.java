/**
 * The reconciler: what moves every live job along in the background, in every replica.
 *
 * <h2>Leases and steps</h2>
 *
 * <p>A job is moved by a <em>step</em> ({@link io.trainyard.gateway.reconcile.JobStepper}): submit
 * a PENDING attempt, read a submitted one's status and write what changed, carry out a cancel, fail
 * over. A replica steps only a job it holds the lease of, and every write is fenced on the row's
 * version and that lease ({@code JobStore.update}), so of several replicas exactly one moves a job,
 * and one whose lease lapsed or was handed over writes nothing. Steps run in one lane (a thread)
 * per backend, so a backend whose calls hang holds up only its own jobs. A job a step moves to its
 * next offer (a failover) is stepped there as soon as that step ends, as a targeted step, rather
 * than at the next pass's turn.
 *
 * <h2>Attempts a job leaves</h2>
 *
 * <p>A submit can reach a backend while its answer never reaches the row (a replica killed between
 * the call and its write, a timeout after the backend acted). A job that then stays on the attempt
 * adopts the object at its next submit; one that leaves it — a failover, back to QUEUED, FAILED
 * after its tries — has the attempt recorded in the same write ({@code StaleAttempts}), and each
 * pass has the attempts recorded so far cancelled in their backends' lanes ({@link
 * io.trainyard.gateway.reconcile.LeftAttempts}), by the attempt itself rather than a reference
 * ({@link io.trainyard.spi.TrainingBackend#cancelAttempt}), once the backend is not known down.
 *
 * <h2>Two ways to a step (issue 19)</h2>
 *
 * <ol>
 *   <li><b>Targeted step</b> ({@link io.trainyard.gateway.reconcile.Reconciler#stepSoon}): a pushed
 *       backend event (a Kubernetes watch through the backend's informer) carries the attempt's
 *       {@link io.trainyard.spi.ExternalRef}, whose object name is {@code ty-<job id>-a<attempt>}
 *       ({@link io.trainyard.spi.ObjectNames#jobIdOf}); a submission or a cancel has the job
 *       itself. The job id is queued in its backend's lane; when the lane gets to it, it is leased
 *       by id ({@code JobStore.claimOne}: free, lapsed or already ours, fenced as any lease) and
 *       stepped at once — unless its row, read first without a lease, already has what the backend
 *       reports (phase and restarts, no cancel asked; {@code JobStepper.hasNews}): an informer's
 *       first list pushes an event for every object it holds, and a lease is a write. Repeated
 *       events for a job whose step is queued and has not begun are one step (it reads the status
 *       when it runs, so it sees them all). A job a pass's batch in the same lane holds is left to
 *       that batch, which steps it later in the same lane. A job another replica holds is left to
 *       it: that replica hears the same event from its own watch. A QUEUED job wakes a pass
 *       instead, so the queue dispatcher keeps its order. An event for an object whose name is no
 *       job's (a copy carrying the gateway's labels) is ignored: it used to wake a pass, so such an
 *       object's events cost a batch of lease writes each.
 *   <li><b>Resync pass</b> (the safety net, at least every {@code reconciler.resyncInterval}): the
 *       queue dispatches, then up to {@code batchSize} live jobs whose lease is free, lapsed or
 *       ours are leased, those never leased or let go longest ago first, and stepped. It finds what
 *       no push told of: a lost watch event, a replica that died holding leases, a backend that
 *       cannot push (SageMaker, Vertex, Azure ML, where the pass is the only way), a job whose
 *       submit is waiting to be retried.
 * </ol>
 *
 * <p>Before issue 19 an event only woke a pass. At 10,000 running jobs on one cluster a pass of 50
 * reaches a given job once every 200 passes, so a change waited on average for 100 passes (tens of
 * seconds to minutes, each pass a lease write per job), and every event added a pass. Now a change
 * costs one lease write, one status read from the informer's cache and its own write, whatever the
 * number of jobs, and events no longer add passes. {@code reconciler.targetedSteps: false} brings
 * the old behaviour back (bench's {@code FollowBenchMain} runs both side by side).
 *
 * <h2>What the resync pass costs, and why it need not visit every job every interval</h2>
 *
 * <p>Reading a Kubernetes job's status is free (the informer's cache); what a pass costs is the
 * database: one conditional UPDATE per job leased, in its own transaction. Visiting all 10,000 jobs
 * every 2 s would be 5,000 lease writes a second for no news. The pass therefore leases only {@code
 * batchSize} jobs, in round-robin order by when their lease ended: at 10,000 jobs and the defaults
 * (50 every 2 s) each job is looked at about every 400 s, 25 lease writes a second. That is enough
 * for a safety net now that pushes step their jobs at once: an informer re-lists after a broken
 * watch and pushes what changed, so what only the pass finds is rare. Jobs on backends that cannot
 * push are followed only by passes; give those backends' replicas a larger {@code batchSize} or a
 * shorter interval.
 *
 * <p>Not done yet (noted in docs/benchmarks.md): a job's lease is renewed only when it is stepped,
 * so with thousands of jobs most of a replica's leases lapse between visits and another replica may
 * take them over (an audited adoption) — harmless, but churn; renewing all of a replica's leases in
 * one UPDATE per pass, and leasing only jobs due (a {@code next_check_at} column), would remove it.
 */
package io.trainyard.gateway.reconcile;
