-- Full text search: parsers, dictionaries, templates, configurations (CREATE/ALTER/DROP) and text search expressions.

-- parsers and templates
CREATE TEXT SEARCH PARSER my_parser (START = prsd_start, GETTOKEN = prsd_nexttoken, END = prsd_end, LEXTYPES = prsd_lextype, HEADLINE = prsd_headline);
CREATE TEXT SEARCH TEMPLATE my_tmpl (INIT = dsimple_init, LEXIZE = dsimple_lexize);
ALTER TEXT SEARCH PARSER my_parser RENAME TO my_parser2;
ALTER TEXT SEARCH PARSER my_parser2 SET SCHEMA s;
ALTER TEXT SEARCH TEMPLATE my_tmpl RENAME TO my_tmpl2;
ALTER TEXT SEARCH TEMPLATE my_tmpl2 SET SCHEMA s;

-- dictionaries
CREATE TEXT SEARCH DICTIONARY my_dict (TEMPLATE = snowball, Language = english, StopWords = english);
CREATE TEXT SEARCH DICTIONARY syn (TEMPLATE = synonym, SYNONYMS = my_synonyms, CaseSensitive = true);
ALTER TEXT SEARCH DICTIONARY my_dict (StopWords = newrussian, Accept = false);
ALTER TEXT SEARCH DICTIONARY my_dict (dummy);
ALTER TEXT SEARCH DICTIONARY my_dict RENAME TO my_dict2;
ALTER TEXT SEARCH DICTIONARY my_dict2 OWNER TO bob;
ALTER TEXT SEARCH DICTIONARY my_dict2 SET SCHEMA s;

-- configurations
CREATE TEXT SEARCH CONFIGURATION my_cfg (PARSER = default);
CREATE TEXT SEARCH CONFIGURATION my_cfg2 (COPY = pg_catalog.english);
ALTER TEXT SEARCH CONFIGURATION my_cfg ADD MAPPING FOR asciiword, word WITH my_dict, english_stem;
ALTER TEXT SEARCH CONFIGURATION my_cfg ALTER MAPPING FOR asciiword WITH simple;
ALTER TEXT SEARCH CONFIGURATION my_cfg ALTER MAPPING REPLACE english_stem WITH my_dict;
ALTER TEXT SEARCH CONFIGURATION my_cfg ALTER MAPPING FOR word REPLACE english_stem WITH simple;
ALTER TEXT SEARCH CONFIGURATION my_cfg DROP MAPPING FOR hword;
ALTER TEXT SEARCH CONFIGURATION my_cfg DROP MAPPING IF EXISTS FOR email, url;
ALTER TEXT SEARCH CONFIGURATION my_cfg RENAME TO my_cfg_r;
ALTER TEXT SEARCH CONFIGURATION my_cfg_r OWNER TO bob;
ALTER TEXT SEARCH CONFIGURATION my_cfg_r SET SCHEMA s;

-- DROP
DROP TEXT SEARCH CONFIGURATION my_cfg_r;
DROP TEXT SEARCH CONFIGURATION IF EXISTS my_cfg2 CASCADE;
DROP TEXT SEARCH DICTIONARY s.my_dict2;
DROP TEXT SEARCH PARSER IF EXISTS s.my_parser2;
DROP TEXT SEARCH TEMPLATE s.my_tmpl2 RESTRICT;

-- text search expressions
SELECT to_tsvector('english', body) @@ to_tsquery('english', 'cat & !dog') FROM docs;
SELECT plainto_tsquery('fat rats') || websearch_to_tsquery('"fat rat" or cat');
SELECT ts_rank(tsv, q) AS rank FROM docs, phraseto_tsquery('quick fox') q WHERE tsv @@ q ORDER BY rank DESC;
SELECT 'a fat cat'::tsvector, 'fat & (rat | cat)'::tsquery, !! 'cat'::tsquery;
SELECT ts_headline('english', body, q, 'StartSel=<b>, StopSel=</b>') FROM docs, to_tsquery('x') q;
CREATE INDEX docs_fts ON docs USING gin (to_tsvector('english', body));
