-- PostgreSQL 16 added the vertical tab (\v) to the scanner's white space: each statement holds one
-- between a minus and its number, or around a string continuation (normalize measures these
-- constants with the version's scanner rules: schema/libpg_query.txt, since:16).
SELECT -1;
SELECT -  2.5, 3  +  4;
SELECT 'a'
'b';
