/*
 * arena.c -- the bump allocator every pgbind tree lives in, and the status helpers.
 *
 * Allocation is a pointer bump, inlined by callers through pgbind_Arena_Alloc (pgbind.h); a
 * request larger than what is left starts a new block, each at least twice the size of the
 * previous one, and all are freed at once.
 *
 * The first block shares the arena's own malloc: most trees (a statement's) fit in it, so a
 * parse costs one malloc and one free at most. And that one allocation, once freed, is kept for
 * the thread's next arena (see "the spare" below).
 */
#include "internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The arena's one malloc, header included; the first block is what the header leaves. 4 KiB
 * hold the tree, or the protobuf bytes, of most statements (95% of those in Debian's SQL files). */
#define ARENA_FIRST_MALLOC 4096
#define ARENA_ALIGN        PGBIND_ARENA_ALIGN
#define ALIGN_UP(n)        (((n) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

typedef struct Block {
	struct Block *prev;
	size_t size; /* bytes after the header */
} Block;

struct pgbind_Arena {
	pgbind_ArenaCursor cursor; /* first: pgbind_Arena_Alloc reads it through the arena pointer */
	Block *blocks;             /* the blocks malloc'd after the first, newest first */
	size_t next_size;
	size_t space;
	size_t n_blocks;
	size_t fail_after; /* test hook: fail the Nth block allocation; 0 = never */
};

#define HEADER_SIZE ALIGN_UP(sizeof(Block))
#define ARENA_SIZE  ALIGN_UP(sizeof(pgbind_Arena))
#define FIRST_BLOCK (ARENA_FIRST_MALLOC - ARENA_SIZE)

/* ---- the spare ------------------------------------------------------------------------------- */

/*
 * pgbind_Arena_Free keeps one arena's allocation (the arena and its first block) per thread for
 * the next pgbind_Arena_New. With an arena per statement, as in a server, glibc's free and malloc
 * of a 4 KiB chunk (it coalesces the chunk with its neighbours and splits it again, after
 * consolidating the fastbins the raw parser filled) cost about 5% of an encode and 1% of a parse.
 * The spare is freed when its thread exits (a pthread key's destructor); the main thread's stays
 * reachable to the end. AddressSanitizer builds keep none, so that a use after
 * pgbind_Arena_Free is still caught.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_KEEP_SPARE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_KEEP_SPARE 0
#endif
#endif
#ifndef ARENA_KEEP_SPARE
#define ARENA_KEEP_SPARE 1
#endif

static _Thread_local pgbind_Arena *spare;
static _Thread_local bool spare_hooked; /* the thread's exit frees its spare */
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;
static bool spare_key_made;

static void spare_release(void *unused)
{
	(void)unused;
	free(spare);
	spare = NULL;
	spare_hooked = false; /* an arena freed by a later destructor hooks the exit again */
}

static void spare_make_key(void)
{
	spare_key_made = pthread_key_create(&spare_key, spare_release) == 0;
}

/* Keeps a (its blocks freed) as the thread's spare; false when the thread has one already. */
static bool spare_keep(pgbind_Arena *a)
{
	if (!ARENA_KEEP_SPARE || spare)
		return false;
	if (!spare_hooked) {
		/* the key's value only has to be set, to any pointer, for the destructor to run */
		pthread_once(&spare_once, spare_make_key);
		if (!spare_key_made || pthread_setspecific(spare_key, &spare_key) != 0)
			return false;
		spare_hooked = true;
	}
	spare = a;
	return true;
}

/* ---- arenas ---------------------------------------------------------------------------------- */

pgbind_Arena *pgbind_Arena_New(void)
{
	pgbind_Arena *a = spare;
	if (a)
		spare = NULL;
	else if (!(a = malloc(ARENA_FIRST_MALLOC)))
		return NULL;
	a->cursor.ptr = (char *)a + ARENA_SIZE;
	a->cursor.end = (char *)a + ARENA_FIRST_MALLOC;
	a->blocks = NULL;
	a->next_size = 2 * FIRST_BLOCK;
	a->space = ARENA_FIRST_MALLOC;
	a->n_blocks = 1;
	a->fail_after = 0;
	return a;
}

void pgbind_Arena_Free(pgbind_Arena *arena)
{
	if (!arena)
		return;
	Block *b = arena->blocks;
	while (b) {
		Block *prev = b->prev;
		free(b);
		b = prev;
	}
	if (!spare_keep(arena))
		free(arena);
}

void *pgbind_Arena_AllocSlow(pgbind_Arena *a, size_t size)
{
	if (size > SIZE_MAX / 4)
		return NULL;
	size = ALIGN_UP(size);
	size_t want = a->next_size;
	while (want < size)
		want *= 2;
	if (a->fail_after && --a->fail_after == 0)
		return NULL;
	Block *b = malloc(HEADER_SIZE + want);
	if (!b)
		return NULL;
	b->prev = a->blocks;
	b->size = want;
	a->blocks = b;
	a->space += HEADER_SIZE + want;
	a->n_blocks++;
	a->next_size = want * 2;
	a->cursor.ptr = (char *)b + HEADER_SIZE + size;
	a->cursor.end = (char *)b + HEADER_SIZE + want;
	return (char *)b + HEADER_SIZE;
}

void *pgbind_Arena_Malloc(pgbind_Arena *a, size_t size)
{
	return a ? pgbind_Arena_Alloc(a, size) : NULL;
}

size_t pgbind_Arena_SpaceAllocated(const pgbind_Arena *arena)
{
	return arena ? arena->space : 0;
}

size_t pgbind_Arena_BlockCount(const pgbind_Arena *arena)
{
	return arena ? arena->n_blocks : 0;
}

void pgbind_Arena_FailAfter(pgbind_Arena *arena, size_t n_blocks)
{
	if (arena)
		arena->fail_after = n_blocks;
}

/* ---- status ---------------------------------------------------------------------------------- */

const char *pgbind_StatusCode_name(pgbind_StatusCode code)
{
	switch (code) {
	case PGBIND_OK:
		return "ok";
	case PGBIND_ERROR_SYNTAX:
		return "syntax error";
	case PGBIND_ERROR_NOMEM:
		return "out of memory";
	case PGBIND_ERROR_DEPTH:
		return "nesting too deep";
	case PGBIND_ERROR_INVALID:
		return "invalid tree";
	case PGBIND_ERROR_MALFORMED:
		return "malformed input";
	case PGBIND_ERROR_ARGUMENT:
		return "invalid argument";
	case PGBIND_ERROR_UNREPRESENTABLE:
		return "not representable";
	case PGBIND_ERROR_ROUND_TRIP:
		return "deparse does not round-trip";
	case PGBIND_ERROR_DEPARSER_CRASHED:
		return "deparser crashed";
	}
	return "unknown status";
}

void pgbind_vfail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, va_list ap)
{
	if (!status)
		return;
	status->code = code;
	status->cursorpos = 0;
	status->offset = 0;
	if (code == PGBIND_ERROR_DEPTH && pgbind_stack_low()) /* not max_depth: the thread's stack */
		snprintf(status->message, sizeof status->message,
				 PGBIND_STACK_MESSAGE ": stopped before its end (a deeper tree needs a larger stack)");
	else
		vsnprintf(status->message, sizeof status->message, fmt, ap);
}

void pgbind_fail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pgbind_vfail(status, code, fmt, ap);
	va_end(ap);
}

int pgbind_max_depth(const pgbind_Options *options)
{
	return options && options->max_depth > 0 ? options->max_depth : PGBIND_DEFAULT_MAX_DEPTH;
}
