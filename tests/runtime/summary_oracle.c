/*
 * summary_oracle.c -- writes tests/runtime/summary_cases.txt's expectations: for each line
 * "LIMIT<TAB>SQL" of standard input, "LIMIT<TAB>SQL<TAB>HEX", HEX being libpg_query's
 * pg_query_summary(SQL, 0, LIMIT) protobuf bytes ("ERROR" when it fails). Built by hand against
 * a libpg_query that has pg_query_summary (18 on), not by make:
 *   cc -I$TREE tests/runtime/summary_oracle.c $TREE/libpg_query.a -lpthread -lm -o summary_oracle
 */
#include "pg_query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char line[65536];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		char *tab = strchr(line, '\t');
		if (!tab || line[0] == '#')
			continue;
		*tab = '\0';
		PgQuerySummaryParseResult r = pg_query_summary(tab + 1, 0, atoi(line));
		printf("%s\t%s\t", line, tab + 1);
		if (r.error)
			fputs("ERROR", stdout);
		for (size_t i = 0; !r.error && i < r.summary.len; i++)
			printf("%02x", (unsigned char)r.summary.data[i]);
		putchar('\n');
		pg_query_free_summary_parse_result(r);
	}
	return 0;
}
