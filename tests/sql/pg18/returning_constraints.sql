-- Syntax the raw grammar of PostgreSQL 18 added. Run for PostgreSQL 18 and later only.

-- RETURNING with OLD and NEW (ReturningClause, ReturningOption)
UPDATE t SET v = v + 1 WHERE id = 1 RETURNING WITH (OLD AS o, NEW AS n) o.v AS before, n.v AS after;
DELETE FROM t WHERE id = 2 RETURNING old.*;
INSERT INTO t VALUES (3, 30) ON CONFLICT (id) DO UPDATE SET v = excluded.v RETURNING WITH (OLD AS prev) prev.v, new.v;
MERGE INTO t USING s ON t.id = s.id
    WHEN MATCHED THEN UPDATE SET v = s.v
    RETURNING WITH (NEW AS after) merge_action(), old.v, after.v;

-- virtual generated columns, temporal keys, NOT ENFORCED constraints (ATAlterConstraint)
CREATE TABLE gen (a int, b int GENERATED ALWAYS AS (a * 2) VIRTUAL, c int GENERATED ALWAYS AS (a + 1) STORED);
CREATE TABLE booking (room int, during tstzrange, PRIMARY KEY (room, during WITHOUT OVERLAPS));
CREATE TABLE usage (room int, during tstzrange,
    FOREIGN KEY (room, PERIOD during) REFERENCES booking (room, PERIOD during));
ALTER TABLE usage ADD CONSTRAINT positive CHECK (room > 0) NOT ENFORCED;
ALTER TABLE usage ALTER CONSTRAINT positive NOT ENFORCED;
ALTER TABLE usage ALTER CONSTRAINT usage_room_during_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE usage ALTER CONSTRAINT positive NO INHERIT;
