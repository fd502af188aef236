-- Statements tools/deparse-probe never reads (it takes tests/sql, the fuzz regressions and the
-- Debian corpus): `pgbind verify` of this file in make check fails if the deparse contract refuses
-- a tree the parser makes and libpg_query's deparser handles, i.e. if a rule learnt on the
-- corpus generalises to parents or values it did not see. Each shape here was refused once.
-- 2026-12-02, the first probe that refused kinds by round trip: A_Expr as the WHERE of a CTE's
-- SELECT, an A_Const as A_Expr.rexpr under a BoolExpr, a ColumnRef ResTarget.val in ON CONFLICT.
WITH x AS (SELECT * FROM t WHERE a = 1) SELECT * FROM x;
WITH x AS (SELECT * FROM t WHERE a = 1 AND b < 2 OR c > 3) SELECT * FROM x WHERE y = 'z';
INSERT INTO t (a, b) VALUES (1, 2) ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE t.b IS DISTINCT FROM excluded.b;
INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = b;
-- 2026-12-02, the same probe with the union guard: the WHERE of a subselect with LIMIT (the
-- corpus's only such subselects sit in a BEGIN ATOMIC body, where no kind change parses back).
SELECT (SELECT b FROM u WHERE CASE WHEN a THEN true END LIMIT 1);
SELECT (SELECT b FROM u WHERE a IS TRUE LIMIT 1);
SELECT (SELECT b FROM u WHERE coalesce(a, b) LIMIT 1);
SELECT (SELECT b FROM u WHERE ROW(a) = ROW(b) LIMIT 1);
SELECT (SELECT b FROM u WHERE a::bool LIMIT 1);
SELECT (SELECT b FROM u WHERE greatest(a, b) > 1 LIMIT 1);
SELECT (SELECT b FROM u WHERE $1 LIMIT 1);
SELECT (SELECT b FROM u WHERE a[1] LIMIT 1 OFFSET 2);
-- Expressions of every common kind in clauses of nested statements.
SELECT * FROM (SELECT a FROM t WHERE CASE a WHEN 1 THEN true ELSE false END) s;
SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND coalesce(u.b, 0) > 1 LIMIT 5);
SELECT * FROM t, LATERAL (SELECT * FROM u WHERE u.a IS NOT NULL LIMIT 1) l;
UPDATE t SET a = (SELECT max(b) FROM u WHERE u.c = t.c LIMIT 1) WHERE a IS UNKNOWN;
DELETE FROM t WHERE a IN (SELECT b FROM u WHERE b::int > 2 ORDER BY b LIMIT 3);
SELECT a, count(*) FROM t GROUP BY a HAVING CASE WHEN count(*) > 1 THEN true END;
SELECT a FROM t WHERE a = ANY (SELECT b FROM u WHERE b BETWEEN 1 AND 2 FETCH FIRST 1 ROW ONLY);
CREATE VIEW v AS SELECT * FROM t WHERE nullif(a, 0) IS NOT NULL;
SELECT * FROM t JOIN u ON CASE WHEN t.a = u.a THEN true ELSE false END;
-- 2026-12-02, fuzz_parse: an option name no statement of the corpus has, its List argument refused
-- by the union over the names the corpus does show (a List crashes FROM of CREATE COLLATION).
CREATE OPERATOR <~> (leftarg = int, rightaor = OPERATOR(s.<~>));
CREATE AGGREGATE agg (int) (sfunc = f, stype = int, pgbind_unseen = OPERATOR(s.+));
CREATE TEXT SEARCH DICTIONARY d (template = simple, pgbind_unseen = OPERATOR(pg_catalog.=));
-- 2026-12-02, fuzz_parse: a function call without arguments in GROUP BY (a parent no FuncCall of the
-- corpus has), refused by the union over parents (an empty FuncCall.args crashes `s IS NORMALIZED`).
SELECT a FROM t GROUP BY LIMIT_OPTION_UNDEFIN();
SELECT a FROM t GROUP BY now(), random();
-- 2026-12-02, fuzz_parse again: DEFAULT as a function's argument in a multiple-column SET (the union
-- over parents: only a FROM-clause function takes it ill), an A_Expr in NULLIF (a value of
-- A_Expr.kind no probed instance had), MERGE's INSERT column named as no statement names one (a
-- NULL ResTarget.val, refused by name), DROP of an option the corpus does not drop.
UPDATE t SET (a, b) = VOW(1, DEFAULT);
SELECT NULLIF(a, 0 # 1), NULLIF(a, b + c) FROM t;
MERGE INTO target t USING source s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, val2) OVERRIDING USER VALUE VALUES (s.id, DEFAULT);
ALTER SERVER srv VERSION '16' OPTIONS (SET host 'bar', DROP ort);
-- fuzz_parse, 2026-12-02: a List where CREATE OPERATOR's rightarg had only TypeNames in the corpus
-- (a List of names, as commutator takes it); a RowExpr of ON CONFLICT's SET holding an A_Expr
CREATE OPERATOR <~> (leftarg = int, rightarg = OPERATOR(s.<~>));
INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET (a, b) = (x & y, DEFAULT);
-- 2026-12-03: the union in parents the corpus does not show refused what the parser leaves so
-- there (found by fuzz_parse): a one-argument call in GROUPING SETS or a multiple assignment's
-- ROW (FuncCall.args mincells=2, from position(a IN b) cut to one argument), an option without a
-- value under DROP where no statement of the corpus has one (DefElem.arg nonnull).
SELECT a FROM t GROUP BY GROUPING SETS (lower(b), (c));
SELECT a FROM t GROUP BY ROLLUP (lower(b)), CUBE (upper(c));
UPDATE t SET (a) = ROW(f(5));
SELECT XMLROOT(f(x), VERSION '1.0', STANDALONE YES);
