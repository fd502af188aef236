-- Relations, aliases, schemas and names, where libpg_query's fingerprint rules differ between
-- versions (schema/libpg_query.txt, since:18): 18 counts a relation's alias instead of its name, and
-- no schema, where a query reads or writes it; names with runs of digits; temporary tables.
SELECT * FROM s.orders_2024_01 o JOIN s.items_99 i ON o.id = i.order_id;
SELECT * FROM orders_2024_01 AS o, LATERAL (SELECT 1) AS l(x) WHERE o.id > 2;
SELECT * FROM s.t AS x TABLESAMPLE SYSTEM (10) REPEATABLE (3) FOR UPDATE OF x;
INSERT INTO s.t AS z (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = z.a + 1;
UPDATE s.t AS z SET a = 1 FROM s.u AS w, v2 WHERE z.a = w.a;
DELETE FROM s.t AS z USING s.u AS w, v_10_x WHERE z.a = w.a;
MERGE INTO s.t AS z USING s.u AS w ON z.a = w.a WHEN MATCHED THEN DELETE;
CREATE TEMP TABLE tmp_2024 (a int);
CREATE TABLE s.t_12_ab (a int);
ALTER TABLE s.t_12 RENAME TO t_13;
ALTER TABLE s.t RENAME COLUMN a TO b;
NOTIFY channel_1, 'the payload';
CALL s.proc(1, 'two', ARRAY[3]);
ALTER SUBSCRIPTION sub CONNECTION 'host=h dbname=d';
BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY;
CREATE ROLE r_77 LOGIN;
GRANT r_1 TO r_2;
