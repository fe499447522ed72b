-- Leases, so several processes sharing one store split the scheduler's work instead of all
-- queueing on the same match: a run_due round claims due deadlines and undelivered outbox rows for
-- LEASE_SECONDS (lease_owner = the process, lease_until = service clock); rows another live process
-- holds are skipped, a crashed process's leases simply run out. Correctness never depends on
-- them: the match lock and the version guard still decide.
ALTER TABLE deadlines ADD COLUMN lease_owner TEXT;
ALTER TABLE deadlines ADD COLUMN lease_until REAL;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until REAL;
