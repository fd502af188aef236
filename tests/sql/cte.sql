-- Common table expressions: plain, RECURSIVE, MATERIALIZED / NOT MATERIALIZED, SEARCH and CYCLE clauses, data-modifying CTEs.

-- simple CTEs
WITH x AS (SELECT 1 AS a) SELECT * FROM x;
WITH x(a, b) AS (VALUES (1, 2)), y AS (SELECT a FROM x) SELECT * FROM x JOIN y USING (a);
WITH x AS MATERIALIZED (SELECT * FROM t) SELECT * FROM x;
WITH x AS NOT MATERIALIZED (SELECT * FROM t) SELECT * FROM x WHERE a = 1;
WITH x AS (SELECT 1) SELECT * FROM x UNION ALL SELECT * FROM x;
WITH x AS (TABLE t) TABLE x;
WITH x AS (VALUES (1)) VALUES (2);

-- recursive CTEs
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT sum(i) FROM n;
WITH RECURSIVE tree AS (SELECT id, parent FROM nodes WHERE parent IS NULL UNION SELECT c.id, c.parent FROM nodes c JOIN tree p ON c.parent = p.id) SELECT * FROM tree;

-- SEARCH DEPTH / BREADTH FIRST
WITH RECURSIVE s(id, link) AS (SELECT id, link FROM g UNION ALL SELECT g.id, g.link FROM g, s WHERE g.id = s.link) SEARCH DEPTH FIRST BY id SET ordercol SELECT * FROM s ORDER BY ordercol;
WITH RECURSIVE s(id, link) AS (SELECT id, link FROM g UNION ALL SELECT g.id, g.link FROM g, s WHERE g.id = s.link) SEARCH BREADTH FIRST BY id, link SET ord SELECT * FROM s;

-- CYCLE clause
WITH RECURSIVE s(id, link) AS (SELECT id, link FROM g UNION ALL SELECT g.id, g.link FROM g, s WHERE g.id = s.link) CYCLE id SET is_cycle USING path SELECT * FROM s;
WITH RECURSIVE s(id, link) AS (SELECT id, link FROM g UNION ALL SELECT g.id, g.link FROM g, s WHERE g.id = s.link) CYCLE id, link SET is_cycle TO 'Y' DEFAULT 'N' USING path SELECT * FROM s;
WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s) SEARCH DEPTH FIRST BY id SET o CYCLE id SET c USING p SELECT * FROM s;

-- data-modifying CTEs
WITH moved AS (DELETE FROM src WHERE created < now() - interval '1 year' RETURNING *) INSERT INTO archive SELECT * FROM moved;
WITH upd AS (UPDATE t SET a = a + 1 WHERE b RETURNING id) SELECT count(*) FROM upd;
WITH ins AS (INSERT INTO t (a) VALUES (1) RETURNING id) UPDATE u SET t_id = ins.id FROM ins;
WITH d AS (DELETE FROM t RETURNING id) DELETE FROM u USING d WHERE u.id = d.id;

-- CTEs attached to DML statements
WITH v AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM v;
WITH v AS (SELECT 1 AS a) UPDATE t SET a = v.a FROM v;
WITH v AS (SELECT 1 AS a) DELETE FROM t WHERE a IN (SELECT a FROM v);

-- nested WITH
WITH a AS (WITH b AS (SELECT 1 AS x) SELECT x FROM b) SELECT * FROM a;
SELECT * FROM (WITH c AS (SELECT 2) SELECT * FROM c) s;
SELECT (WITH c AS (SELECT 3) SELECT * FROM c);
-- a WHERE inside a CTE's query (a probed contract once refused it: no rule may refuse a parsed tree)
WITH x AS (SELECT * FROM t WHERE a = 1) SELECT * FROM x;
-- the summary's CTE names: a statement's own first, then those of what it holds (a subquery's
-- WITH after the outer one, under EXPLAIN too), as libpg_query 18's pg_query_summary lists them
EXPLAIN (VERBOSE, COSTS OFF) WITH x AS (SELECT * FROM int4_tbl) SELECT * FROM (WITH y AS (SELECT * FROM x) SELECT * FROM y) ss;
WITH x AS (WITH z AS (SELECT 1) SELECT * FROM z), w AS (SELECT 2) SELECT * FROM (WITH y AS (SELECT * FROM x) SELECT * FROM y) ss;
WITH q AS (SELECT 1) UPDATE t SET a = 1 FROM (WITH y AS (SELECT 1) SELECT * FROM y) s;
WITH q AS (SELECT 1) DELETE FROM t USING (WITH y AS (SELECT 1) SELECT * FROM y) s;
-- without RECURSIVE a CTE does not see itself: in its own body (at any depth) its name is a table
WITH outermost(x) AS (SELECT 1 UNION (WITH innermost AS (SELECT 2) SELECT * FROM outermost UNION SELECT * FROM innermost)) SELECT * FROM outermost;
WITH a AS (SELECT * FROM a x) SELECT * FROM a y;
WITH a AS (WITH b AS (SELECT * FROM a) SELECT * FROM b), c AS (SELECT * FROM a) SELECT 1;
WITH a AS (WITH RECURSIVE b AS (SELECT * FROM a) SELECT * FROM b) SELECT 1;
WITH RECURSIVE a AS (WITH b AS (SELECT * FROM a) SELECT * FROM b) SELECT 1;
SELECT * FROM a, (WITH a AS (SELECT * FROM a) SELECT 1) s;
