#!/bin/sh
# combinatorial.sh -- writes the combinatorial corpus to stdout: every expression form below in
# every clause of every DML and query statement below (one statement per line; and as XMLROOT's
# version, which libpg_query before 18 deparses as a string whatever it is), then the everyday
# statements of issue 41 that the context-narrowed deparse contract refused. The deparse contract's
# derivation learns from it (tools/deparse-probe/run.sh), and `pgbind verify` must pass on it on
# every major (make check): the parser makes all of it, so the contract refuses none of it.
#     tests/corpus/combinatorial.sh > build/combinatorial.sql && build/pgbind verify build/combinatorial.sql
set -eu

# One expression a line (tables t and u have columns a, b, id, name, j, d, arr).
exprs() {
	cat <<'SQL'
$1
42
-1.5
'text'
NULL
TRUE
B'101'
X'1F'
t.a
$1::int
CAST($2 AS text)
'2020-01-01'::date
a::text[]
id = ANY($1::int[])
id = ANY($1::uuid[])
id <> ALL(ARRAY[1, 2])
id = ANY(SELECT id FROM u)
id IN (1, 2, 3)
id IN ($1, $2, $3)
id NOT IN (SELECT id FROM u)
name LIKE 'a%'
name ILIKE lower($1)
name NOT LIKE $1 ESCAPE '!'
name NOT ILIKE $2
name SIMILAR TO $1
name NOT SIMILAR TO 'x%'
name LIKE '%' || $2 || '%'
a || b
'x' || $1::text
COALESCE(a, $1, 0)
NULLIF(a, 0)
GREATEST(a, b, 1)
LEAST(a, $1)
CASE WHEN a > 0 THEN 'p' WHEN a < 0 THEN 'n' ELSE 'z' END
CASE a WHEN 1 THEN 'one' ELSE NULL END
(SELECT max(id) FROM u)
EXISTS (SELECT 1 FROM u WHERE u.id = t.id)
id > ALL (SELECT id FROM u)
ARRAY(SELECT id FROM u)
ROW(a, b)
(a, b) = (1, 2)
(a, b) IN ((1, 2), (3, 4))
ARRAY[1, 2, $1]
ARRAY[[1, 2], [3, 4]]
arr[1]
arr[1:2]
name COLLATE "C"
lower(name COLLATE "C")
a BETWEEN 1 AND $1
a NOT BETWEEN SYMMETRIC 1 AND 2
a IS NULL
a IS NOT NULL
a IS NOT DISTINCT FROM $1
a IS DISTINCT FROM b
b IS TRUE
b IS NOT UNKNOWN
NOT (a = 1 OR b = 2) AND id > 0
count(*)
count(DISTINCT a)
sum(a) FILTER (WHERE a > 0)
string_agg(name, ',' ORDER BY name)
row_number() OVER (PARTITION BY a ORDER BY b)
now()
CURRENT_DATE
CURRENT_USER
LOCALTIMESTAMP(3)
extract(year FROM d)
substring(name FROM 1 FOR 2)
position('a' IN name)
trim(BOTH 'x' FROM name)
d AT TIME ZONE 'UTC'
interval '1 day'
j ->> 'k'
j @> '{}'::jsonb
a % 2 + -a * 3 / 4 ^ 2
a OPERATOR(pg_catalog.+) 1
xmlelement(name foo, a)
(t.j).f
f(a, VARIADIC arr)
f(x => 1)
SQL
}

# One statement a line; %E is where the expression goes.
clauses() {
	cat <<'SQL'
SELECT %E
SELECT %E AS c FROM t
SELECT a FROM t WHERE %E
SELECT * FROM t JOIN u ON %E
SELECT * FROM t LEFT JOIN u ON %E
SELECT * FROM t JOIN (SELECT %E AS c FROM u) s ON s.c = t.a
SELECT count(*) FROM t GROUP BY %E
SELECT count(*) FROM t GROUP BY ROLLUP (a, %E)
SELECT a FROM t GROUP BY a HAVING %E
SELECT a FROM t ORDER BY %E
SELECT a FROM t ORDER BY %E DESC NULLS LAST
SELECT a FROM t LIMIT %E
SELECT a FROM t OFFSET %E
SELECT DISTINCT ON (%E) a FROM t
SELECT sum(a) OVER (PARTITION BY %E) FROM t
SELECT sum(a) OVER (ORDER BY %E) FROM t
SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY %E ORDER BY a)
SELECT sum(a) OVER (ORDER BY a ROWS BETWEEN %E PRECEDING AND CURRENT ROW) FROM t
SELECT sum(a) FILTER (WHERE %E) FROM t
SELECT string_agg(name, ',' ORDER BY %E) FROM t
SELECT f(%E) FROM t
SELECT CASE WHEN %E THEN 1 END FROM t
SELECT * FROM (SELECT %E AS c FROM t) s
SELECT * FROM t, LATERAL (SELECT %E AS c) s
SELECT * FROM generate_series(1, %E) g
SELECT * FROM t WHERE a IN (SELECT %E FROM u)
SELECT * FROM t WHERE a = (SELECT %E FROM u LIMIT 1)
SELECT a FROM t UNION SELECT %E FROM u
VALUES (%E), (1)
UPDATE t SET a = %E
UPDATE t SET a = 1 WHERE %E
UPDATE t SET a = u.a FROM u WHERE %E
UPDATE t SET a = s.c FROM (SELECT %E AS c FROM u) s
UPDATE t SET (a, b) = (%E, 1)
UPDATE t SET a = 1 WHERE id = 1 RETURNING %E
DELETE FROM t WHERE %E
DELETE FROM t USING u WHERE %E
DELETE FROM t WHERE id = 1 RETURNING %E
INSERT INTO t (a) VALUES (%E)
INSERT INTO t (a, b) VALUES (%E, 1), (2, %E)
INSERT INTO t (a) SELECT %E FROM u
INSERT INTO t (a) SELECT a FROM u WHERE %E
INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET b = %E
INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 1 WHERE %E
INSERT INTO t (a) VALUES (1) ON CONFLICT (a) WHERE %E DO NOTHING
INSERT INTO t (a) VALUES (1) RETURNING %E
MERGE INTO t USING u ON %E WHEN MATCHED THEN DELETE
MERGE INTO t USING u ON t.id = u.id WHEN MATCHED AND %E THEN UPDATE SET a = 1
MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN UPDATE SET a = %E
MERGE INTO t USING u ON t.id = u.id WHEN NOT MATCHED THEN INSERT (a) VALUES (%E)
MERGE INTO t USING u ON t.id = u.id WHEN NOT MATCHED AND %E THEN INSERT DEFAULT VALUES
MERGE INTO t USING (SELECT %E AS c FROM u) s ON t.id = s.c WHEN MATCHED THEN DO NOTHING
WITH c AS (SELECT %E AS v FROM t) SELECT * FROM c
WITH c AS (UPDATE t SET a = %E RETURNING a) SELECT * FROM c
WITH c AS (DELETE FROM t WHERE %E RETURNING a) SELECT * FROM c
WITH c AS (INSERT INTO t (a) VALUES (%E) RETURNING a) SELECT * FROM c
WITH RECURSIVE c (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE %E) SELECT n FROM c
PREPARE p AS SELECT %E FROM t
EXPLAIN SELECT a FROM t WHERE %E
DECLARE c CURSOR FOR SELECT %E FROM t
COPY (SELECT %E FROM t) TO STDOUT
CREATE TABLE t2 AS SELECT %E AS c FROM t
SELECT XMLROOT(x, VERSION %E) FROM t
SQL
}

exprs > "${TMPDIR:-/tmp}/combinatorial.$$.exprs"
trap 'rm -f "${TMPDIR:-/tmp}/combinatorial.$$.exprs"' EXIT
clauses | awk -v exprs="${TMPDIR:-/tmp}/combinatorial.$$.exprs" '
	BEGIN { while ((getline e < exprs) > 0) expr[++n] = e }
	{ k = split($0, part, "%E"); for (i = 1; i <= n; i++) { s = part[1]; for (j = 2; j <= k; j++) s = s expr[i] part[j]; print s ";" } }'
cat <<'SQL'
UPDATE t SET a = 1 WHERE id = ANY($1::int[]);
SELECT * FROM t WHERE name ILIKE lower($1);
UPDATE orders SET state = 'shipped' WHERE id IN ($1, $2, $3);
DELETE FROM sessions WHERE user_id = ANY($1::uuid[]);
SELECT * FROM users WHERE org_id = $1 AND name LIKE '%' || $2 || '%';
SELECT * FROM t WHERE code SIMILAR TO $1;
MERGE INTO t USING u ON t.id = u.id WHEN MATCHED AND u.id = ANY($1::int[]) THEN UPDATE SET a = u.a;
SQL
