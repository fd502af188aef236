/*
 * bench.h -- `pgbind bench`: pgbind's paths against libpg_query's own, timed side by side.
 *
 * cli_bench() takes the subcommand's arguments (argv[0] is "bench") and returns the exit code:
 * 0 when the benchmark ran, 2 on bad arguments or unusable input. It never judges the numbers.
 *
 * Allocation counting needs the link to wrap the allocator (see the top of cli/bench.c):
 *   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup
 * with libpg_query linked statically to count its allocations too. Without the flags the bench
 * still runs and prints "n/a" in the allocation columns.
 */
#ifndef PGBIND_BENCH_H
#define PGBIND_BENCH_H

int cli_bench(int argc, char **argv);

#endif
