-- Function and aggregate calls; CREATE/ALTER/DROP FUNCTION, PROCEDURE, AGGREGATE; CALL and DO.

-- aggregate calls
SELECT count(*), count(a), count(ALL a), count(DISTINCT a) FROM t;
SELECT string_agg(s, ',' ORDER BY s DESC NULLS LAST), array_agg(DISTINCT a ORDER BY a) FROM t;
SELECT sum(a) FILTER (WHERE a > 0), count(*) FILTER (WHERE b) FROM t;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a), mode() WITHIN GROUP (ORDER BY b DESC) FROM t;
SELECT rank(3) WITHIN GROUP (ORDER BY a) FILTER (WHERE a IS NOT NULL) FROM t;
SELECT percentile_disc(ARRAY[0.25, 0.75]) WITHIN GROUP (ORDER BY a) FROM t;
SELECT json_object_agg(k, v ORDER BY k) FROM t;
SELECT myagg(VARIADIC ARRAY[1, 2]) FROM t;
SELECT concat_ws(',', VARIADIC arr) FROM t;
SELECT f(a => 1, b => 'x'), g(x := 1), h(1, 2, c => 3);
SELECT s.f(*) FROM t;
SELECT count(*) OVER (), max(a) FROM t GROUP BY b;

-- CREATE FUNCTION with SQL and plpgsql bodies
CREATE FUNCTION add(a integer, b integer) RETURNS integer AS 'SELECT a + b' LANGUAGE sql IMMUTABLE STRICT;
CREATE OR REPLACE FUNCTION inc(int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN $1 + 1; END; $$;
CREATE FUNCTION f_c(int) RETURNS int AS 'mylib', 'f_c' LANGUAGE c;
CREATE FUNCTION noargs() RETURNS void LANGUAGE sql AS $$ $$;
CREATE FUNCTION setof_f() RETURNS SETOF t LANGUAGE sql STABLE AS 'SELECT * FROM t';
CREATE FUNCTION tab_f(n int) RETURNS TABLE (id int, name text) LANGUAGE sql AS $$ SELECT 1, 'x' $$;
CREATE FUNCTION out_f(IN a int, OUT b int, INOUT c text, VARIADIC d int[]) LANGUAGE sql AS 'SELECT 1, ''x''';
CREATE FUNCTION def_f(a int DEFAULT 1, b text = 'x') RETURNS text LANGUAGE sql AS $$ SELECT b $$;
CREATE FUNCTION type_f(x t.col%TYPE, y s.t.c%TYPE) RETURNS t.col%TYPE LANGUAGE sql AS 'SELECT x';
CREATE FUNCTION arr_f(int[], text[][], varchar(10) ARRAY) RETURNS bigint[] LANGUAGE sql AS 'SELECT NULL';
CREATE FUNCTION opts_f() RETURNS int LANGUAGE sql VOLATILE CALLED ON NULL INPUT SECURITY DEFINER LEAKPROOF PARALLEL SAFE COST 10 AS 'SELECT 1';
CREATE FUNCTION opts2_f() RETURNS SETOF int LANGUAGE sql RETURNS NULL ON NULL INPUT EXTERNAL SECURITY INVOKER NOT LEAKPROOF PARALLEL RESTRICTED ROWS 100 SUPPORT my_support AS 'SELECT 1';
CREATE FUNCTION cfg_f() RETURNS int LANGUAGE sql SET search_path = public, pg_temp SET work_mem FROM CURRENT PARALLEL UNSAFE AS 'SELECT 1';
CREATE FUNCTION win_f(int) RETURNS int LANGUAGE c WINDOW AS 'lib', 'sym';
CREATE FUNCTION trf_f(x hstore) RETURNS int LANGUAGE plperl TRANSFORM FOR TYPE hstore, FOR TYPE json AS $$ return 1; $$;
CREATE FUNCTION trig_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated := now(); RETURN NEW; END $$;
CREATE FUNCTION evt_f() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'ddl'; END $$;
CREATE FUNCTION named_out(a int, OUT sq int, OUT cube int) RETURNS record LANGUAGE sql AS 'SELECT a*a, a*a*a';
CREATE FUNCTION polymorphic(anyelement, anycompatiblearray) RETURNS anyelement LANGUAGE sql AS 'SELECT $1';

-- SQL-standard function bodies
CREATE FUNCTION atomic_add(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE RETURN a + b;
CREATE FUNCTION atomic_f(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; RETURN x * 2; END;
CREATE FUNCTION atomic_ins(v text) RETURNS void LANGUAGE sql BEGIN ATOMIC INSERT INTO log VALUES (v); UPDATE counters SET n = n + 1; END;
CREATE FUNCTION atomic_empty() RETURNS void LANGUAGE sql BEGIN ATOMIC END;
CREATE FUNCTION atomic_case(x int) RETURNS text BEGIN ATOMIC SELECT CASE WHEN x > 0 THEN 'pos' ELSE 'neg' END; END;

-- procedures
CREATE PROCEDURE p_insert(a int, INOUT b text DEFAULT NULL) LANGUAGE sql AS $$ INSERT INTO t VALUES (a) $$;
CREATE OR REPLACE PROCEDURE p_atomic(x int) LANGUAGE sql BEGIN ATOMIC INSERT INTO t VALUES (x); DELETE FROM u WHERE id = x; END;
CREATE PROCEDURE p_out(IN a int, OUT b int) LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$ BEGIN b := a; END $$;
CALL p_insert(1);
CALL p_insert(1, 'x');
CALL s.p_insert(a => 1, b => NULL);
CALL p_out(1, NULL);

-- ALTER FUNCTION / PROCEDURE / ROUTINE
ALTER FUNCTION add(integer, integer) IMMUTABLE STRICT COST 5;
ALTER FUNCTION add(int, int) RENAME TO add2;
ALTER FUNCTION add2(int, int) OWNER TO bob;
ALTER FUNCTION add2(int, int) SET SCHEMA other;
ALTER FUNCTION add2(int, int) SET work_mem = '64MB';
ALTER FUNCTION add2(int, int) SET search_path FROM CURRENT;
ALTER FUNCTION add2(int, int) RESET work_mem;
ALTER FUNCTION add2(int, int) RESET ALL;
ALTER FUNCTION add2(int, int) DEPENDS ON EXTENSION myext;
ALTER FUNCTION add2(int, int) NO DEPENDS ON EXTENSION myext;
ALTER FUNCTION noargs SECURITY INVOKER PARALLEL SAFE LEAKPROOF ROWS 5 SUPPORT s.sup;
ALTER FUNCTION out_f(IN int, INOUT text, VARIADIC int[]) CALLED ON NULL INPUT;
ALTER PROCEDURE p_insert(int, text) RENAME TO p_ins;
ALTER PROCEDURE p_ins OWNER TO CURRENT_USER;
ALTER PROCEDURE p_ins(int, text) SET SCHEMA s;
ALTER PROCEDURE p_out SECURITY INVOKER;
ALTER ROUTINE add2(int, int) RENAME TO add3;
ALTER ROUTINE p_ins(int, text) SET search_path TO DEFAULT;

-- DROP FUNCTION / PROCEDURE / ROUTINE
DROP FUNCTION add3(int, int);
DROP FUNCTION IF EXISTS inc(int), noargs() CASCADE;
DROP FUNCTION IF EXISTS s.f RESTRICT;
DROP FUNCTION out_f(IN a int, INOUT c text, VARIADIC d int[]);
DROP PROCEDURE p_ins(int, text);
DROP PROCEDURE IF EXISTS p_out CASCADE;
DROP ROUTINE IF EXISTS add3(int, int), p_atomic;

-- aggregates
CREATE AGGREGATE mysum(int) (SFUNC = int4pl, STYPE = int, INITCOND = '0');
CREATE AGGREGATE myavg(float8) (sfunc = float8_accum, stype = float8[], finalfunc = float8_avg, initcond = '{0,0,0}', parallel = safe, combinefunc = float8_combine);
CREATE OR REPLACE AGGREGATE my_agg(int, text) (SFUNC = f, STYPE = internal, FINALFUNC_EXTRA, FINALFUNC_MODIFY = READ_WRITE, MSFUNC = mf, MINVFUNC = mi, MSTYPE = internal, SORTOP = >);
CREATE AGGREGATE my_pct(float8 ORDER BY float8) (SFUNC = ordered_set_transition, STYPE = internal, FINALFUNC = percentile_disc_final, HYPOTHETICAL);
CREATE AGGREGATE my_va(VARIADIC "any" ORDER BY VARIADIC "any") (SFUNC = f, STYPE = internal);
CREATE AGGREGATE star_agg(*) (SFUNC = int8inc, STYPE = int8, INITCOND = 0);
CREATE AGGREGATE old_style (BASETYPE = int, SFUNC = int4pl, STYPE = int);
ALTER AGGREGATE mysum(int) RENAME TO mysum2;
ALTER AGGREGATE mysum2(int) OWNER TO alice;
ALTER AGGREGATE mysum2(int) SET SCHEMA s;
ALTER AGGREGATE star_agg(*) OWNER TO SESSION_USER;
ALTER AGGREGATE my_pct(float8 ORDER BY float8) RENAME TO my_pct2;
DROP AGGREGATE mysum2(int);
DROP AGGREGATE IF EXISTS star_agg(*), my_va(VARIADIC "any" ORDER BY VARIADIC "any") CASCADE;

-- DO blocks
DO $$ BEGIN RAISE NOTICE 'hi'; END $$;
DO LANGUAGE plpgsql $$ DECLARE x int := 1; BEGIN PERFORM x; END $$;
DO $body$ BEGIN NULL; END $body$ LANGUAGE plpgsql;
DO 'BEGIN NULL; END';
