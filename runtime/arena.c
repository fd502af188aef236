/*
 * arena.c -- the bump allocator every pgbind tree lives in, and the status helpers.
 *
 * Blocks are malloc'd on demand, each at least twice the size of the previous one, and freed all
 * at once. Allocation is a pointer bump; a request larger than what is left starts a new block.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_FIRST_BLOCK 4096
#define ARENA_ALIGN 16 /* max_align_t on the platforms we build on */

typedef struct Block {
	struct Block *prev;
	size_t size; /* bytes after the header */
} Block;

struct pgbind_Arena {
	char *ptr;		 /* next free byte in the current block */
	char *end;		 /* end of the current block */
	Block *blocks;	 /* current block, linked to the previous ones */
	size_t next_size;
	size_t space;
	size_t n_blocks;
	size_t fail_after; /* test hook: fail the Nth block allocation; 0 = never */
};

#define HEADER_SIZE ((sizeof(Block) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

pgbind_Arena *pgbind_Arena_New(void)
{
	pgbind_Arena *a = calloc(1, sizeof *a);
	if (a)
		a->next_size = ARENA_FIRST_BLOCK;
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
	free(arena);
}

static void *arena_new_block(pgbind_Arena *a, size_t size)
{
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
	a->ptr = (char *)b + HEADER_SIZE + size;
	a->end = (char *)b + HEADER_SIZE + want;
	return (char *)b + HEADER_SIZE;
}

void *pgbind_Arena_Malloc(pgbind_Arena *a, size_t size)
{
	if (!a)
		return NULL;
	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if ((size_t)(a->end - a->ptr) >= size) {
		void *p = a->ptr;
		a->ptr += size;
		return p;
	}
	if (size > SIZE_MAX / 4)
		return NULL;
	return arena_new_block(a, size);
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
