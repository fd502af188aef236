/*
 * ref.c -- what examples/tour.c must print, from libpg_query's own entry points (the fingerprint,
 * the normalized text, the protobuf and JSON of the same statement); the rewrite's text is the
 * statement with its first table renamed and its WHERE dropped, which this checks parses.
 */
#include <pg_query.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	const char *sql = "SELECT DISTINCT a FROM t JOIN u USING (id) WHERE b > 1";
	const char *rewritten = "SELECT DISTINCT a FROM t_archive JOIN u USING (id)";
	PgQueryFingerprintResult fp = pg_query_fingerprint(sql);
	PgQueryNormalizeResult norm = pg_query_normalize(sql);
	PgQueryProtobufParseResult pb = pg_query_parse_protobuf(sql);
	PgQueryParseResult json = pg_query_parse(sql);
	PgQueryParseResult back = pg_query_parse(rewritten);
	if (fp.error || norm.error || pb.error || json.error || back.error) {
		fprintf(stderr, "ref: libpg_query failed on the tour's statements\n");
		return 1;
	}
	printf("fingerprint: %016llx\n", (unsigned long long)fp.fingerprint);
	printf("normalized:  %s\n", norm.normalized_query);
	printf("protobuf:    %zu bytes; JSON: %zu bytes\n", pb.parse_tree.len, strlen(json.parse_tree));
	printf("tables:      2\n");
	printf("rewritten:   %s\n", rewritten);
	return 0;
}
