-- SQL/JSON that the raw grammar of PostgreSQL 17 builds: the query functions, JSON_TABLE,
-- JSON(), JSON_SCALAR, JSON_SERIALIZE (16's IS JSON, constructors and aggregates are in
-- tests/sql/pg16/sql_json.sql); and MERGE ... RETURNING. Run for PostgreSQL 17 and later only.

-- JSON(), JSON_SCALAR, JSON_SERIALIZE (JsonParseExpr, JsonScalarExpr, JsonSerializeExpr)
SELECT JSON('{"a":1}' WITH UNIQUE KEYS), JSON_SCALAR(42), JSON_SERIALIZE('{"a":1}' RETURNING bytea);

-- query functions (JsonFuncExpr, JsonArgument, JsonBehavior)
SELECT JSON_EXISTS(js, '$.a ? (@ > $x)' PASSING 1 AS x FALSE ON ERROR) FROM t;
SELECT JSON_VALUE(js, '$.a' RETURNING int DEFAULT 0 ON EMPTY ERROR ON ERROR) FROM t;
SELECT JSON_QUERY(js, '$.a' RETURNING jsonb WITH CONDITIONAL WRAPPER KEEP QUOTES EMPTY ARRAY ON EMPTY) FROM t;

-- JSON_TABLE (JsonTable, JsonTableColumn, JsonTablePathSpec)
SELECT * FROM JSON_TABLE(
    '[{"a":1,"b":[1,2]}]'::jsonb, '$[*]' AS root PASSING 1 AS one
    COLUMNS (
        id FOR ORDINALITY,
        a int PATH '$.a' DEFAULT 0 ON EMPTY,
        raw jsonb FORMAT JSON PATH '$' WITHOUT WRAPPER,
        has_b bool EXISTS PATH '$.b',
        NESTED PATH '$.b[*]' AS bs COLUMNS (b int PATH '$')
    )
    ERROR ON ERROR
) AS jt;

-- MERGE ... RETURNING merge_action() (17)
MERGE INTO t USING s ON t.id = s.id
    WHEN MATCHED THEN UPDATE SET v = s.v
    WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)
    RETURNING merge_action(), t.*;

-- where the constant walk of normalize goes in these kinds (checked against 17 and 18)
SELECT * FROM JSON_TABLE(js, '$[*]' COLUMNS (a int PATH '$.a' DEFAULT 7 ON EMPTY DEFAULT 8 ON ERROR, NESTED PATH '$.b' COLUMNS (c text PATH '$.c' DEFAULT 'n' ON EMPTY))) AS jt;
SELECT JSON_VALUE(js, '$.a' PASSING 1 + 2 AS x, 'y' AS y RETURNING numeric(10, 2) DEFAULT 1.5 ON EMPTY DEFAULT -1 ON ERROR) FROM t;
SELECT JSON_QUERY(js, '$' || 'a' RETURNING text FORMAT JSON OMIT QUOTES EMPTY OBJECT ON ERROR) FROM t;
SELECT JSON_EXISTS(js, '$.a' PASSING 'q' AS q UNKNOWN ON ERROR), JSON(js::text || '{}'), JSON_SCALAR(1 + 2);
SELECT JSON_SERIALIZE(JSON('{"x": 9}') RETURNING varchar(20));
