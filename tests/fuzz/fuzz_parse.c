/*
 * fuzz_parse.c -- libFuzzer target: arbitrary bytes as SQL text, verified as `pgbind verify`
 * verifies a file holding them (verify_sql: the same preparation and split, each statement
 * alone), so a kept input fails `pgbind verify` too. Whatever parses goes through every
 * comparison (bytes, decode, re-encode, nodes, deparse, fingerprint, scan); whatever does not
 * must fail the same way in libpg_query. A mismatch aborts, so the fuzzer keeps the input
 * (a tree that breaks the deparse contract is deparsed in a child, and compared too). Inputs are capped at 4 KiB: libpg_query's own recursive protobuf
 * writer (the oracle) overflows its stack on deeply nested input that pgbind refuses cleanly.
 */
#include "cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096 || memchr(data, '\0', size))
		return 0;
	char *sql = malloc(size + 1);
	if (!sql)
		return 0;
	memcpy(sql, data, size);
	sql[size] = '\0';
	long failed = verify_sql(sql);
	free(sql);
	if (failed)
		abort();
	return 0;
}
