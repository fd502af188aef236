-- SET TIME ZONE INTERVAL without a field qualifier: libpg_query 17's deparser dies of SIGSEGV in
-- deparseIntervalTypmods (issue 55); 15's writes SET timezone TO, 18's returns an error.
SET TIME ZONE INTERVAL '1 hour';
