-- Scalar expressions: operators, predicates, CASE, casts, arrays, rows, field selection, COLLATE, SQL value functions, special syntax.

-- arithmetic, comparison and generic operators
SELECT 1 + 2 * 3 - 4 / 5 % 6 ^ 7;
SELECT a < b, a <= b, a > b, a >= b, a = b, a <> b, a != b FROM t;
SELECT -a, +a, - -a, @ a, |/ 25, ||/ 27, ~ 5 FROM t;
SELECT !! 5;
SELECT a & b, a | b, a # b, a << 2, a >> 1 FROM t;
SELECT 'a' || 'b' || 3;
SELECT a OPERATOR(pg_catalog.+) b FROM t;
SELECT OPERATOR(pg_catalog.-) 5;
SELECT a OPERATOR(myschema.===) b FROM t;
SELECT box '((0,0),(1,1))' && box '((0,0),(2,2))';
SELECT point '(1,1)' <-> point '(2,2)';
SELECT a @> b, a <@ b, a ~ 'x', a !~* 'y', a ~~ 'z%' FROM t;

-- boolean logic
SELECT a AND b OR NOT c FROM t;
SELECT NOT (a OR b) AND (c OR d) FROM t;

-- IS predicates
SELECT a IS NULL, a IS NOT NULL, a ISNULL, a NOTNULL FROM t;
SELECT a IS TRUE, a IS NOT TRUE, a IS FALSE, a IS NOT FALSE, a IS UNKNOWN, a IS NOT UNKNOWN FROM t;
SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b FROM t;
SELECT s IS NORMALIZED, s IS NFC NORMALIZED, s IS NOT NFKD NORMALIZED FROM t;
SELECT ROW(1, 2) IS NULL;

-- BETWEEN
SELECT a BETWEEN 1 AND 10 FROM t;
SELECT a NOT BETWEEN 1 AND 10 FROM t;
SELECT a BETWEEN SYMMETRIC 10 AND 1 FROM t;
SELECT a NOT BETWEEN SYMMETRIC 10 AND 1 FROM t;
SELECT a BETWEEN ASYMMETRIC 1 AND 2 FROM t;

-- IN lists
SELECT a IN (1, 2, 3) FROM t;
SELECT a NOT IN ('x', 'y') FROM t;
SELECT (a, b) IN ((1, 2), (3, 4)) FROM t;

-- pattern matching
SELECT s LIKE 'a%', s NOT LIKE '_b', s LIKE 'a!%' ESCAPE '!' FROM t;
SELECT s ILIKE 'a%', s NOT ILIKE 'b%' ESCAPE '#' FROM t;
SELECT s SIMILAR TO '(a|b)%', s NOT SIMILAR TO 'c*' ESCAPE '\' FROM t;
SELECT s ~ '^a', s ~* '^a', s !~ '^a' FROM t;

-- NULLIF, COALESCE, GREATEST, LEAST
SELECT NULLIF(a, 0), COALESCE(a, b, 0), GREATEST(a, b, c), LEAST(a, 1) FROM t;

-- CASE
SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END FROM t;
SELECT CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END FROM t;
SELECT CASE WHEN a IS NULL THEN CASE b WHEN 1 THEN 2 ELSE 3 END END FROM t;

-- casts and typed literals
SELECT a::int, a::text::varchar(10), CAST(a AS numeric(10, 2)) FROM t;
SELECT '1'::int4[], CAST('{1,2}' AS int[]);
SELECT date '2020-01-01', time '12:00', timestamp '2020-01-01 00:00:00', timestamptz '2020-01-01 00:00+02';
SELECT interval '1' year, interval '1-2' year to month, interval '1 2:03' day to minute;
SELECT interval '1 2:03:04.5' day to second(2), interval(3) '1 second', interval '10' second(1);
SELECT int '42', bool 'true', numeric '1.5', text 'x', bpchar 'y';
SELECT pg_catalog.int4 '7', myschema.mytype 'lit';
SELECT time with time zone '12:00+01', timestamp(3) without time zone 'now';
SELECT bit '101', varchar 'abc', char 'c', national character varying 'x';
SELECT 'abc'::character varying(5), 'x'::bit varying(5), 1::double precision, 1::real, 1::float(24), 1::float(53);
SELECT 1::smallint, 1::integer, 1::bigint, 1::decimal(5), 1::dec, 1::numeric, 1::boolean;
SELECT now()::timestamp(3) with time zone, now()::time(2) without time zone;
SELECT '1 day'::interval day to second(2), '1'::interval hour, '1'::interval minute to second;
SELECT '{}'::int[3][4], '{}'::int array[5], '{}'::text array, '{}'::"MyType"[];
SELECT x::setof_type, '(1,2)'::pg_catalog.point;
SELECT 'a'::char(3), 'b'::character(2), 'c'::nchar(1), 'd'::varchar, 'e'::national char varying(4);
SELECT '1'::json, '1'::jsonb, '<a/>'::xml;

-- array constructors, subscripts, slices
SELECT ARRAY[1, 2, 3], ARRAY[[1, 2], [3, 4]], ARRAY[]::int[];
SELECT arr[1], arr[1:2], arr[:2], arr[2:], arr[:], arr[1][2] FROM t;
SELECT (ARRAY[1, 2, 3])[2];
SELECT (SELECT ARRAY[1, 2])[1], ($1::int[])[2:3];
SELECT (f(x))[1:2] FROM t;
SELECT ARRAY(SELECT a FROM t);
SELECT a = ANY (ARRAY[1, 2]), a <> ALL ('{1,2}'::int[]) FROM t;

-- field selection and rows
SELECT (x).f, (x).*, (t.x).f.g FROM t;
SELECT (f(1)).a, (f(1)).*;
SELECT (ROW(1, 2)).f1;
SELECT ROW(1, 'a', NULL), ROW(), (1, 2, 3), ROW(t.*) FROM t;
SELECT (a, b) = (c, d), (a, b) < (1, 2), ROW(a, b) IS DISTINCT FROM ROW(c, d) FROM t;
SELECT (a, b) OVERLAPS (c, d) FROM t;
SELECT t FROM t;
SELECT arr[1].f FROM t WHERE false;

-- COLLATE
SELECT a COLLATE "C", b COLLATE pg_catalog."default", c COLLATE "en-US-x-icu" FROM t;
SELECT a < b COLLATE "C" FROM t;

-- AT TIME ZONE
SELECT ts AT TIME ZONE 'UTC', ts AT TIME ZONE INTERVAL '-08:00' AS local FROM t;
SELECT now() AT TIME ZONE 'Europe/Berlin' AT TIME ZONE 'UTC';

-- SQL value functions
SELECT CURRENT_DATE, CURRENT_TIME, CURRENT_TIME(3), CURRENT_TIMESTAMP, CURRENT_TIMESTAMP(2);
SELECT LOCALTIME, LOCALTIME(0), LOCALTIMESTAMP, LOCALTIMESTAMP(6);
SELECT CURRENT_ROLE, CURRENT_USER, SESSION_USER, USER, CURRENT_CATALOG, CURRENT_SCHEMA;

-- special function syntax
SELECT EXTRACT(year FROM ts), EXTRACT(EPOCH FROM ts), EXTRACT('dow' FROM ts), EXTRACT(hour FROM interval '3 hours') FROM t;
SELECT OVERLAY('Txxxxas' PLACING 'hom' FROM 2 FOR 4), OVERLAY(s PLACING 'x' FROM 2) FROM t;
SELECT POSITION('om' IN 'Thomas');
SELECT SUBSTRING('Thomas' FROM 2 FOR 3), SUBSTRING('Thomas' FROM 3), SUBSTRING('Thomas' FOR 2), SUBSTRING('Thomas', 2, 3);
SELECT SUBSTRING('Thomas' SIMILAR '%#"o_a#"_' ESCAPE '#'), SUBSTRING('Thomas' FROM '%#"o_a#"_' FOR '#');
SELECT TRIM('  x  '), TRIM(BOTH 'x' FROM 'xax'), TRIM(LEADING FROM '  a'), TRIM(TRAILING 'y' FROM 'ayy'), TRIM(FROM ' z '), TRIM(BOTH FROM 'q', 'r');
SELECT TREAT(x AS mytype) FROM t;
SELECT NORMALIZE(s), NORMALIZE(s, NFKC) FROM t;
SELECT COLLATION FOR ('foo'), COLLATION FOR (a) FROM t;
SELECT EXTRACT(day FROM date '2020-02-03') + 1;

-- parameters
SELECT $1, $2::int, $3[1], ($4).f;

-- function calls and named arguments
SELECT f(), f(1), s.f(a, b), "F"(1) FROM t;
SELECT f(a => 1, b := 2), f(1, c => 3);
SELECT f(VARIADIC ARRAY[1, 2]), format('%s %s', VARIADIC ARRAY['a', 'b']);
SELECT pg_catalog.upper('x'), public.lower('Y');

-- IS DOCUMENT and other xml predicates
SELECT x IS DOCUMENT, x IS NOT DOCUMENT FROM t;

-- default keyword in expressions context and misc
SELECT a FROM t WHERE a = DEFAULT;
SELECT EXISTS (SELECT 1) AND NOT EXISTS (SELECT 2);
SELECT 'x' COLLATE "C" || 'y';
