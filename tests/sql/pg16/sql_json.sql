-- SQL/JSON that the raw grammar of PostgreSQL 16 builds: IS JSON, the constructors and the
-- aggregates (17's query functions, JSON_TABLE, JSON(), JSON_SCALAR and JSON_SERIALIZE are in
-- tests/sql/pg17/sql_json.sql). Run for PostgreSQL 16 and later only: 15's grammar has none of it.

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

-- where the constant walk of normalize goes in these kinds (checked against 17 and 18)
SELECT JSON_ARRAYAGG(v + 1 ORDER BY v + 2 NULL ON NULL) FILTER (WHERE v > 3) OVER (ORDER BY 4 + v) FROM t;
SELECT JSON_OBJECTAGG(k || 'x': v * 2) FILTER (WHERE v < 5) FROM t GROUP BY 1;
SELECT JSON_OBJECT('a' VALUE JSON_ARRAY(1, 2 RETURNING jsonb), 'b': JSON_OBJECT('c': 3)) IS JSON OBJECT;
SELECT JSON_ARRAY(SELECT v + 5 FROM t WHERE v > 6 RETURNING jsonb FORMAT JSON);
