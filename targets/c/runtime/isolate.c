/*
 * isolate.c -- runs a function in a child process and brings its answer back through a pipe, so
 * that a crash there (a signal) or a hang (no answer in time) is reported instead of ending the
 * caller: what pgbind_deparse does with libpg_query's deparser when pgbind_Options.isolate_deparse
 * asks (pg_route.c). Entry point: pgbind_run_in_child() (internal.h).
 *
 * The child is a fork of the calling thread: it has a copy of the caller's memory (the tree, the
 * nodes built for the deparser) and that thread only. It puts the fatal signals back to their
 * default action (a handler the program installed -- Go's, Rust's stack-overflow one, a
 * sanitizer's -- would otherwise run in a process it does not know), runs the function, writes
 * its answer and leaves with _exit: no atexit handler, no stdio buffer of the caller is run or
 * flushed twice. The answer is framed (a header with its length), so the parent knows it has all
 * of it without waiting for end-of-file, which another thread's fork holding a copy of the pipe
 * could delay.
 */
#define _GNU_SOURCE /* pipe2 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	uint8_t ok;
	int32_t cursorpos;
	uint64_t len; /* bytes of text that follow */
} AnswerHeader;

static bool write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static _Noreturn void child(int fd, pgbind_ChildFn fn, void *ctx)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE};
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigset_t unblock;
	sigemptyset(&unblock);
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
		sigaction(fatal[i], &dfl, NULL);
		sigaddset(&unblock, fatal[i]);
	}
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
	pgbind_ChildAnswer answer = {false, 0, NULL};
	fn(ctx, &answer);
	const char *text = answer.text ? answer.text : "";
	AnswerHeader h = {answer.ok, answer.cursorpos, strlen(text)};
	_exit(write_all(fd, &h, sizeof h) && write_all(fd, text, h.len) ? 0 : 3);
}

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads len bytes from fd into buf before deadline; false at end of file, on an error, or when the
 * child is gone without them (*gone: its wait status, reaped) or the time is up (*late). */
static bool read_before(int fd, pid_t pid, void *buf, size_t len, int64_t deadline, int *ws, bool *gone, bool *late)
{
	char *p = buf;
	while (len) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			*late = true;
			return false;
		}
		struct pollfd pfd = {fd, POLLIN, 0};
		/* in slices: end-of-file may not come when the child dies, if another thread's fork holds
		 * a copy of the pipe; its death then shows through waitpid */
		int r = poll(&pfd, 1, *gone ? 0 : left < 100 ? (int)left : 100);
		if (r < 0 && errno != EINTR)
			return false;
		if (r <= 0) {
			if (*gone)
				return false; /* gone, and what it wrote before is read: nothing more comes */
			if (waitpid(pid, ws, WNOHANG) == pid)
				*gone = true; /* then one more look at the pipe, without waiting */
			continue;
		}
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

bool pgbind_run_in_child(pgbind_ChildFn fn, void *ctx, int timeout_ms, pgbind_Arena *arena, pgbind_ChildResult *result)
{
	memset(result, 0, sizeof *result);
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		result->error = errno;
		result->text = strerror(errno);
		return false;
	}
	pid_t pid = fork();
	if (pid < 0) {
		result->error = errno;
		result->text = strerror(errno);
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], fn, ctx);
	}
	close(fds[1]);
	int64_t deadline = now_ms() + timeout_ms;
	int ws = 0;
	bool gone = false, late = false;
	AnswerHeader h;
	char *text = NULL;
	bool header = read_before(fds[0], pid, &h, sizeof h, deadline, &ws, &gone, &late);
	bool no_memory = header && (text = pgbind_Arena_Malloc(arena, h.len + 1)) == NULL;
	bool answered = header && text && read_before(fds[0], pid, text, h.len, deadline, &ws, &gone, &late);
	close(fds[0]); /* a child still writing (no_memory) gets EPIPE and leaves */
	if (late && !gone)
		kill(pid, SIGKILL);
	if (!gone) {
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
	}
	if (answered) {
		text[h.len] = '\0';
		result->outcome = PGBIND_CHILD_ANSWERED;
		result->ok = h.ok;
		result->cursorpos = h.cursorpos;
		result->text = text;
	} else if (no_memory) {
		result->outcome = PGBIND_CHILD_NO_MEMORY;
	} else if (late) {
		result->outcome = PGBIND_CHILD_TIMED_OUT;
	} else if (WIFSIGNALED(ws)) {
		result->outcome = PGBIND_CHILD_SIGNALLED;
		result->signal = WTERMSIG(ws);
	} else {
		/* exited without a whole answer (or a SIGCHLD ignored by the program reaped it first) */
		result->outcome = PGBIND_CHILD_EXITED;
		result->exit_code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	}
	return true;
}
