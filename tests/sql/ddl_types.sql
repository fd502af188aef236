-- Types and type-related objects: enum/range/composite/base/shell types, domains, casts, conversions, collations, operators, operator classes and families.

-- CREATE TYPE
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE empty_enum AS ENUM ();
CREATE TYPE floatrange AS RANGE (subtype = float8, subtype_diff = float8mi);
CREATE TYPE tr AS RANGE (SUBTYPE = timestamp, MULTIRANGE_TYPE_NAME = trs, SUBTYPE_OPCLASS = timestamp_ops, COLLATION = "C", CANONICAL = f, SUBTYPE_DIFF = g);
CREATE TYPE complex AS (r double precision, i double precision);
CREATE TYPE empty_comp AS ();
CREATE TYPE comp2 AS (a text COLLATE "C", b int[]);
CREATE TYPE shell_t;
CREATE TYPE box3d (INPUT = box3d_in, OUTPUT = box3d_out, INTERNALLENGTH = 48, ALIGNMENT = double, STORAGE = plain);
CREATE TYPE mybase (INPUT = my_in, OUTPUT = my_out, RECEIVE = my_recv, SEND = my_send, TYPMOD_IN = tin, TYPMOD_OUT = tout, ANALYZE = an, SUBSCRIPT = sub, INTERNALLENGTH = VARIABLE, PASSEDBYVALUE, CATEGORY = 'U', PREFERRED = false, DEFAULT = 'x', ELEMENT = int4, DELIMITER = ',', COLLATABLE = true, LIKE = text);

-- ALTER TYPE
ALTER TYPE mood ADD VALUE 'ecstatic';
ALTER TYPE mood ADD VALUE IF NOT EXISTS 'meh' BEFORE 'ok';
ALTER TYPE mood ADD VALUE 'great' AFTER 'happy';
ALTER TYPE mood RENAME VALUE 'sad' TO 'unhappy';
ALTER TYPE complex ADD ATTRIBUTE z float8;
ALTER TYPE complex DROP ATTRIBUTE IF EXISTS z CASCADE;
ALTER TYPE complex ALTER ATTRIBUTE r SET DATA TYPE numeric COLLATE "C" RESTRICT;
ALTER TYPE complex ALTER ATTRIBUTE i TYPE numeric, ADD ATTRIBUTE k int;
ALTER TYPE complex RENAME ATTRIBUTE r TO re CASCADE;
ALTER TYPE complex RENAME TO cplx;
ALTER TYPE cplx OWNER TO bob;
ALTER TYPE cplx SET SCHEMA s;
ALTER TYPE mybase SET (SEND = NONE, RECEIVE = my_recv2, STORAGE = extended);
DROP TYPE mood;
DROP TYPE IF EXISTS cplx, floatrange CASCADE;

-- domains
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE DOMAIN us_zip text COLLATE "C" DEFAULT '00000' CONSTRAINT zip_chk CHECK (VALUE ~ '^\d{5}$') NOT NULL;
CREATE DOMAIN nullable_d AS int NULL;
ALTER DOMAIN posint SET DEFAULT 1;
ALTER DOMAIN posint DROP DEFAULT;
ALTER DOMAIN posint SET NOT NULL;
ALTER DOMAIN posint DROP NOT NULL;
ALTER DOMAIN posint ADD CONSTRAINT lt_100 CHECK (VALUE < 100) NOT VALID;
ALTER DOMAIN posint ADD CHECK (VALUE <> 50);
ALTER DOMAIN posint VALIDATE CONSTRAINT lt_100;
ALTER DOMAIN posint DROP CONSTRAINT lt_100 CASCADE;
ALTER DOMAIN posint DROP CONSTRAINT IF EXISTS nope;
ALTER DOMAIN posint RENAME CONSTRAINT a TO b;
ALTER DOMAIN posint RENAME TO positive_int;
ALTER DOMAIN positive_int OWNER TO bob;
ALTER DOMAIN positive_int SET SCHEMA s;
DROP DOMAIN positive_int;
DROP DOMAIN IF EXISTS us_zip, nullable_d RESTRICT;

-- casts
CREATE CAST (bigint AS int4) WITH FUNCTION int4(bigint) AS ASSIGNMENT;
CREATE CAST (mytype AS text) WITH FUNCTION s.to_text AS IMPLICIT;
CREATE CAST (text AS mytype) WITHOUT FUNCTION;
CREATE CAST (int4 AS mood) WITH INOUT;
DROP CAST (bigint AS int4);
DROP CAST IF EXISTS (text AS mytype) CASCADE;

-- conversions
CREATE CONVERSION myconv FOR 'UTF8' TO 'LATIN1' FROM utf8_to_iso8859_1;
CREATE DEFAULT CONVERSION s.myconv2 FOR 'LATIN1' TO 'UTF8' FROM iso8859_1_to_utf8;
ALTER CONVERSION myconv RENAME TO myconv_r;
ALTER CONVERSION myconv_r OWNER TO bob;
ALTER CONVERSION myconv_r SET SCHEMA s;
DROP CONVERSION IF EXISTS myconv_r CASCADE;

-- collations
CREATE COLLATION german (provider = icu, locale = 'de-DE');
CREATE COLLATION IF NOT EXISTS french (LC_COLLATE = 'fr_FR.utf8', LC_CTYPE = 'fr_FR.utf8');
CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false, version = '1');
CREATE COLLATION german2 FROM german;
CREATE COLLATION "C2" FROM "C";
ALTER COLLATION german REFRESH VERSION;
ALTER COLLATION german RENAME TO deutsch;
ALTER COLLATION deutsch OWNER TO bob;
ALTER COLLATION deutsch SET SCHEMA s;
DROP COLLATION IF EXISTS deutsch, french;

-- operators
CREATE OPERATOR === (LEFTARG = box, RIGHTARG = box, FUNCTION = area_equal_function, COMMUTATOR = ===, NEGATOR = !==, RESTRICT = area_restriction_function, JOIN = area_join_function, HASHES, MERGES);
CREATE OPERATOR s.@@@ (PROCEDURE = f, RIGHTARG = int);
CREATE OPERATOR <~> (leftarg = int, rightarg = int, function = f2, commutator = OPERATOR(s.<~>));
ALTER OPERATOR === (box, box) OWNER TO bob;
ALTER OPERATOR === (box, box) SET SCHEMA s;
ALTER OPERATOR s.@@@ (NONE, int) SET (RESTRICT = NONE, JOIN = NONE);
ALTER OPERATOR <~> (int, int) SET (COMMUTATOR = <~>, NEGATOR = !<~>, HASHES = true, MERGES = false);
DROP OPERATOR ===(box, box);
DROP OPERATOR IF EXISTS s.@@@ (NONE, int), <~> (int, int) CASCADE;

-- operator classes and families
CREATE OPERATOR CLASS gist__int_ops DEFAULT FOR TYPE _int4 USING gist AS OPERATOR 3 &&, OPERATOR 6 = (anyarray, anyarray), OPERATOR 7 @>, OPERATOR 8 <@ FOR SEARCH, OPERATOR 15 <-> (point, point) FOR ORDER BY float_ops, FUNCTION 1 g_int_consistent (internal, _int4, smallint, oid, internal), FUNCTION 2 (int4, int4) g_int_union (internal, internal), STORAGE _int4;
CREATE OPERATOR CLASS my_ops FOR TYPE int USING btree FAMILY my_fam AS OPERATOR 1 <, FUNCTION 1 btint4cmp(int, int);
CREATE OPERATOR FAMILY my_fam USING btree;
ALTER OPERATOR FAMILY my_fam USING btree ADD OPERATOR 1 < (int4, int2), FUNCTION 1 btint42cmp(int4, int2);
ALTER OPERATOR FAMILY my_fam USING btree DROP OPERATOR 1 (int4, int2), FUNCTION 1 (int4, int2);
ALTER OPERATOR FAMILY my_fam USING btree RENAME TO my_fam2;
ALTER OPERATOR FAMILY my_fam2 USING btree OWNER TO bob;
ALTER OPERATOR FAMILY my_fam2 USING btree SET SCHEMA s;
ALTER OPERATOR CLASS my_ops USING btree RENAME TO my_ops2;
ALTER OPERATOR CLASS my_ops2 USING btree OWNER TO bob;
ALTER OPERATOR CLASS my_ops2 USING btree SET SCHEMA s;
DROP OPERATOR CLASS my_ops2 USING btree;
DROP OPERATOR CLASS IF EXISTS s.my_ops2 USING btree CASCADE;
DROP OPERATOR FAMILY IF EXISTS my_fam2 USING btree RESTRICT;
