-- SQL/JSON, which the raw grammar of PostgreSQL 16 (constructors, IS JSON) and 17 (query
-- functions, JSON_TABLE, JSON(), JSON_SCALAR, JSON_SERIALIZE) builds. Run for PostgreSQL 17 and
-- later only: 15's grammar has none of it.

-- IS JSON predicates (JsonIsPredicate, JsonFormat)
SELECT js IS JSON, js IS NOT JSON OBJECT, js IS JSON ARRAY WITH UNIQUE KEYS, js IS JSON SCALAR FROM t;
SELECT '{"a":1}' IS JSON VALUE WITHOUT UNIQUE KEYS, js::text IS NOT JSON SCALAR FROM t;

-- constructors (JsonObjectConstructor, JsonArrayConstructor, JsonKeyValue, JsonValueExpr,
-- JsonOutput, JsonReturning)
SELECT JSON_OBJECT('a': 1, 'b' VALUE 'x' ABSENT ON NULL WITH UNIQUE KEYS RETURNING jsonb);
SELECT JSON_OBJECT(KEY 'k' VALUE v FORMAT JSON NULL ON NULL) FROM t;
SELECT JSON_ARRAY(1, 'two', NULL NULL ON NULL RETURNING text FORMAT JSON);
SELECT JSON_ARRAY(SELECT x FROM t ORDER BY x RETURNING json);

-- aggregates (JsonObjectAgg, JsonArrayAgg, JsonAggConstructor)
SELECT JSON_OBJECTAGG(k: v ABSENT ON NULL WITH UNIQUE KEYS RETURNING jsonb) FILTER (WHERE v > 0) FROM t;
SELECT JSON_ARRAYAGG(v ORDER BY v DESC NULL ON NULL) OVER (PARTITION BY g) FROM t;

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
SELECT JSON_ARRAYAGG(v + 1 ORDER BY v + 2 NULL ON NULL) FILTER (WHERE v > 3) OVER (ORDER BY 4 + v) FROM t;
SELECT JSON_OBJECTAGG(k || 'x': v * 2) FILTER (WHERE v < 5) FROM t GROUP BY 1;
SELECT * FROM JSON_TABLE(js, '$[*]' COLUMNS (a int PATH '$.a' DEFAULT 7 ON EMPTY DEFAULT 8 ON ERROR, NESTED PATH '$.b' COLUMNS (c text PATH '$.c' DEFAULT 'n' ON EMPTY))) AS jt;
SELECT JSON_VALUE(js, '$.a' PASSING 1 + 2 AS x, 'y' AS y RETURNING numeric(10, 2) DEFAULT 1.5 ON EMPTY DEFAULT -1 ON ERROR) FROM t;
SELECT JSON_QUERY(js, '$' || 'a' RETURNING text FORMAT JSON OMIT QUOTES EMPTY OBJECT ON ERROR) FROM t;
SELECT JSON_EXISTS(js, '$.a' PASSING 'q' AS q UNKNOWN ON ERROR), JSON(js::text || '{}'), JSON_SCALAR(1 + 2);
SELECT JSON_OBJECT('a' VALUE JSON_ARRAY(1, 2 RETURNING jsonb), 'b': JSON_OBJECT('c': 3)) IS JSON OBJECT;
SELECT JSON_ARRAY(SELECT v + 5 FROM t WHERE v > 6 RETURNING jsonb FORMAT JSON);
SELECT JSON_SERIALIZE(JSON('{"x": 9}') RETURNING varchar(20));
