-- Regression statements that broke hand-written parse-tree converters in the past.

-- DISTINCT: empty distinctClause list vs. DISTINCT ON expression list
SELECT DISTINCT a FROM t;
SELECT DISTINCT ON (a) a, b FROM t;
SELECT DISTINCT ON (a, b) a, b, c FROM t ORDER BY a, b, c;
SELECT DISTINCT * FROM t;

-- SQLValueFunction without and with typmod
SELECT CURRENT_TIMESTAMP;
SELECT CURRENT_TIMESTAMP(0), LOCALTIME(3);
SELECT CURRENT_USER, USER, CURRENT_SCHEMA;

-- SQL-standard function bodies (statements separated by semicolons inside BEGIN ATOMIC)
CREATE FUNCTION ba_ret(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC RETURN x + 1; END;
CREATE FUNCTION ba_multi(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC INSERT INTO log VALUES (x); SELECT 1; RETURN x; END;
CREATE PROCEDURE ba_proc() LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END;
CREATE FUNCTION ret_only() RETURNS text RETURN 'x';

-- partition bounds: MINVALUE/MAXVALUE are ColumnRefs, IN lists, hash modulus, DEFAULT
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (1, MINVALUE) TO (10, MAXVALUE);
CREATE TABLE p3 PARTITION OF p FOR VALUES IN (1, 2, 3);
CREATE TABLE p4 PARTITION OF p FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE p5 PARTITION OF p DEFAULT;
CREATE TABLE pr (a int) PARTITION BY RANGE (a);
CREATE TABLE pl (a int) PARTITION BY LIST (a);
CREATE TABLE ph (a int) PARTITION BY HASH (a);

-- function parameter modes (char-valued enum FunctionParameterMode: i, o, b, v, t, d)
CREATE FUNCTION modes(IN a int, OUT b int, INOUT c int, VARIADIC d int[]) LANGUAGE sql AS 'SELECT 1, 2';
CREATE FUNCTION modes_default(a int, b int DEFAULT 0) RETURNS int LANGUAGE sql AS 'SELECT a + b';
CREATE FUNCTION modes_table(x int) RETURNS TABLE (y int, z text) LANGUAGE sql AS 'SELECT 1, ''a''';
CREATE FUNCTION modes_out_only(OUT r int) LANGUAGE sql AS 'SELECT 1';
DROP FUNCTION modes(IN int, INOUT int, VARIADIC int[]);

-- trivial constants: empty string, NULL, negative numbers
SELECT '';
SELECT NULL;
SELECT -5;
SELECT -2147483648;
SELECT 4294967296;
SELECT -0.0;
SELECT '', NULL, -5, 0, false;

-- deep but reasonable nesting
SELECT ((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))));
SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT 1))))))))))))))))))));
SELECT 1 + (2 * (3 - (4 / (5 + (6 * (7 - (8 / (9 + (10 * (11 - 12))))))))));
SELECT CASE WHEN a THEN CASE WHEN b THEN CASE WHEN c THEN CASE WHEN d THEN 1 END END END END FROM t;
SELECT f(g(h(i(j(k(l(m(n(o(1))))))))));
SELECT ARRAY[ARRAY[ARRAY[ARRAY[1]]]];
SELECT ((((((((((a)).b)).c)))))) FROM t;
SELECT NOT NOT NOT NOT NOT true;
SELECT - - - - - 1;
SELECT 1 WHERE (1 = 1 AND (2 = 2 OR (3 = 3 AND (4 = 4 OR (5 = 5)))));

-- other historical trouble spots
SELECT * FROM t WHERE a IN (1);
SELECT * FROM t WHERE a IN (SELECT 1);
SELECT count(*) FROM t;
SELECT count(DISTINCT a) FROM t;
SELECT 1 AS "select", 2 AS "from", 3 AS "where";
SELECT t.a AS "A", t."B" FROM t;
SELECT a FROM t ORDER BY a DESC NULLS FIRST;
SELECT interval '1 day', interval '1' day, '1 day'::interval;
SELECT 'a'::"char", 'b'::char, 'c'::character;
SELECT * FROM t LIMIT ALL;
SELECT * FROM t OFFSET 0;
SELECT x FROM t GROUP BY ();
INSERT INTO t DEFAULT VALUES;
UPDATE t SET (a, b) = ROW(1, 2);
SELECT ROW(), ROW(1);
VALUES (DEFAULT);
SELECT $$$$;
-- empty strings the protocol turns into NULL: libpg_query's deparser crashes on the first and
-- writes IS NULL for the second; pgbind deparses both right (checked by parsing back)
ALTER TYPE mood ADD VALUE '';
COMMENT ON TABLE t IS '';
-- ... and libpg_query prints the right SQL for these from NULL: so must pgbind
CREATE TABLESPACE regress_tblspace LOCATION '';
CREATE SUBSCRIPTION regress_addr_sub CONNECTION '' PUBLICATION bar WITH (connect = false, slot_name = NONE);
-- COPY options the grammar accepts without a value (libpg_query's deparser crashes on them: pgbind refuses)
COPY t FROM STDIN (format);
COPY t TO STDOUT (delimiter, header);
-- COPY options with a value of another kind than the deparser reads (found by fuzzing): before
-- 18 its deparser crashes on them, so pgbind refuses them there; 18 raises an error
COPY t FROM STDIN (null (b, c));
COPY t FROM STDIN (format *);
COPY t FROM STDIN (force_null *);
COPY t FROM STDIN (force_null 5);
