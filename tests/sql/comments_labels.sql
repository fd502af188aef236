-- COMMENT ON and SECURITY LABEL for every kind of object.

-- COMMENT ON relations and columns
COMMENT ON TABLE t IS 'a table';
COMMENT ON TABLE s.t IS NULL;
COMMENT ON COLUMN t.a IS 'column a';
COMMENT ON COLUMN s.t.a IS '';
COMMENT ON VIEW v IS 'view';
COMMENT ON MATERIALIZED VIEW mv IS 'mv';
COMMENT ON INDEX i IS 'index';
COMMENT ON SEQUENCE seq IS 'seq';
COMMENT ON FOREIGN TABLE ft IS 'ft';
COMMENT ON CONSTRAINT t_pkey ON t IS 'pk';
COMMENT ON CONSTRAINT chk ON DOMAIN posint IS 'domain check';
COMMENT ON TRIGGER trg ON t IS 'trigger';
COMMENT ON RULE r ON t IS 'rule';
COMMENT ON POLICY p ON t IS 'policy';

-- COMMENT ON routines, types and operators
COMMENT ON FUNCTION f(int, text) IS 'function';
COMMENT ON PROCEDURE p(int) IS 'procedure';
COMMENT ON ROUTINE r IS 'routine';
COMMENT ON AGGREGATE myagg(int) IS 'aggregate';
COMMENT ON AGGREGATE star_agg(*) IS 'star aggregate';
COMMENT ON AGGREGATE my_pct(float8 ORDER BY float8) IS 'ordered-set aggregate';
COMMENT ON OPERATOR ===(box, box) IS 'operator';
COMMENT ON OPERATOR - (NONE, int) IS 'prefix operator';
COMMENT ON OPERATOR CLASS my_ops USING btree IS 'opclass';
COMMENT ON OPERATOR FAMILY my_fam USING btree IS 'opfamily';
COMMENT ON TYPE mood IS 'type';
COMMENT ON DOMAIN posint IS 'domain';
COMMENT ON CAST (int AS text) IS 'cast';
COMMENT ON COLLATION german IS 'collation';
COMMENT ON CONVERSION myconv IS 'conversion';
COMMENT ON TRANSFORM FOR hstore LANGUAGE plperl IS 'transform';

-- COMMENT ON database-level and global objects
COMMENT ON SCHEMA s IS 'schema';
COMMENT ON DATABASE db IS 'database';
COMMENT ON TABLESPACE ts IS 'tablespace';
COMMENT ON ROLE bob IS 'role';
COMMENT ON EXTENSION hstore IS 'extension';
COMMENT ON LANGUAGE plpgsql IS 'language';
COMMENT ON PROCEDURAL LANGUAGE plperl IS 'procedural language';
COMMENT ON ACCESS METHOD heap2 IS 'access method';
COMMENT ON EVENT TRIGGER etrg IS 'event trigger';
COMMENT ON FOREIGN DATA WRAPPER pgw IS 'fdw';
COMMENT ON SERVER srv IS 'server';
COMMENT ON PUBLICATION pub IS 'publication';
COMMENT ON SUBSCRIPTION sub IS 'subscription';
COMMENT ON STATISTICS st1 IS 'statistics';
COMMENT ON LARGE OBJECT 12345 IS 'large object';
COMMENT ON TEXT SEARCH CONFIGURATION cfg IS 'ts config';
COMMENT ON TEXT SEARCH DICTIONARY d IS 'ts dict';
COMMENT ON TEXT SEARCH PARSER p IS 'ts parser';
COMMENT ON TEXT SEARCH TEMPLATE tm IS 'ts template';

-- SECURITY LABEL
SECURITY LABEL ON TABLE t IS 'system_u:object_r:sepgsql_table_t:s0';
SECURITY LABEL FOR selinux ON COLUMN t.a IS 'label';
SECURITY LABEL FOR dummy ON ROLE bob IS NULL;
SECURITY LABEL ON FUNCTION f(int) IS 'label';
SECURITY LABEL ON SCHEMA s IS 'label';
SECURITY LABEL ON DATABASE db IS 'label';
SECURITY LABEL ON TABLESPACE ts IS 'label';
SECURITY LABEL ON TYPE mood IS 'label';
SECURITY LABEL ON DOMAIN posint IS 'label';
SECURITY LABEL ON LARGE OBJECT 42 IS 'label';
SECURITY LABEL ON AGGREGATE myagg(int) IS 'label';
SECURITY LABEL ON EVENT TRIGGER etrg IS 'label';
SECURITY LABEL ON PUBLICATION pub IS 'label';
SECURITY LABEL ON MATERIALIZED VIEW mv IS 'label';
SECURITY LABEL ON PROCEDURE p(int) IS 'label';
