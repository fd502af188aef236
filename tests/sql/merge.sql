-- MERGE (new in PostgreSQL 15) with every WHEN clause form.

-- matched update / delete, not matched insert
MERGE INTO target t USING source s ON t.id = s.id WHEN MATCHED THEN UPDATE SET val = s.val WHEN NOT MATCHED THEN INSERT (id, val) VALUES (s.id, s.val);
MERGE INTO target AS t USING source AS s ON t.id = s.id WHEN MATCHED AND s.deleted THEN DELETE WHEN MATCHED THEN UPDATE SET val = s.val, n = t.n + 1;

-- DO NOTHING branches
MERGE INTO target t USING source s ON t.id = s.id WHEN MATCHED THEN DO NOTHING;
MERGE INTO target t USING source s ON t.id = s.id WHEN NOT MATCHED AND s.val IS NULL THEN DO NOTHING WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.val);

-- INSERT variants
MERGE INTO target t USING source s ON t.id = s.id WHEN NOT MATCHED THEN INSERT DEFAULT VALUES;
MERGE INTO target t USING source s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) OVERRIDING SYSTEM VALUE VALUES (s.id);
MERGE INTO target t USING source s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, val) OVERRIDING USER VALUE VALUES (s.id, DEFAULT);
MERGE INTO target t USING source s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, DEFAULT);

-- UPDATE variants
MERGE INTO target t USING source s ON t.id = s.id WHEN MATCHED THEN UPDATE SET (a, b) = (s.a, s.b);
MERGE INTO target t USING source s ON t.id = s.id WHEN MATCHED AND t.a <> s.a THEN UPDATE SET a = DEFAULT, b = (SELECT max(x) FROM u);

-- sources: subquery, VALUES, ONLY target, CTE
MERGE INTO ONLY target t USING (SELECT id, sum(v) AS v FROM src GROUP BY id) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = t.v + s.v;
MERGE INTO target USING (VALUES (1, 'a'), (2, 'b')) AS v(id, name) ON target.id = v.id WHEN NOT MATCHED THEN INSERT (id, name) VALUES (v.id, v.name);
WITH s AS (SELECT * FROM source) MERGE INTO target t USING s ON t.id = s.id WHEN MATCHED THEN DELETE;
MERGE INTO s.target t USING s.source JOIN other o ON o.k = source.k ON t.id = source.id WHEN MATCHED THEN DELETE;
MERGE INTO target t USING source s ON t.id = s.id AND t.v > $1 WHEN MATCHED AND $2 THEN UPDATE SET v = $3 WHEN MATCHED THEN DELETE WHEN NOT MATCHED AND s.v > 0 THEN INSERT (id, v) VALUES (s.id, s.v) WHEN NOT MATCHED THEN DO NOTHING;
