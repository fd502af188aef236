/*
 * stack.c -- how much of the calling thread's real stack is left, for every recursive path of the
 * runtime (from_pg, to_pg, encode, decode, JSON, equal, fingerprint, normalize, text, reflect, the
 * deparse contract): each one's depth check also asks pgbind_stack_low() (internal.h), so that a
 * tree nested deeper than the thread's stack holds is a depth error, not a crash, whatever the
 * stack's size (musl's threads have 128 KiB, glibc's 8 MiB, Rust's spawned threads 2 MiB).
 *
 * The lowest address the thread may use (its stack's start plus a margin for the frames below a
 * check and the error path) is found once per thread with pthread_getattr_np and kept in a
 * thread-local variable: the check itself is a compare with the address of the current frame.
 */
#define _GNU_SOURCE /* pthread_getattr_np */
#include "internal.h"

#include <pthread.h>

__thread uintptr_t pgbind_stack_floor_tls;
static __thread uintptr_t stack_start; /* its lowest address; 0: unknown */

/* What is kept below the floor: the frames between two checks and the error path (vsnprintf). */
#define STACK_MARGIN (64 * 1024)

uintptr_t pgbind_stack_floor_init(void)
{
	uintptr_t floor = 1; /* unknown: the depth limits alone apply */
	pthread_attr_t attr;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		void *addr;
		size_t size;
		if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size > 0) {
			floor = (uintptr_t)addr + (size / 2 < STACK_MARGIN ? size / 2 : STACK_MARGIN);
			stack_start = (uintptr_t)addr;
		}
		pthread_attr_destroy(&attr);
	}
	pgbind_stack_floor_tls = floor;
	return floor;
}

size_t pgbind_stack_left(void)
{
	if (!pgbind_stack_floor_tls)
		pgbind_stack_floor_init();
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	return !stack_start ? SIZE_MAX : here > stack_start ? here - stack_start : 0;
}
