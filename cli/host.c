/*
 * host.c -- the host cli/main.c passes every major's command (cli/major.h): the table of majors
 * built (build/majors/cli_table.c, written by mk/majors.mk) and the converters between majors'
 * trees (targets/c/runtime/pgbind_convert.h: the interpreter and each pair's generated tables,
 * libc only, the Makefile's CONV_OBJS), linked once into the command beside the majors' objects.
 */
#include "major.h"

const cli_Host cli_host = {
	.majors = cli_majors,
	.convert = pgbind_convert_protobuf,
	.has_pair = pgbind_convert_has_pair,
};
