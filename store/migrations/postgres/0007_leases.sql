-- PostgreSQL twin of ../0007_leases.sql (see there); claimed with FOR UPDATE SKIP LOCKED.
ALTER TABLE deadlines ADD COLUMN lease_owner TEXT;
ALTER TABLE deadlines ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION;
