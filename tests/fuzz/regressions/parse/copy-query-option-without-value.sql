-- COPY of a query with an option the deparser of libpg_query before 18 reads as a string
-- without checking there is one: it crashes (15-4.0.0: SIGSEGV), as for a table (the other files)
COPY (SELECT 1) TO STDOUT (format);
