/*
 * proc.c -- runs code in a child process and talks to it in framed messages (proc.h): the one
 * place pgbind forks, writes and reads a child's answer, waits with a time limit and reaps. Depends
 * on libc (and Linux's close_range, where the kernel has it); entry points pgbind_proc_once(),
 * pgbind_proc_call() and pgbind_proc_stop().
 *
 * The child is a fork of the calling thread: a copy of the caller's memory and that thread only.
 * It puts the fatal signals back to their default action (a handler the program installed --
 * Go's, Rust's stack-overflow one, a fuzzer's or sanitizer's -- would otherwise run in a process it
 * does not know, or take the child's crash for the program's), clears a sanitizer's death
 * callback, closes every descriptor but its socket and the standard ones (a long-lived child
 * holding a copy of some other pipe would keep its reader from seeing end-of-file), and leaves
 * with _exit. Messages are framed (a uint64_t length, then the bytes), so that the parent knows it
 * has a whole answer without waiting for end-of-file, which another thread's fork holding a copy
 * of the socket could delay; for the same reason the parent polls in slices and looks at the
 * child's state between them. The parent writes with MSG_NOSIGNAL: a request to a child that died
 * fails instead of raising SIGPIPE in a program that did not ask for it.
 */
#define _GNU_SOURCE /* close_range, MSG_NOSIGNAL */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- buffers ----------------------------------------------------------------------------------- */

bool pgbind_proc_put(pgbind_ProcBuf *b, const void *data, size_t len)
{
	if (b->failed)
		return false;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + len)
			cap *= 2;
		uint8_t *grown = realloc(b->data, cap);
		if (!grown) {
			b->failed = true;
			return false;
		}
		b->data = grown;
		b->cap = cap;
	}
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	return true;
}

bool pgbind_proc_put_str(pgbind_ProcBuf *b, const char *s)
{
	uint64_t n = s ? strlen(s) : 0;
	return pgbind_proc_put(b, &n, sizeof n) && pgbind_proc_put(b, s ? s : "", n);
}

void pgbind_proc_buf_free(pgbind_ProcBuf *b)
{
	free(b->data);
	*b = (pgbind_ProcBuf){0};
}

bool pgbind_proc_get(pgbind_ProcReader *r, void *out, size_t len)
{
	if (r->left < len)
		return false;
	memcpy(out, r->p, len);
	r->p += len;
	r->left -= len;
	return true;
}

bool pgbind_proc_get_str(pgbind_ProcReader *r, const char **s, size_t *len)
{
	uint64_t n;
	if (!pgbind_proc_get(r, &n, sizeof n) || n > r->left)
		return false;
	*s = (const char *)r->p;
	*len = (size_t)n;
	r->p += n;
	r->left -= n;
	return true;
}

/* ---- the one write and read loop ---------------------------------------------------------------- */

/* Writes a frame, its length and then data, in as few calls as the socket takes (sendmsg: a peer
 * gone is an error, not SIGPIPE; writev where fd is no socket). */
static bool write_frame(int fd, const void *data, size_t len)
{
	uint64_t n = len;
	struct iovec iov[2] = {{&n, sizeof n}, {(void *)data, len}};
	struct iovec *v = iov;
	int count = len ? 2 : 1;
	while (count) {
		struct msghdr msg = {.msg_iov = v, .msg_iovlen = (size_t)count};
		ssize_t put = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (put < 0 && errno == ENOTSOCK)
			put = writev(fd, v, count);
		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return false;
		while (count && (size_t)put >= v->iov_len) {
			put -= (ssize_t)v->iov_len;
			v++, count--;
		}
		if (count) {
			v->iov_base = (char *)v->iov_base + put;
			v->iov_len -= (size_t)put;
		}
	}
	return true;
}

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The parent's side of one wait for a child's bytes. */
typedef struct {
	int fd;
	pid_t pid;     /* the child; 0: just read (the child's own loop, which waits for nothing) */
	int64_t until; /* deadline (now_ms), or -1 */
	int ws;        /* its wait status, once gone */
	bool gone;     /* reaped */
	bool late;     /* the time is up */
} Wait;

/* Reads what has come, up to cap bytes, before the deadline: > 0 bytes; <= 0 at end of file, on an
 * error, when the child is gone without sending more or the time is up. */
static ssize_t read_some(Wait *w, void *buf, size_t cap)
{
	for (;;) {
		ssize_t n = w->pid ? recv(w->fd, buf, cap, MSG_DONTWAIT) : read(w->fd, buf, cap);
		if (n < 0 && errno == ENOTSOCK)
			n = read(w->fd, buf, cap);
		if (n >= 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
			return n;
		if (errno == EINTR)
			continue;
		int64_t left = w->until < 0 ? 100 : w->until - now_ms();
		if (left <= 0) {
			w->late = true;
			return -1;
		}
		struct pollfd pfd = {w->fd, POLLIN, 0};
		/* in slices: end-of-file may not come when the child dies, if another thread's fork holds
		 * a copy of the socket; its death then shows through waitpid */
		int r = poll(&pfd, 1, w->gone ? 0 : left < 100 ? (int)left : 100);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0) {
			if (w->gone)
				return -1; /* gone, and what it wrote before is read: nothing more comes */
			if (waitpid(w->pid, &w->ws, WNOHANG) == w->pid)
				w->gone = true; /* then one more look at the socket, without waiting */
		}
	}
}

/* A frame into r (ANSWERED or NO_MEMORY); false when none came whole. The first read takes the
 * length and what of the message has come with it: the peer sends one frame and waits, so it
 * never holds the start of another. */
static bool read_frame(Wait *w, pgbind_ProcResult *r)
{
	uint8_t first[4096];
	size_t got = 0;
	uint64_t n;
	while (got < sizeof n) {
		ssize_t k = read_some(w, first + got, sizeof first - got);
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	memcpy(&n, first, sizeof n);
	uint8_t *data = n < SIZE_MAX ? malloc((size_t)n + 1) : NULL;
	if (!data) {
		r->outcome = PGBIND_PROC_NO_MEMORY;
		return true;
	}
	size_t have = got - sizeof n < n ? got - sizeof n : (size_t)n;
	memcpy(data, first + sizeof n, have);
	while (have < n) {
		ssize_t k = read_some(w, data + have, (size_t)n - have);
		if (k <= 0) {
			free(data);
			return false;
		}
		have += (size_t)k;
	}
	data[n] = '\0';
	r->outcome = PGBIND_PROC_ANSWERED;
	r->data = data;
	r->len = (size_t)n;
	return true;
}

/* How a child says that it had no memory for a request or its answer (a program a once child
 * execs must not use it: diff's are 0, 1 and 2). */
#define EXIT_NO_MEMORY 121

/* After no whole answer came: the child killed if late, reaped, and what became of it in r. */
static void reap(Wait *w, pgbind_ProcResult *r)
{
	if (w->late && !w->gone)
		kill(w->pid, SIGKILL);
	if (!w->gone) {
		while (waitpid(w->pid, &w->ws, 0) < 0 && errno == EINTR)
			;
	}
	if (w->late) {
		r->outcome = PGBIND_PROC_TIMED_OUT;
	} else if (WIFSIGNALED(w->ws)) {
		r->outcome = PGBIND_PROC_SIGNALLED;
		r->signal = WTERMSIG(w->ws);
	} else if (WIFEXITED(w->ws) && WEXITSTATUS(w->ws) == EXIT_NO_MEMORY) {
		r->outcome = PGBIND_PROC_NO_MEMORY;
	} else {
		r->outcome = PGBIND_PROC_EXITED;
		r->exit_code = WIFEXITED(w->ws) ? WEXITSTATUS(w->ws) : -1;
	}
}

void pgbind_proc_describe(const pgbind_ProcResult *r, int timeout_ms, char *out, size_t size)
{
	switch (r->outcome) {
	case PGBIND_PROC_ANSWERED:
		snprintf(out, size, "answered");
		break;
	case PGBIND_PROC_SIGNALLED:
		snprintf(out, size, "died of signal %d (%s)", r->signal, strsignal(r->signal));
		break;
	case PGBIND_PROC_EXITED:
		snprintf(out, size, "left without answering (%s %d)", r->exit_code < 0 ? "wait status" : "exit status",
				 r->exit_code);
		break;
	case PGBIND_PROC_TIMED_OUT:
		snprintf(out, size, "did not answer in %d s", timeout_ms / 1000);
		break;
	case PGBIND_PROC_NO_MEMORY:
		snprintf(out, size, "ran out of memory for the request or its answer");
		break;
	case PGBIND_PROC_NOT_STARTED:
		snprintf(out, size, "could not be started: %s", strerror(r->error));
		break;
	}
}

/* ---- the child ---------------------------------------------------------------------------------- */

/* the sanitizers' (weak: absent from a plain build) */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/* Descriptors from..to closed (close_range where the kernel has it, else one by one up to a bound). */
static void close_from(int from, int to)
{
	if (from > to)
		return;
	if (close_range((unsigned)from, (unsigned)to, 0) == 0)
		return;
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = from; fd <= to && fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		close((int)fd);
}

/* What every child does first: keep only fd (and 0, 1, 2), mortal signals, stdio as asked. */
static void child_setup(int fd, int flags, bool server)
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
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	close_from(3, fd - 1);
	close_from(fd + 1, ~0U >> 1);
	int null_fd = (flags & PGBIND_PROC_QUIET) || server ? open("/dev/null", O_RDWR | O_CLOEXEC) : -1;
	if (null_fd >= 0) {
		if (server) { /* nothing to read or print: a copy of the caller's stdout kept open for
					   * the server's life would keep a reader of it waiting */
			dup2(null_fd, STDIN_FILENO);
			dup2(null_fd, STDOUT_FILENO);
		}
		if (flags & PGBIND_PROC_QUIET)
			dup2(null_fd, STDERR_FILENO);
		close(null_fd);
	}
}

/* A child, connected to us by a pair of sockets opened close-on-exec (so that neither leaks into a
 * program exec'd here): 0 in the child, set up, *fd its end; the child's pid here, *fd ours; -1 when
 * none could be started (r says why). */
static pid_t spawn(int flags, bool server, int *fd, pgbind_ProcResult *r)
{
	int fds[2];
	pid_t pid = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0 && (pid = fork()) < 0) {
		int error = errno;
		close(fds[0]);
		close(fds[1]);
		errno = error;
	}
	if (pid < 0) {
		r->outcome = PGBIND_PROC_NOT_STARTED;
		r->error = errno;
		return -1;
	}
	close(fds[pid == 0 ? 0 : 1]);
	*fd = fds[pid == 0 ? 1 : 0];
	if (pid == 0)
		child_setup(*fd, flags, server);
	return pid;
}

void pgbind_proc_once(pgbind_ProcOnceFn fn, void *ctx, int flags, int timeout_ms, pgbind_ProcResult *r)
{
	*r = (pgbind_ProcResult){0};
	int fd;
	pid_t pid = spawn(flags, false, &fd, r);
	if (pid < 0)
		return;
	if (pid == 0) {
		pgbind_ProcBuf answer = {0};
		fn(ctx, &answer);
		_exit(answer.failed ? EXIT_NO_MEMORY : write_frame(fd, answer.data, answer.len) ? 0 : 3);
	}
	Wait w = {fd, pid, timeout_ms < 0 ? -1 : now_ms() + timeout_ms, 0, false, false};
	bool answered = read_frame(&w, r);
	close(fd); /* a child still writing (no memory here) gets EPIPE and leaves */
	if (answered) {
		if (!w.gone)
			while (waitpid(pid, &w.ws, 0) < 0 && errno == EINTR)
				;
		return;
	}
	reap(&w, r);
}

/* ---- the server --------------------------------------------------------------------------------- */

/* The server's loop; it ends the process (_exit) when the caller closes its end. */
typedef struct {
	pgbind_Proc *p;
	int fd;
	sigset_t mask; /* the signals the loop's thread takes, as the child's were */
} Serving;

static void *serve_loop(void *arg)
{
	Serving *s = arg;
	pthread_sigmask(SIG_SETMASK, &s->mask, NULL);
	Wait w = {s->fd, 0, -1, 0, false, false};
	for (;;) {
		pgbind_ProcResult request = {0};
		if (!read_frame(&w, &request))
			_exit(0); /* the caller closed its end (or ended) */
		if (request.outcome != PGBIND_PROC_ANSWERED)
			_exit(EXIT_NO_MEMORY);
		pgbind_ProcBuf answer = {0};
		s->p->serve(s->p->ctx, request.data, request.len, &answer);
		if (answer.failed)
			_exit(EXIT_NO_MEMORY);
		if (!write_frame(s->fd, answer.data, answer.len))
			_exit(3);
		free(request.data);
		pgbind_proc_buf_free(&answer);
	}
	return NULL;
}

/* The server runs its loop on a thread of its own with SERVER_STACK bytes of stack (reserved, used
 * as it grows; PGBIND_DEFAULT_MAX_DEPTH levels of the deparser take about 25 MiB): the thread that
 * started it may have had a small one (a Rust test's 2 MiB), and a request may come from a thread
 * with a larger one, whose depth the caller's checks allowed (deeper than this holds: a crash the
 * caller reports). This
 * thread takes every signal (the first one blocks them all and waits), so that a handler a
 * request installs (the probe's SIGALRM) runs where the request does. Where no such thread can be
 * made, the loop runs here. */
#define SERVER_STACK ((size_t)64 << 20)

static _Noreturn void serve(pgbind_Proc *p, int fd)
{
	Serving s = {p, fd, {{0}}};
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &s.mask);
	pthread_attr_t attr;
	pthread_t thread;
	if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, SERVER_STACK) == 0 &&
		pthread_create(&thread, &attr, serve_loop, &s) == 0)
		pthread_join(thread, NULL);
	serve_loop(&s);
	_exit(0);
}

static bool start(pgbind_Proc *p, pgbind_ProcResult *r)
{
	int fd;
	pid_t pid = spawn(p->flags, true, &fd, r);
	if (pid < 0)
		return false;
	if (pid == 0)
		serve(p, fd);
	p->pid = pid;
	p->owner = getpid();
	p->fd = fd;
	return true;
}

void pgbind_proc_stop(pgbind_Proc *p)
{
	if (p->pid && p->owner == getpid()) {
		close(p->fd);
		int ws;
		while (waitpid(p->pid, &ws, 0) < 0 && errno == EINTR)
			;
	} else if (p->pid) {
		close(p->fd); /* a copy of the socket of a child our parent started: not ours to wait for */
	}
	p->pid = 0;
	p->fd = -1;
}

void pgbind_proc_call(pgbind_Proc *p, const void *request, size_t len, int timeout_ms, pgbind_ProcResult *r)
{
	*r = (pgbind_ProcResult){0};
	if (p->pid && p->owner != getpid())
		pgbind_proc_stop(p); /* the process forked since: that child is our parent's */
	if (!p->pid && !start(p, r))
		return;
	Wait w = {p->fd, p->pid, timeout_ms < 0 ? -1 : now_ms() + timeout_ms, 0, false, false};
	if (write_frame(p->fd, request, len) && read_frame(&w, r)) {
		if (r->outcome == PGBIND_PROC_ANSWERED)
			return;
		kill(p->pid, SIGKILL); /* the rest of its answer unread: the next one would be out of step */
	}
	pgbind_ProcResult how = *r;
	close(p->fd);
	reap(&w, r);
	if (how.outcome == PGBIND_PROC_NO_MEMORY)
		*r = how;
	p->pid = 0;
	p->fd = -1;
}
