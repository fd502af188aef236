/*
 * proc.h -- pgbind's one way of running code in another process (targets/c/runtime/proc.c): a
 * child forked from the calling thread, spoken to through a socket in framed messages, waited
 * for at most a given time, reaped, and (as a server) started again after it died. Used by the
 * runtime's isolated deparse (targets/c/runtime/pg_route.c), by `pgbind verify`'s oracles
 * (cli/verify_oracle.c), by the deparse probe (tools/deparse-probe/probe.c) and by pgbind-gen's
 * diff (generator/main.c). Depends on libc only, so that the generator, which does not link the
 * runtime, compiles the same file (Makefile: GEN_SRCS).
 *
 * Two modes:
 *   once    pgbind_proc_once: fork, run fn in the child, read its one answer, reap. A child that
 *           execs another program answers nothing: its exit status is the outcome.
 *   server  pgbind_Proc + pgbind_proc_call: the child is started at the first call (and after it
 *           died, timed out, or the process forked: a child belongs to the process that started
 *           it) and serves request after request until its socket closes. Not thread-safe: the
 *           caller serializes calls on one pgbind_Proc.
 */
#ifndef PGBIND_PROC_H
#define PGBIND_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A growing byte buffer (malloc'd): what a child answers, what a request holds. */
typedef struct pgbind_ProcBuf {
	uint8_t *data;
	size_t len, cap;
	bool failed; /* out of memory: what was put after it is lost */
} pgbind_ProcBuf;

/* Appends len bytes (false, and b->failed, when out of memory). */
bool pgbind_proc_put(pgbind_ProcBuf *b, const void *data, size_t len);
/* Appends a length (a uint64_t) and then the bytes of s (NULL as ""). */
bool pgbind_proc_put_str(pgbind_ProcBuf *b, const char *s);
void pgbind_proc_buf_free(pgbind_ProcBuf *b);

/* Reads a message back, in the order it was put. */
typedef struct pgbind_ProcReader {
	const uint8_t *p;
	size_t left;
} pgbind_ProcReader;
bool pgbind_proc_get(pgbind_ProcReader *r, void *out, size_t len);
/* What pgbind_proc_put_str put: *s points into the message (NUL-terminated only if it was the
 * message's last field; *len says its length). */
bool pgbind_proc_get_str(pgbind_ProcReader *r, const char **s, size_t *len);

/* What became of a request (or a once child). */
typedef enum {
	PGBIND_PROC_ANSWERED,    /* data, len: its answer (malloc'd, one NUL byte past len; the caller frees) */
	PGBIND_PROC_SIGNALLED,   /* it died of signal before answering */
	PGBIND_PROC_EXITED,      /* it left without a whole answer (exit_code; -1 unknown, as after a
							  * SIGCHLD the program ignores reaped it first) */
	PGBIND_PROC_TIMED_OUT,   /* no answer within the time: it was killed */
	PGBIND_PROC_NO_MEMORY,   /* there was no memory for the answer here, or for the request or the
							  * answer in the child (which then left) */
	PGBIND_PROC_NOT_STARTED, /* no child: error is socketpair's or fork's errno */
} pgbind_ProcOutcome;

typedef struct pgbind_ProcResult {
	pgbind_ProcOutcome outcome;
	uint8_t *data;
	size_t len;
	int signal, exit_code, error;
} pgbind_ProcResult;

/* Describes a result that is not PGBIND_PROC_ANSWERED ("died of signal 11 (Segmentation fault)",
 * "did not answer in 10 s", ...) into out. */
void pgbind_proc_describe(const pgbind_ProcResult *r, int timeout_ms, char *out, size_t size);

enum {
	/* the child's standard error goes to /dev/null (a sanitizer's report of a crash the caller
	 * expects is not the caller's) */
	PGBIND_PROC_QUIET = 1 << 0,
};

/* once: fn fills answer in the child, which then writes it and leaves with _exit (no atexit
 * handler, no stdio buffer of the caller run or flushed twice). timeout_ms < 0: no limit. The
 * child is reaped before this returns; r->data is the caller's to free. */
typedef void (*pgbind_ProcOnceFn)(void *ctx, pgbind_ProcBuf *answer);
void pgbind_proc_once(pgbind_ProcOnceFn fn, void *ctx, int flags, int timeout_ms, pgbind_ProcResult *r);

/* server: serve answers one request (the child's copy of ctx, as it was when the child started). */
typedef void (*pgbind_ProcServeFn)(void *ctx, const uint8_t *request, size_t len, pgbind_ProcBuf *answer);
typedef struct pgbind_Proc {
	pgbind_ProcServeFn serve;
	void *ctx;
	int flags;
	pid_t pid;   /* 0: no child */
	pid_t owner; /* the process that started it */
	int fd;      /* our end of its socket */
} pgbind_Proc;
#define PGBIND_PROC_INIT(serve, ctx, flags) \
	{                                       \
		(serve), (ctx), (flags), 0, 0, -1   \
	}

/* Sends a request to p's child (started first if there is none) and waits for its answer at most
 * timeout_ms (< 0: no limit). After any outcome but PGBIND_PROC_ANSWERED the child is gone
 * (killed if late, reaped); the next call starts another. */
void pgbind_proc_call(pgbind_Proc *p, const void *request, size_t len, int timeout_ms, pgbind_ProcResult *r);

/* Ends p's child (its socket closed: it leaves; then reaped), if this process started one. */
void pgbind_proc_stop(pgbind_Proc *p);

#endif
