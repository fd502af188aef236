/*
 * alloc.c -- allocation counting for pgbind-bench: the allocator's wrappers (linked in with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup: the Makefile's
 * BENCH_WRAP), what the link lets them see (mem_scope) and the untimed pass that counts a path's
 * calls and peak heap per statement (count_allocs). Every call from an object in the link is
 * counted, libpg_query's too when libpg_query.a is linked; calls inside libc itself are not.
 * Without the flags the wrappers are never called and __real_* stay unresolved weak symbols.
 * Depends on libpg_query (to see whether its calls are counted) and glibc's malloc_usable_size.
 */
#include "bench.h"

#include <malloc.h>
#include <string.h>

void *__real_malloc(size_t size) __attribute__((weak));
void *__real_calloc(size_t n, size_t size) __attribute__((weak));
void *__real_realloc(void *p, size_t size) __attribute__((weak));
void __real_free(void *p) __attribute__((weak));
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);

static struct {
	bool on;
	unsigned long long calls;
	long long live;
	long long peak;
} mem;

static inline void mem_added(void *p)
{
	if (!p)
		return;
	mem.live += (long long)malloc_usable_size(p);
	if (mem.live > mem.peak)
		mem.peak = mem.live;
}

void *__wrap_malloc(size_t size)
{
	void *p = __real_malloc(size);
	if (mem.on) {
		mem.calls++;
		mem_added(p);
	}
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);
	if (mem.on) {
		mem.calls++;
		mem_added(p);
	}
	return p;
}

void *__wrap_realloc(void *p, size_t size)
{
	if (!mem.on)
		return __real_realloc(p, size);
	long long old = p ? (long long)malloc_usable_size(p) : 0;
	void *q = __real_realloc(p, size);
	mem.calls++;
	if (q || size == 0) {
		mem.live -= old;
		mem_added(q);
	}
	return q;
}

void __wrap_free(void *p)
{
	if (mem.on && p)
		mem.live -= (long long)malloc_usable_size(p);
	__real_free(p);
}

/* libpg_query returns strdup'd strings (pg_query_parse's JSON) that the caller frees. */
char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = __wrap_malloc(n);
	return p ? memcpy(p, s, n) : NULL;
}

static void mem_begin(void)
{
	mem.calls = 0;
	mem.live = 0;
	mem.peak = 0;
	mem.on = true;
}

static void mem_end(void)
{
	mem.on = false;
}

/* What the link lets us count: nothing, this program's own calls, or libpg_query's as well. */
int mem_scope(void)
{
	/* --wrap=malloc resolves __real_malloc to malloc; without it the weak reference stays NULL.
	 * (Counting a malloc call made here would not tell: the compiler assumes malloc leaves mem
	 * alone and folds the test.) */
	if (!__real_malloc || !__real_calloc || !__real_realloc || !__real_free)
		return SCOPE_NONE;
	mem_begin();
	PgQueryProtobufParseResult r = pg_query_parse_protobuf("SELECT 1");
	unsigned long long inside = mem.calls;
	pg_query_free_protobuf_parse_result(r);
	mem_end();
	return inside ? SCOPE_ALL : SCOPE_PGBIND;
}

const char *scope_text(int scope)
{
	switch (scope) {
	case SCOPE_ALL:
		return "malloc/calloc/realloc/strdup calls from pgbind, libpg_query and protobuf-c (link-time --wrap, "
			   "libpg_query.a); libc-internal ones not";
	case SCOPE_PGBIND:
		return "only this program's and pgbind's own calls: libpg_query is linked dynamically, its allocations "
			   "are not seen, so baseline columns read n/a";
	default:
		return "not counted: link with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup "
			   "and libpg_query.a";
	}
}

const char *scope_key(int scope)
{
	return scope == SCOPE_ALL ? "all" : scope == SCOPE_PGBIND ? "pgbind-only" : "none";
}

bool allocs_seen(int scope, int op)
{
	return scope == SCOPE_ALL || (scope == SCOPE_PGBIND && strcmp(bench_ops[op].side, "pgbind") == 0);
}

/* One untimed pass with the allocator counting, per statement. */
void count_allocs(int op, const Item *items, size_t n, OpResult *res)
{
	double calls = 0, peak = 0, blocks = 0, bytes = 0;
	res->allocs_max = res->peak_max = 0;
	for (size_t i = 0; i < n; i++) {
		ArenaUse use = {0, 0};
		mem_begin();
		bench_ops[op].fn(&items[i], &use);
		mem_end();
		calls += (double)mem.calls;
		peak += (double)mem.peak;
		blocks += (double)use.blocks;
		bytes += (double)use.bytes;
		if ((double)mem.calls > res->allocs_max)
			res->allocs_max = (double)mem.calls;
		if ((double)mem.peak > res->peak_max)
			res->peak_max = (double)mem.peak;
	}
	res->allocs = n ? calls / (double)n : 0;
	res->peak = n ? peak / (double)n : 0;
	res->arena_blocks = n ? blocks / (double)n : 0;
	res->arena_bytes = n ? bytes / (double)n : 0;
}
