/*
 * probe.c -- deparse-probe: derives the deparse contract of the linked libpg_query (the rules of
 * schema/pgNN/deparse.txt, read by pgbind-gen; generator/deparse_rules.c says what each clause
 * means) from a corpus of SQL, without context: a rule is about one field of one message, wherever
 * the message sits and whatever its other fields hold.
 *
 * What the parser makes is read from every statement of the corpus: per field, the node kinds it
 * holds anywhere (the union over every parent and value), whether it is ever NULL (a list: holds
 * a NULL cell), ever empty, and the fewest cells it has. Only what no parse of the corpus shows can
 * be refused, and only where the linked deparser was seen to crash (a signal, or no answer in 10 s)
 * or misread (SQL that does not parse back to the changed tree) with it: where the deparser reads
 * past a node, which of the two happens depends on memory, so both make a rule and two runs give
 * the same rules. On up to HOSTS statements of the corpus that deparse and parse back to
 * themselves, each field is changed once per case -- set to NULL (a list: its first cell), emptied,
 * cut to one cell fewer than any parse gives, its node (first cell) replaced by the smallest node
 * of every kind the field never holds -- and deparsed with pgbind_deparse_unchecked in a case
 * runner (a server child of the runtime's process helper, targets/c/runtime/proc.h: one child runs
 * cases until one kills it; its worker records that case as a crash and the helper starts the next
 * child, which goes on after it). A change whose SQL parses back to the changed tree is a tree
 * the parser makes: its kind is never refused (its NULL, emptiness or count clears the rule). A
 * kind the corpus has no sample of is not tried, so not refused. A change that crashed or misread
 * is tried again under each other value of the enum, bool, char and few-valued string fields of
 * its message (second_round): what fails under one value the parser may make under another. A
 * deparser error is no reason for a rule. A statement of the corpus the deparser crashes on as the
 * parser made it (COPY t FROM STDIN (format) before 18) gets a rule on its soundest shape: the kind
 * at a field, or the NULL, that the fewest learnt statements the deparser handles show (then the
 * fewest learnt statements). One it misreads as parsed gets none:
 * that is a bug of the deparser's (SHOW ALL), whose SQL pgbind returns as libpg_query does
 * (check_deparse turns it into an error), and a rule on its rarest shape would send everyday
 * statements (every SHOW, every ALTER TABLE ... DROP COLUMN) to the deparse server; what it reads
 * past a node in (XMLROOT(x, VERSION v || 'a') before 18) is declared, not probed
 * (schema/libpg_query.txt). The runtime refuses nothing by a rule: a tree that breaks one is
 * deparsed in its deparse server and its SQL returned as the deparser wrote it
 * (targets/c/runtime/pg_route.c), so a rule only decides which trees cost a round trip to that
 * process.
 *
 *     deparse-probe --major 15 --out schema/pg15/deparse.txt FILE.sql... [--check FILE.sql...]
 *
 * --check: the statements of the files after it are not learnt from; each that breaks a rule is
 * deparsed with libpg_query in a child, and a refusal of one that deparses right (parses back to
 * itself) is counted and printed ("refused"); the exit status is 1 when there is one
 * (tools/deparse-probe/split.sh). A tool of the project's, not installed: it links the static
 * library and the statement reader (reader/reader.h).
 */
#include "reader.h"
#include "pg_query.h"
#include "internal.h"
#include "pgbind.h"
#include "pgbind_reflect.h"
#include "proc.h"

#include <errno.h>
#include <setjmp.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAX_KINDS 512
#define HOSTS     6 /* statements each field is changed in (one per parent slot) */

typedef struct {
	uint64_t w[MAX_KINDS / 64];
} Bits;

static void bit_set(Bits *b, unsigned k)
{
	b->w[k / 64] |= 1ull << (k % 64);
}
static bool bit_get(const Bits *b, unsigned k)
{
	return (b->w[k / 64] >> (k % 64)) & 1;
}

typedef struct {
	char *sql;
	const char *file;
	int line;
	pgbind_ParseResult *tree;
	bool learn;   /* its tree is evidence of what the parser makes (not a --check statement) */
	bool host;    /* ... and it deparses and parses back to itself: its fields are changed */
	bool crashes; /* ... the deparser dies on it as the parser made it */
} Stmt;

/* A place of a field in a host statement: the message holding it and its parent slot */
typedef struct {
	int stmt;
	char *base;
	uint32_t parent; /* parent message << 16 | field, UINT32_MAX at the root */
} Host;

/* What the corpus shows of one field (index: field_base[message] + field) */
typedef struct {
	Bits kinds;            /* the node kinds it holds in some parse */
	bool set, null, empty; /* it is set (has a cell), NULL (a NULL cell), empty in some parse */
	size_t fewest;         /* the fewest cells of a list with cells */
	Host hosts[HOSTS];     /* where it is set, in statements that parse back */
	int n_hosts;
	Bits proven;            /* kinds a change put there that parsed back */
	Bits bad;               /* kinds that crashed or misread */
	bool bad_null, ok_null; /* a NULL (cell) crashed or misread; parsed back */
	bool bad_empty, ok_empty;
	bool bad_cut, ok_cut;
	int ex_kind, ex_null, ex_empty, ex_cut; /* a case that showed it (the example), -1 */
} Field;

enum Change { CH_NONE, CH_NULL, CH_EMPTY, CH_CUT, CH_KIND, CH_DROP /* cell value of a list, the rest moved down */ };
enum { OUT_ERROR = 0, OUT_MISREAD = 1, OUT_CRASH = 2, OUT_PENDING = 3, OUT_SAME = 4 };

typedef struct {
	int stmt;
	uint32_t field; /* global field index */
	char *base;
	enum Change change;
	uint16_t kind;  /* CH_KIND */
	uint8_t sample; /* ... its sample (samples[kind][sample]) */
	int16_t also;   /* -1, or a field of the message (an enum, bool or string) set to value as well */
	intptr_t value; /* ... the enum's number, the bool, the string */
} Case;

static Stmt *stmts;
static size_t n_stmts, cap_stmts;
static Field *fields;
static uint32_t field_base[PGBIND_MESSAGE_COUNT + 1], n_fields_all;
static uint32_t field_msg[8192], field_fi[8192];
static Case *cases;
static size_t n_cases, cap_cases;
/* Per kind, its smallest node of the learnt corpus in each of up to SLOTS parent slots; the
 * SAMPLES smallest of those are put in fields (the smallest ColumnRef is `*`, which no WHERE
 * takes; the smallest in another slot is `a`) */
#define SLOTS   8
#define SAMPLES 3
typedef struct {
	const pgbind_Node *node;
	size_t size;
	int stmt;
	uint32_t slot;
} Sample;
static Sample by_slot[MAX_KINDS][SLOTS];
/* How often the learnt statements show a shape: a kind at a field ([field * MAX_KINDS + kind]),
 * NULL (a NULL cell) at a field */
static uint32_t *kind_uses, *null_uses;
static Sample samples[MAX_KINDS][SAMPLES];
static pgbind_Arena *keep;
static bool learning = true;

#define GROW(a, n, cap)                                            \
	do {                                                           \
		if ((n) == (cap)) {                                        \
			(cap) = (cap) ? 2 * (cap) : 1024;                      \
			(a) = realloc((a), (cap) * sizeof *(a));               \
			if (!(a)) {                                            \
				fprintf(stderr, "deparse-probe: out of memory\n"); \
				exit(2);                                           \
			}                                                      \
		}                                                          \
	} while (0)

static const pgbind_FieldDesc *fdesc(uint32_t f)
{
	return &pgbind_message_descs[field_msg[f]].fields[field_fi[f]];
}

static bool is_list(pgbind_WireKind w)
{
	return w == PGBIND_WIRE_REPEATED_NODE || w == PGBIND_WIRE_REPEATED_MESSAGE;
}

static bool holds_nodes(pgbind_WireKind w)
{
	return w == PGBIND_WIRE_NODE || w == PGBIND_WIRE_ONEOF || w == PGBIND_WIRE_REPEATED_NODE;
}

/* ---- the outcome of one deparse, and the case runners --------------------------------------- */

/* A deparse parsed back and compared as the runtime does (check_deparse: PostgreSQL's equal(), which
 * skips every location, 18's list_start and arg_location too) */
static int deparse_outcome(const pgbind_ParseResult *tree)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_Options checked = {.check_deparse = true};
	int out = pgbind_deparse_unchecked(tree, &checked, arena, &status) ? OUT_SAME
			  : status.code == PGBIND_ERROR_ROUND_TRIP                 ? OUT_MISREAD
																	   : OUT_ERROR;
	pgbind_Arena_Free(arena);
	return out;
}

/* The slot a case changes: the field, or its first cell */
static void **slot_of(const Case *c, size_t **count)
{
	const pgbind_FieldDesc *f = fdesc(c->field);
	*count = f->count_offset ? (size_t *)(c->base + f->count_offset) : NULL;
	void **p = (void **)(c->base + f->offset);
	return is_list(f->wire) ? *(void ***)p : p;
}

typedef struct {
	void *cell;
	size_t count;
	intptr_t value; /* of the field also set */
} Saved;

/* Sets the field c->also of the changed message to v; returns what it held */
static intptr_t swap_also(const Case *c, intptr_t v)
{
	const pgbind_FieldDesc *a = &pgbind_message_descs[field_msg[c->field]].fields[c->also];
	char *at = c->base + a->offset;
	intptr_t old;
	if (a->wire == PGBIND_WIRE_BOOL)
		old = *(bool *)at, *(bool *)at = v != 0;
	else if (a->wire == PGBIND_WIRE_STRING)
		old = (intptr_t) * (const char **)at, *(const char **)at = (const char *)v;
	else
		old = *(int *)at, *(int *)at = (int)v;
	return old;
}

static Saved apply(const Case *c)
{
	if (c->change == CH_NONE)
		return (Saved){NULL, 0, 0};
	size_t *count;
	void **slot = slot_of(c, &count);
	Saved s = {slot ? *slot : NULL, count ? *count : 0, 0};
	if (c->also >= 0)
		s.value = swap_also(c, c->value);
	if (c->change == CH_NULL)
		*slot = NULL;
	else if (c->change == CH_KIND)
		*slot = (void *)samples[c->kind][c->sample].node;
	else if (c->change == CH_EMPTY)
		*count = 0;
	else if (c->change == CH_CUT)
		*count = fields[c->field].fewest - 1;
	else if (c->change == CH_DROP) {
		s.cell = slot[c->value];
		memmove(&slot[c->value], &slot[c->value + 1], (*count - (size_t)c->value - 1) * sizeof *slot);
		(*count)--;
	}
	return s;
}

static void undo(const Case *c, Saved s)
{
	if (c->change == CH_NONE)
		return;
	if (c->also >= 0)
		swap_also(c, s.value);
	size_t *count;
	void **slot = slot_of(c, &count);
	if (c->change == CH_NULL || c->change == CH_KIND)
		*slot = s.cell;
	else if (c->change == CH_EMPTY || c->change == CH_CUT)
		*count = s.count;
	else if (c->change == CH_DROP) {
		memmove(&slot[c->value + 1], &slot[c->value], (s.count - (size_t)c->value - 1) * sizeof *slot);
		slot[c->value] = s.cell;
		*count = s.count;
	}
}

#define WORKERS 2 /* workers at once, each on every other block of cases */
#define BLOCK   256

static bool owns(size_t i, int w)
{
	return (int)(i / BLOCK % WORKERS) == w;
}

#define RECOVERIES 64 /* crashes a second-round child comes back from, before the next child */

static bool recovering; /* the second round: a child comes back from a crash (only proofs count) */
static sigjmp_buf back;
static volatile sig_atomic_t caught; /* the signal come back from */

static void come_back(int sig)
{
	caught = sig;
	siglongjmp(back, 1);
}

/* In a second-round child, a crash (a signal) ends its case, not the child: its outcome is no
 * reason for a rule there, and a proof is still a deparse that parses back. Each libpg_query call
 * sets up its memory context and error handler anew; no answer in 2 s (a lock a crash left held,
 * a loop) ends the child. */
static void catch_crashes(void)
{
	static char altstack[1 << 16];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
	struct sigaction sa = {.sa_handler = come_back, .sa_flags = SA_ONSTACK | SA_NODEFER};
	sigemptyset(&sa.sa_mask);
	sigaltstack(&ss, NULL);
	const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM};
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Runs one case in a child; 0, or the signal it crashed with and the child came back from */
static int run_case(const Case *c, uint8_t *out)
{
	Saved s = apply(c);
	if (recovering && sigsetjmp(back, 1)) {
		*out = OUT_CRASH;
		undo(c, s);
		return caught;
	}
	*out = (uint8_t)deparse_outcome(stmts[c->stmt].tree);
	undo(c, s);
	return 0;
}

/* One worker's share of the cases; res and current live in memory shared with its children. */
typedef struct {
	const Case *list;
	size_t n;
	uint8_t *res;
	volatile size_t *current; /* the case its child is on */
	int w;
	pgbind_ProcResult done; /* how the worker ended (its answer: the children it started) */
} Worker;

/* The case runner (a server child of the worker, proc.h): the worker's cases from the requested
 * one on, until one kills it; an empty answer when it ran them all. */
static void run_from(void *ctx, const uint8_t *request, size_t len, pgbind_ProcBuf *answer)
{
	Worker *k = ctx;
	size_t next;
	if (len != sizeof next)
		_exit(2);
	memcpy(&next, request, sizeof next);
	/* what malloc hands out holds a pattern, not zeros: a read past what the deparser was given
	 * meets garbage, as in a long-lived process, and crashes here */
	mallopt(M_PERTURB, 165);
	if (recovering)
		catch_crashes();
	int recovered = 0;
	for (size_t i = next; i < k->n; i++) {
		if (!owns(i, k->w))
			continue;
		*k->current = i;
		alarm(recovering ? 2 : 10);
		int sig = run_case(&k->list[i], &k->res[i]);
		if (sig == SIGALRM || (sig && ++recovered == RECOVERIES))
			_exit(3);
	}
	alarm(0);
	pgbind_proc_put(answer, "", 0);
}

/* The worker (a child of its own): its cases from the first on, each run of them in a case runner,
 * the next started after the case that killed the last (recorded as a crash, unless the runner
 * left by itself: a second-round runner that came back from too many, or no answer in time). */
static void serve(void *ctx, pgbind_ProcBuf *answer)
{
	Worker *k = ctx;
	pgbind_Proc runner = PGBIND_PROC_INIT(run_from, k, 0);
	size_t next = 0, children = 0;
	while (next < k->n) {
		children++;
		*k->current = next;
		fflush(NULL);
		pgbind_ProcResult r;
		pgbind_proc_call(&runner, &next, sizeof next, -1, &r);
		free(r.data);
		if (r.outcome == PGBIND_PROC_ANSWERED)
			break;
		if (r.outcome == PGBIND_PROC_NOT_STARTED) {
			fprintf(stderr, "deparse-probe: fork: %s\n", strerror(r.error));
			exit(2);
		}
		if (r.outcome != PGBIND_PROC_EXITED || r.exit_code != 3)
			k->res[*k->current] = OUT_CRASH;
		next = *k->current + 1;
	}
	pgbind_proc_stop(&runner);
	pgbind_proc_put(answer, &children, sizeof children);
}

static void *start_worker(void *ctx)
{
	Worker *k = ctx;
	pgbind_proc_once(serve, k, 0, -1, &k->done);
	return NULL;
}

/* Runs the cases and fills result[i]; each crash costs one child. The workers run at once, each
 * started from a thread of its own. */
static void run_cases(const Case *list, size_t n, uint8_t *result)
{
	size_t head = WORKERS * sizeof(size_t);
	uint8_t *shared = mmap(NULL, n + head, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("deparse-probe: mmap");
		exit(2);
	}
	volatile size_t *word = (volatile size_t *)shared; /* per worker: its current case */
	uint8_t *res = shared + head;
	memset(res, OUT_PENDING, n);
	time_t started = time(NULL);
	Worker workers[WORKERS];
	pthread_t threads[WORKERS];
	fflush(NULL);
	for (int w = 0; w < WORKERS; w++) {
		workers[w] = (Worker){list, n, res, &word[w], w, {0}};
		if (pthread_create(&threads[w], NULL, start_worker, &workers[w]) != 0) {
			fprintf(stderr, "deparse-probe: cannot start a thread\n");
			exit(2);
		}
	}
	size_t children = 0, crashes = 0;
	for (int w = 0; w < WORKERS; w++)
		pthread_join(threads[w], NULL);
	for (int w = 0; w < WORKERS; w++) {
		size_t c;
		pgbind_ProcReader in = {workers[w].done.data, workers[w].done.len};
		if (workers[w].done.outcome != PGBIND_PROC_ANSWERED || !pgbind_proc_get(&in, &c, sizeof c)) {
			char how[120];
			pgbind_proc_describe(&workers[w].done, 0, how, sizeof how);
			fprintf(stderr, "deparse-probe: a fork server %s\n", how);
			exit(2);
		}
		children += c;
		free(workers[w].done.data);
	}
	for (size_t i = 0; i < n; i++)
		crashes += res[i] == OUT_CRASH;
	memcpy(result, res, n);
	munmap(shared, n + head);
	fprintf(stderr, "deparse-probe: %zu cases, %zu crashes, %zu children, %ld s\n", n, crashes, children,
			(long)(time(NULL) - started));
}

/* ---- reading the corpus ---------------------------------------------------------------------- */

static const char *current_file;

static bool add_statement(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	(void)text, (void)at, (void)len, (void)ctx;
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_parse(stmt, NULL, keep, &status);
	if (!tree || tree->n_stmts != 1) {
		free(stmt);
		return true;
	}
	GROW(stmts, n_stmts, cap_stmts);
	stmts[n_stmts++] = (Stmt){stmt, current_file, line, tree, learning, false, false};
	return true;
}

/* ---- one walk over a tree ----------------------------------------------------------------------- */

static bool holds_pointers(pgbind_WireKind w)
{
	return w == PGBIND_WIRE_STRING || w == PGBIND_WIRE_MESSAGE || holds_nodes(w) || is_list(w);
}

/* The cells of field f of the message at base: a list's, or the one pointer of a string, message or
 * node field (NULL when unset); their number in *n */
static void *const *cells_of(uint32_t f, const char *base, size_t *n)
{
	const pgbind_FieldDesc *d = fdesc(f);
	void *const *p = (void *const *)(base + d->offset);
	*n = is_list(d->wire) ? *(const size_t *)(base + d->count_offset) : 1;
	return is_list(d->wire) ? *(void *const *const *)p : p;
}

/* What a walk calls on each field that holds pointers: the field (global index), its message at base,
 * the message's parent slot (parent message << 16 | field, UINT32_MAX at the root); false stops it */
typedef bool Visit(uint32_t f, char *base, uint32_t parent, void *ctx);

/* Calls visit on each such field of message mi at base, each before what it holds; false: stopped */
static bool walk(uint32_t mi, char *base, uint32_t parent, int depth, Visit *visit, void *ctx)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	for (uint32_t fi = 0; fi < d->n_fields && depth < 1000; fi++) {
		const pgbind_FieldDesc *f = &d->fields[fi];
		if (!holds_pointers(f->wire))
			continue;
		size_t n;
		void *const *cells = cells_of(field_base[mi] + fi, base, &n);
		if (!visit(field_base[mi] + fi, base, parent, ctx))
			return false;
		for (size_t k = 0; k < n && f->wire != PGBIND_WIRE_STRING; k++) {
			const pgbind_MessageDesc *m = !cells[k]              ? NULL
										  : holds_nodes(f->wire) ? pgbind_node_desc(((pgbind_Node *)cells[k])->tag)
																 : &pgbind_message_descs[f->type_index];
			if (m && !walk((uint32_t)(m - pgbind_message_descs), cells[k], mi << 16 | fi, depth + 1, visit, ctx))
				return false;
		}
	}
	return true;
}

static uint32_t root_index(void)
{
	return (uint32_t)(pgbind_message_desc_by_name("ParseResult") - pgbind_message_descs);
}

static bool count_cells(uint32_t f, char *base, uint32_t parent, void *total)
{
	(void)parent;
	size_t n;
	void *const *cells = cells_of(f, base, &n);
	for (size_t k = 0; k < n && fdesc(f)->wire != PGBIND_WIRE_STRING; k++)
		*(size_t *)total += cells[k] != NULL;
	return true;
}

/* The size of a subtree in messages (for the smallest sample of each kind) */
static size_t node_size(pgbind_Node *n)
{
	size_t total = 1;
	walk((uint32_t)(pgbind_node_desc(n->tag) - pgbind_message_descs), (char *)n, 0, 0, count_cells, &total);
	return total;
}

/* ---- what the parser makes: the facts of every field, anywhere ------------------------------- */

/* The strings the corpus shows in a string field, per parent slot of its message (a DefElem's
 * defname in CopyStmt.options): sorted by field, slot and value, without repeats */
typedef struct {
	uint32_t field, parent;
	const char *s;
} Shown;
static Shown *shown;
static size_t n_shown, cap_shown;

static int cmp_shown(const void *a, const void *b)
{
	const Shown *x = a, *y = b;
	if (x->field != y->field || x->parent != y->parent)
		return x->field != y->field ? (x->field > y->field) - (x->field < y->field)
									: (x->parent > y->parent) - (x->parent < y->parent);
	return strcmp(x->s, y->s);
}

static void sort_shown(void)
{
	qsort(shown, n_shown, sizeof *shown, cmp_shown);
	size_t n = 0;
	for (size_t i = 0; i < n_shown; i++)
		if (!n || cmp_shown(&shown[n - 1], &shown[i]))
			shown[n++] = shown[i];
	n_shown = n;
}

/* The first of the strings shown in field f under parent, their number in *n */
static const Shown *shown_in(uint32_t f, uint32_t parent, size_t *n)
{
	size_t lo = 0, hi = n_shown;
	while (lo < hi) { /* the first entry not before (f, parent) */
		size_t mid = (lo + hi) / 2;
		if (shown[mid].field < f || (shown[mid].field == f && shown[mid].parent < parent))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (*n = 0; lo + *n < n_shown && shown[lo + *n].field == f && shown[lo + *n].parent == parent; ++*n)
		;
	return &shown[lo];
}

static void add_host(Field *fd, int si, char *base, uint32_t parent)
{
	if (!stmts[si].host || fd->n_hosts == HOSTS)
		return;
	/* the shortest statement in each parent slot (a second one where there is one slot) */
	for (int h = 0; h < fd->n_hosts; h++)
		if (fd->hosts[h].stmt == si || (fd->hosts[h].parent == parent && fd->n_hosts >= 2))
			return;
	fd->hosts[fd->n_hosts++] = (Host){si, base, parent};
}

/* Learns what field f of the message at base holds in the learnt statement *si */
static bool learn_field(uint32_t f, char *base, uint32_t parent, void *si)
{
	Field *fd = &fields[f];
	const pgbind_FieldDesc *d = fdesc(f);
	uint32_t here = field_msg[f] << 16 | field_fi[f];
	size_t n;
	void *const *cells = cells_of(f, base, &n);
	bool null = false, set = is_list(d->wire) ? n > 0 : cells[0] != NULL;
	for (size_t k = 0; k < n; k++) {
		pgbind_Node *node = holds_nodes(d->wire) ? cells[k] : NULL;
		null |= !cells[k];
		if (!node || node->tag >= MAX_KINDS || !pgbind_node_desc(node->tag))
			continue;
		bit_set(&fd->kinds, node->tag);
		kind_uses[(size_t)f * MAX_KINDS + node->tag]++;
		size_t size = node_size(node);
		Sample *b = by_slot[node->tag];
		int j = 0;
		while (j < SLOTS && b[j].node && b[j].slot != here)
			j++;
		if (j < SLOTS && (!b[j].node || size < b[j].size))
			b[j] = (Sample){node, size, *(int *)si, here};
	}
	if (set && d->wire == PGBIND_WIRE_STRING) { /* a char: in any slot */
		GROW(shown, n_shown, cap_shown);
		shown[n_shown++] = (Shown){f, d->flags & PGBIND_FIELD_CHAR ? 0 : parent, cells[0]};
	}
	null_uses[f] += null;
	if (is_list(d->wire)) {
		fd->empty |= n == 0;
		if (n && n < fd->fewest)
			fd->fewest = n;
	}
	fd->set |= set, fd->null |= null;
	/* a host needs the field set and, for a list, its first cell */
	if (set && cells[0])
		add_host(fd, *(int *)si, base, parent);
	return true;
}

/* ---- parsed statements the deparser crashes on as they are ---------------------------------------- */

/* A shape of a tree that a rule can name: a kind (NULL: kind < 0) at a field, in a message whose
 * string field sfield (-1: any) is svalue (where=); how many times the learnt statements the
 * deparser does not die on show it, and how many times all of them do */
typedef struct {
	uint32_t field, handled, uses;
	int kind, sfield;
	const char *svalue;
	int stmt; /* the parsed statement it is a rule for (the example) */
} Shape;

/* The shapes of the parsed statements that crash the deparser: candidates, then the rules */
static Shape *cands, *parsed_rules;
static size_t n_cands, cap_cands, n_parsed_rules, cap_parsed_rules;
static bool *cand_field; /* [field]: some candidate is about it */

/* Whether s is a value a rule can name (where=F=V takes an identifier) */
static bool identifier(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* The kind of cell k of field f (-1: NULL; -2: a set non-node, which no rule names) */
static int cell_kind(uint32_t f, void *const *cells, size_t k)
{
	if (!cells[k])
		return -1;
	return holds_nodes(fdesc(f)->wire) ? (int)((const pgbind_Node *)cells[k])->tag : -2;
}

/* Whether the message at base (field f's) has string field sfield equal to svalue (-1: always) */
static bool where_holds(uint32_t f, const char *base, int sfield, const char *svalue)
{
	if (sfield < 0)
		return true;
	const char *v = *(const char *const *)(base + pgbind_message_descs[field_msg[f]].fields[sfield].offset);
	return v && strcmp(v, svalue) == 0;
}

/* Adds the shapes of field f at base to the candidates of statement *si: each cell's kind (or
 * NULL) alone, and under each identifier-valued string field of the message */
static bool add_candidates(uint32_t f, char *base, uint32_t parent, void *si)
{
	(void)parent;
	size_t n;
	void *const *cells = cells_of(f, base, &n);
	const pgbind_MessageDesc *m = &pgbind_message_descs[field_msg[f]];
	for (size_t k = 0; k < n; k++) {
		int kind = cell_kind(f, cells, k);
		if (kind == -2)
			continue;
		for (int sf = -1; sf < (int)m->n_fields; sf++) {
			const char *v = NULL;
			if (sf >= 0) {
				if (m->fields[sf].wire != PGBIND_WIRE_STRING || (uint32_t)sf == field_fi[f])
					continue;
				v = *(const char *const *)(base + m->fields[sf].offset);
				if (!identifier(v))
					continue;
			}
			GROW(cands, n_cands, cap_cands);
			cands[n_cands++] = (Shape){f, 0, 0, kind, sf, v, *(int *)si};
			cand_field[f] = true;
		}
	}
	return true;
}

/* Counts, in the candidates, what field f at base of learnt statement *si shows */
static bool count_candidates(uint32_t f, char *base, uint32_t parent, void *si)
{
	(void)parent;
	if (!cand_field[f])
		return true;
	size_t n;
	void *const *cells = cells_of(f, base, &n);
	bool handled = !stmts[*(int *)si].crashes;
	for (size_t k = 0; k < n; k++) {
		int kind = cell_kind(f, cells, k);
		for (size_t c = 0; c < n_cands && kind != -2; c++)
			if (cands[c].field == f && cands[c].kind == kind && where_holds(f, base, cands[c].sfield, cands[c].svalue))
				cands[c].uses++, cands[c].handled += handled;
	}
	return true;
}

/* Whether shape a is the better rule: shown by fewer statements the deparser handles (each one a
 * round trip to the deparse server for nothing, where a rule fires on it), then by fewer
 * statements, then without where= (one clause less), then on a field that holds nodes, then the
 * first field, kind and string field
 * (a deterministic choice) */
static bool better_shape(const Shape *a, const Shape *b)
{
	if (a->handled != b->handled)
		return a->handled < b->handled;
	if (a->uses != b->uses)
		return a->uses < b->uses;
	if ((a->sfield < 0) != (b->sfield < 0))
		return a->sfield < 0;
	bool an = holds_nodes(fdesc(a->field)->wire), bn = holds_nodes(fdesc(b->field)->wire);
	if (an != bn) /* a node's kind or absence (DefElem.arg) before a string's (DefElem.defnamespace) */
		return an;
	if (a->field != b->field)
		return a->field < b->field;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	if (a->sfield != b->sfield)
		return a->sfield < b->sfield;
	return a->svalue && b->svalue && strcmp(a->svalue, b->svalue) < 0;
}

static bool same_shape(const Shape *a, const Shape *b)
{
	return a->field == b->field && a->kind == b->kind && a->sfield == b->sfield &&
		   (a->sfield < 0 || strcmp(a->svalue, b->svalue) == 0);
}

/* The lists of a statement with more than one cell: where reduce() drops cells */
typedef struct {
	uint32_t field;
	char *base;
} Place;
static Place *places;
static size_t n_places, cap_places;

static bool add_place(uint32_t f, char *base, uint32_t parent, void *ctx)
{
	(void)parent, (void)ctx;
	size_t n;
	cells_of(f, base, &n);
	if (is_list(fdesc(f)->wire) && n > 1) {
		GROW(places, n_places, cap_places);
		places[n_places++] = (Place){f, base};
	}
	return true;
}

/* Drops from crashing statement si, for good, every list cell (the last first) without which the
 * deparser still crashes on it: what is left is what crashes it (COPY t FROM STDIN (FORMAT csv,
 * NULL (b, c)) keeps NULL (b, c) alone), so that its rule names a shape of that, not of an option
 * beside it. Each try a case of its own (the deparser may die on it). */
static void reduce(int si)
{
	n_places = 0;
	walk(root_index(), (char *)stmts[si].tree, UINT32_MAX, 0, add_place, NULL);
	for (size_t p = 0; p < n_places; p++) {
		size_t n;
		cells_of(places[p].field, places[p].base, &n);
		for (size_t k = n; k-- > 0;) {
			cells_of(places[p].field, places[p].base, &n);
			if (n < 2 || k >= n)
				continue;
			Case c = {si, places[p].field, places[p].base, CH_DROP, 0, 0, -1, (intptr_t)k};
			uint8_t out;
			run_cases(&c, 1, &out);
			if (out == OUT_CRASH)
				apply(&c); /* for good */
		}
	}
}

/* Each of the n learnt statements parsed[] that the deparser crashes on as the parser made them
 * gets a rule on its soundest shape (better_shape) of what crashes it (reduce): the one the fewest
 * statements the deparser handles show, none where the corpus allows. COPY t FROM STDIN (force_null 5) before 18: the
 * Integer at DefElem.arg of a DefElem named force_null, not the NULL CopyStmt.query every COPY FROM
 * shows (a where= clause is about the message itself, wherever it sits: no context). A tree
 * holding that shape is deparsed in the deparse server; the rule costs a round trip to the other
 * trees that hold the shape, never a refusal. */
static void rules_for_parsed(const int *parsed, size_t n)
{
	cand_field = calloc(n_fields_all, sizeof *cand_field);
	for (size_t i = 0; i < n; i++) {
		reduce(parsed[i]);
		walk(root_index(), (char *)stmts[parsed[i]].tree, UINT32_MAX, 0, add_candidates, &(int){parsed[i]});
	}
	for (size_t i = 0; i < n_stmts; i++)
		if (stmts[i].learn)
			walk(root_index(), (char *)stmts[i].tree, UINT32_MAX, 0, count_candidates, &(int){(int)i});
	for (size_t i = 0; i < n; i++) {
		const Shape *best = NULL;
		for (size_t c = 0; c < n_cands; c++)
			if (cands[c].stmt == parsed[i] && (!best || better_shape(&cands[c], best)))
				best = &cands[c];
		if (!best)
			continue;
		fprintf(stderr,
				"deparse-probe: parsed, crashed: %s.%s %s%s%s%s%s%s (shown by %u statements it handles, %u in all)\n",
				pgbind_message_descs[field_msg[best->field]].name, fdesc(best->field)->proto_name,
				best->kind < 0 ? "NULL" : "kind ", best->kind < 0 ? "" : pgbind_node_desc((unsigned)best->kind)->name,
				best->sfield < 0 ? "" : " where ",
				best->sfield < 0 ? "" : pgbind_message_descs[field_msg[best->field]].fields[best->sfield].proto_name,
				best->sfield < 0 ? "" : "=", best->sfield < 0 ? "" : best->svalue, best->handled, best->uses);
		bool known = false;
		for (size_t r = 0; r < n_parsed_rules && !known; r++)
			known = same_shape(&parsed_rules[r], best);
		if (known)
			continue;
		GROW(parsed_rules, n_parsed_rules, cap_parsed_rules);
		parsed_rules[n_parsed_rules++] = *best;
	}
	free(cand_field);
}

/* ---- the cases, the outcomes, the rules ------------------------------------------------------- */

static Case *add_case(int si, uint32_t f, char *base, enum Change change, uint32_t kind)
{
	GROW(cases, n_cases, cap_cases);
	cases[n_cases] = (Case){si, f, base, change, (uint16_t)kind, 0, -1, 0};
	return &cases[n_cases++];
}

static int cmp_sample(const void *a, const void *b)
{
	const Sample *x = a, *y = b;
	return !x->node - !y->node ? !x->node - !y->node : (x->size > y->size) - (x->size < y->size);
}

/* Each kind's samples: the smallest of its slots */
static void pick_samples(void)
{
	for (unsigned k = 0; k < MAX_KINDS; k++) {
		qsort(by_slot[k], SLOTS, sizeof(Sample), cmp_sample);
		memcpy(samples[k], by_slot[k], sizeof samples[k]);
	}
}

static bool kinds_rule(uint32_t f, Bits *refused);

#define SHOWN_MAX 32 /* a string field is varied over the values shown in a slot when they are this few */

static char letters[2 * 52]; /* "a", "b", ... "Z": the values of a C char field */

typedef struct {
	int16_t field;
	intptr_t value;
} Variant;
static Variant *vars;
static size_t n_vars, cap_vars;

static void add_variant(uint32_t fi, intptr_t value)
{
	GROW(vars, n_vars, cap_vars);
	vars[n_vars++] = (Variant){(int16_t)fi, value};
}

/* The variants of a host message: each other value of each of its enum and bool fields, of each C
 * char field (for a kind, the values the corpus shows there; else every letter: ReplicaIdentityStmt's
 * name is NULL with 'd'), and of each string field of which the corpus shows at most SHOWN_MAX
 * values in the host's parent slot (a DefElem's defname among those of its siblings: COPY's
 * force_quote holds an A_Star) */
static void list_variants(uint32_t mi, const char *base, uint32_t parent, bool for_kinds)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	n_vars = 0;
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		const pgbind_FieldDesc *a = &d->fields[fi];
		const char *at = base + a->offset, *own = a->wire == PGBIND_WIRE_STRING ? *(const char *const *)at : NULL;
		bool letter = a->wire == PGBIND_WIRE_STRING && (a->flags & PGBIND_FIELD_CHAR);
		size_t n = 0;
		const Shown *sh = a->wire == PGBIND_WIRE_STRING ? shown_in(field_base[mi] + fi, letter ? 0 : parent, &n) : NULL;
		if (a->wire == PGBIND_WIRE_BOOL)
			add_variant(fi, !*(const bool *)at);
		for (uint32_t v = 0; a->wire == PGBIND_WIRE_ENUM && v < pgbind_enum_descs[a->type_index].n_values; v++) {
			int value = pgbind_enum_descs[a->type_index].values[v].number;
			if (value != *(const int *)at && !(value == 0 && pgbind_enum_zero_is_undefined(a->type_index)))
				add_variant(fi, value);
		}
		for (int l = 0; letter && !for_kinds && l < 52; l++)
			if (!own || *own != letters[2 * l])
				add_variant(fi, (intptr_t)&letters[2 * l]);
		for (size_t i = 0; (!letter || for_kinds) && n <= SHOWN_MAX && i < n; i++)
			if (!own || strcmp(own, sh[i].s))
				add_variant(fi, (intptr_t)sh[i].s);
	}
}

/* The second round: where a kind neither parsed back, the same change with the kind's other
 * samples; and where a change crashed or misread and makes a rule, the same change under each
 * variant of its message (list_variants): a NULL, an empty list, a kind the parser makes under
 * another value (ALTER SUBSCRIPTION's conninfo is NULL with ENABLE, GRANT ON SCHEMA holds
 * Strings, COMMENT ON LARGE OBJECT an Integer). The refused kinds of a field are tried under each
 * variant of its first such host, with each of their samples (GRANT ON DOMAIN holds a List
 * of names, as DropStmt.objects does, not a VALUES row). A child comes back from a crash here
 * (catch_crashes): a crash costs no child. A change that parses back proves the parser makes it. */
static size_t second_round(size_t n_first, const uint8_t *out)
{
	size_t from = n_cases;
	bool *varied = calloc(n_fields_all, 1); /* fields whose refused kinds were varied */
	for (size_t i = 0; i < n_first; i++) {
		Case c = cases[i];
		Field *fd = &fields[c.field];
		if (c.change == CH_NONE || out[i] == OUT_SAME)
			continue;
		if (c.change == CH_KIND && bit_get(&fd->proven, c.kind))
			continue;
		if ((c.change == CH_NULL && fd->ok_null) || (c.change == CH_EMPTY && fd->ok_empty) ||
			(c.change == CH_CUT && fd->ok_cut))
			continue;
		if (c.change == CH_KIND)
			for (int j = 1; j < SAMPLES && samples[c.kind][j].node; j++)
				if (samples[c.kind][j].stmt != c.stmt)
					add_case(c.stmt, c.field, c.base, CH_KIND, c.kind)->sample = (uint8_t)j;
		if ((out[i] != OUT_CRASH && out[i] != OUT_MISREAD) || (c.change == CH_KIND && varied[c.field]))
			continue;
		int h = 0;
		while (fd->hosts[h].base != c.base)
			h++;
		list_variants(field_msg[c.field], c.base, fd->hosts[h].parent, c.change == CH_KIND);
		Bits refused;
		kinds_rule(c.field, &refused);
		varied[c.field] |= c.change == CH_KIND;
		for (size_t v = 0; v < n_vars; v++) /* the change (a kind: each refused kind, each sample) */
			for (unsigned k = c.change == CH_KIND ? 1 : 0; k < (c.change == CH_KIND ? MAX_KINDS : 1); k++)
				for (int j = 0; j < (k ? SAMPLES : 1) && (!k || (bit_get(&refused, k) && samples[k][j].node)); j++)
					if (!k || samples[k][j].stmt != c.stmt) {
						Case *n = add_case(c.stmt, c.field, c.base, c.change, k);
						n->also = vars[v].field, n->value = vars[v].value, n->sample = (uint8_t)j;
					}
	}
	free(varied);
	return n_cases - from;
}

/* Whether a node of kind k may sit in field f at all: any kind in a node field, a member in a oneof */
static bool kind_fits(uint32_t f, unsigned k)
{
	const pgbind_FieldDesc *d = fdesc(f);
	if (d->wire != PGBIND_WIRE_ONEOF)
		return true;
	const pgbind_OneofDesc *o = &pgbind_oneof_descs[d->type_index];
	for (uint32_t i = 0; i < o->n_members; i++)
		if (pgbind_message_descs[o->members[i].message_index].tag == k)
			return true;
	return false;
}

static void make_cases(void)
{
	for (uint32_t f = 0; f < n_fields_all; f++) {
		Field *fd = &fields[f];
		const pgbind_FieldDesc *d = fdesc(f);
		for (int h = 0; h < fd->n_hosts; h++) {
			Host *ho = &fd->hosts[h];
			size_t n = d->count_offset ? *(size_t *)(ho->base + d->count_offset) : 0;
			if (!fd->null)
				add_case(ho->stmt, f, ho->base, CH_NULL, 0);
			if (is_list(d->wire) && !fd->empty)
				add_case(ho->stmt, f, ho->base, CH_EMPTY, 0);
			if (is_list(d->wire) && fd->fewest >= 2 && n >= fd->fewest)
				add_case(ho->stmt, f, ho->base, CH_CUT, 0);
			for (unsigned k = 1; holds_nodes(d->wire) && k < MAX_KINDS; k++)
				if (samples[k][0].node && !bit_get(&fd->kinds, k) && kind_fits(f, k) && samples[k][0].stmt != ho->stmt)
					add_case(ho->stmt, f, ho->base, CH_KIND, k);
		}
	}
}

static void record(size_t i, uint8_t out)
{
	const Case *c = &cases[i];
	Field *fd = &fields[c->field];
	/* a shape no parse shows that crashed or misread: which of the two, memory decides where the
	 * deparser reads past a node, so both make a rule (an error of the deparser does not) */
	bool bad = out == OUT_CRASH || out == OUT_MISREAD, same = out == OUT_SAME;
	switch (c->change) {
	case CH_KIND:
		if (same)
			bit_set(&fd->proven, c->kind);
		if (bad && !bit_get(&fd->bad, c->kind)) {
			bit_set(&fd->bad, c->kind);
			if (fd->ex_kind < 0)
				fd->ex_kind = (int)i;
		}
		break;
	case CH_NULL:
		fd->bad_null |= bad, fd->ok_null |= same;
		if (bad && fd->ex_null < 0)
			fd->ex_null = (int)i;
		break;
	case CH_EMPTY:
		fd->bad_empty |= bad, fd->ok_empty |= same;
		if (bad && fd->ex_empty < 0)
			fd->ex_empty = (int)i;
		break;
	case CH_CUT:
		fd->bad_cut |= bad, fd->ok_cut |= same;
		if (bad && fd->ex_cut < 0)
			fd->ex_cut = (int)i;
		break;
	case CH_NONE:
	case CH_DROP:
		break;
	}
}

static uint8_t *outcomes;
/* Whether field f has a kinds rule: a kind that no parse puts there (nor a change proved the
 * parser makes) crashed or misread; the kinds it refuses, those alone, in *refused */
static bool kinds_rule(uint32_t f, Bits *refused)
{
	const Field *fd = &fields[f];
	bool any = false;
	for (size_t w = 0; w < MAX_KINDS / 64; w++) {
		refused->w[w] = fd->bad.w[w] & ~(fd->kinds.w[w] | fd->proven.w[w]);
		any |= refused->w[w] != 0;
	}
	return any;
}

static unsigned broken_kind; /* the kind a kinds rule refused (check mode) */

/* The rules of field f that a value breaks (what check mode tests, as contract.c does) */
static const char *breaks(uint32_t f, const char *base)
{
	const Field *fd = &fields[f];
	const pgbind_FieldDesc *d = fdesc(f);
	size_t n;
	void *const *cells = cells_of(f, base, &n);
	Bits refused;
	kinds_rule(f, &refused);
	for (size_t r = 0; r < n_parsed_rules; r++) /* a parsed statement's shape */
		for (size_t k = 0; k < n && parsed_rules[r].field == f; k++)
			if (cell_kind(f, cells, k) == parsed_rules[r].kind &&
				where_holds(f, base, parsed_rules[r].sfield, parsed_rules[r].svalue)) {
				broken_kind = parsed_rules[r].kind < 0 ? 0 : (unsigned)parsed_rules[r].kind;
				return parsed_rules[r].kind < 0 ? "nonnull" : "kinds";
			}
	if (is_list(d->wire) && n == 0)
		return fd->bad_empty && !fd->ok_empty ? "nonempty" : NULL;
	if (is_list(d->wire) && fd->bad_cut && !fd->ok_cut && n < fd->fewest)
		return "mincells";
	for (size_t k = 0; k < n; k++) {
		if (!cells[k] && fd->bad_null && !fd->ok_null)
			return "nonnull";
		if (cells[k] && holds_nodes(d->wire) && bit_get(&refused, ((const pgbind_Node *)cells[k])->tag)) {
			broken_kind = ((const pgbind_Node *)cells[k])->tag;
			return "kinds";
		}
	}
	return NULL;
}

static const char *broken_what;
static uint32_t broken_field;

/* Whether field f of the message at base breaks no rule (else broken_* name it) */
static bool check_field(uint32_t f, char *base, uint32_t parent, void *ctx)
{
	(void)parent, (void)ctx;
	broken_field = f;
	return !(broken_what = breaks(f, base));
}

/* --check: the statements the rules refuse, and of those the ones libpg_query deparses right */
static int check_refusals(void)
{
	size_t refused = 0, n_check = 0;
	Case *list = NULL;
	size_t n_list = 0, cap_list = 0;
	for (size_t i = 0; i < n_stmts; i++) {
		if (stmts[i].learn)
			continue;
		n_check++;
		if (walk(root_index(), (char *)stmts[i].tree, UINT32_MAX, 0, check_field, NULL))
			continue;
		GROW(list, n_list, cap_list);
		list[n_list++] = (Case){(int)i, broken_field, NULL, CH_NONE, 0, 0, -1, 0};
	}
	uint8_t *out = malloc(n_list + 1);
	run_cases(list, n_list, out);
	for (size_t i = 0; i < n_list; i++) {
		if (out[i] != OUT_SAME)
			continue;
		refused++;
		const pgbind_FieldDesc *d = fdesc(list[i].field);
		walk(root_index(), (char *)stmts[list[i].stmt].tree, UINT32_MAX, 0, check_field, NULL);
		bool kinds = strcmp(broken_what, "kinds") == 0;
		printf("refused: %s:%d: %s.%s %s%s%s: %s\n", stmts[list[i].stmt].file, stmts[list[i].stmt].line,
			   pgbind_message_descs[field_msg[list[i].field]].name, d->proto_name, broken_what, kinds ? " " : "",
			   kinds ? pgbind_node_desc(broken_kind)->name : "", stmts[list[i].stmt].sql);
	}
	fprintf(stderr,
			"deparse-probe: --check: %zu statements, %zu break a rule, %zu of them deparsed right by libpg_query "
			"(refused although sound)\n",
			n_check, n_list, refused);
	free(out);
	free(list);
	return refused ? 1 : 0;
}

/* ---- writing the contract --------------------------------------------------------------------- */

/* A comment: what statement si showed (kind: the kind put in), its SQL's first line (at most 160
 * bytes, each outside printable ASCII as \xNN: the file stays text whatever the corpus holds) */
static void example(FILE *out, int si, const char *what, int kind)
{
	const char *sql = stmts[si].sql + strspn(stmts[si].sql, " \n\t");
	int len = (int)strcspn(sql, "\n");
	fprintf(out, "# %s%s%s%s: ", what, kind ? " (" : "", kind ? pgbind_node_desc(kind)->name : "", kind ? ")" : "");
	for (int i = 0; i < len && i < 160; i++)
		fprintf(out, sql[i] >= 0x20 && sql[i] < 0x7f ? "%c" : "\\x%02x", (unsigned char)sql[i]);
	fprintf(out, "%s\n", len > 160 || sql[len] ? " ..." : "");
}

static void write_kinds(FILE *out, const Bits *kinds)
{
	const char *sep = "notkinds=";
	for (unsigned k = 1; k < MAX_KINDS; k++)
		if (bit_get(kinds, k) && pgbind_node_desc(k)) {
			fprintf(out, "%s%s", sep, pgbind_node_desc(k)->name);
			sep = "|";
		}
	fprintf(out, "\n");
}

static void write_rules(FILE *out, const char *major, size_t n_learnt, size_t n_hosts, size_t counts[5])
{
	fprintf(out,
			"# The deparse contract of libpg_query for PostgreSQL %s: what its deparser is seen to crash on or\n"
			"# misread that no parse of the corpus makes, and the soundest shape of each parsed statement it\n"
			"# crashes on.\n"
			"# GENERATED by tools/deparse-probe (do not edit): make deparse-probe (part of make regen).\n"
			"# Read by pgbind-gen like the overrides (generator/deparse_rules.c says what each clause means);\n"
			"# a tree that breaks a rule is deparsed in a child process (targets/c/runtime/pg_route.c).\n"
			"# Every rule is about one field, wherever its message sits (no context), and only where the\n"
			"# deparser crashed (a signal, or no answer in 10 s) or misread (which of the two, memory decides\n"
			"# where it reads past a node): notkinds= the kinds that did either there and that the field holds\n"
			"# in no parsed statement (the union over every parent and value) nor in a change that parsed\n"
			"# back; nonnull, nonempty, mincells= where no parse shows less and less did either.\n"
			"# From %zu statements (%zu of them deparse and parse back: the changes' hosts): %zu cases.\n",
			major, n_learnt, n_hosts, counts[0] + counts[1] + counts[2] + counts[4]);
	fprintf(stderr, "deparse-probe: %zu crashed, %zu misread, %zu parsed back, %zu gave an error of the deparser\n",
			counts[OUT_CRASH], counts[OUT_MISREAD], counts[OUT_SAME], counts[OUT_ERROR]);
	for (uint32_t f = 0; f < n_fields_all; f++) {
		Field *fd = &fields[f];
		const pgbind_FieldDesc *d = fdesc(f);
		const char *msg = pgbind_message_descs[field_msg[f]].name;
		int label = 0;
#define LABEL()                                                        \
	(++label == 1 ? fprintf(out, "%s.%s deparse:", msg, d->proto_name) \
				  : fprintf(out, "%s.%s deparse_%d:", msg, d->proto_name, label))
		if (fd->bad_null && !fd->ok_null) {
			example(out, cases[fd->ex_null].stmt,
					is_list(d->wire) ? "a NULL cell crashed or misread" : "NULL crashed or misread", 0);
			LABEL();
			fprintf(out, "nonnull\n");
		}
		if (fd->bad_empty && !fd->ok_empty) {
			example(out, cases[fd->ex_empty].stmt, "empty crashed or misread", 0);
			LABEL();
			fprintf(out, "nonempty\n");
		}
		if (fd->bad_cut && !fd->ok_cut) {
			example(out, cases[fd->ex_cut].stmt, "a cell fewer crashed or misread", 0);
			LABEL();
			fprintf(out, "mincells=%zu\n", fd->fewest);
		}
		Bits refused;
		if (holds_nodes(d->wire) && kinds_rule(f, &refused)) {
			example(out, cases[fd->ex_kind].stmt, "a kind crashed or misread", cases[fd->ex_kind].kind);
			LABEL();
			write_kinds(out, &refused);
		}
		for (size_t r = 0; r < n_parsed_rules; r++) {
			const Shape *p = &parsed_rules[r];
			if (p->field != f)
				continue;
			char what[120];
			snprintf(what, sizeof what,
					 "parsed, crashed as it is (its soundest shape: %u statements it handles show it)", p->handled);
			example(out, p->stmt, what, 0);
			LABEL();
			if (p->kind < 0)
				fprintf(out, "nonnull");
			else
				fprintf(out, "notkinds=%s", pgbind_node_desc((unsigned)p->kind)->name);
			if (p->sfield >= 0)
				fprintf(out, ",where=%s=%s", pgbind_message_descs[field_msg[f]].fields[p->sfield].proto_name,
						p->svalue);
			fprintf(out, "\n");
		}
#undef LABEL
	}
}

static int cmp_stmt(const void *a, const void *b)
{
	size_t la = strlen(((const Stmt *)a)->sql), lb = strlen(((const Stmt *)b)->sql);
	return la < lb ? -1 : la > lb;
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *major = "?";
	int first = 1;
	for (; first + 1 < argc && (strcmp(argv[first], "--out") == 0 || strcmp(argv[first], "--major") == 0); first += 2)
		*(argv[first][2] == 'o' ? &out_path : &major) = argv[first + 1];
	if (!out_path || first == argc) {
		fprintf(stderr, "usage: deparse-probe --major N --out FILE FILE.sql... [--check FILE.sql...]\n");
		return 2;
	}
	struct rlimit no_core = {0, 0};
	setrlimit(RLIMIT_CORE, &no_core);
	time_t started = time(NULL);
	keep = pgbind_Arena_New();
	bool checking = false;
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--check") == 0) {
			learning = false, checking = true;
			continue;
		}
		current_file = argv[i];
		cli_each_statement(argv[i], "deparse-probe", add_statement, NULL);
	}
	/* the smallest statements first: each field's hosts are the shortest that have it */
	qsort(stmts, n_stmts, sizeof *stmts, cmp_stmt);
	for (uint32_t mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++) {
		field_base[mi] = n_fields_all;
		for (uint32_t fi = 0; fi < pgbind_message_descs[mi].n_fields && n_fields_all < 8192; fi++, n_fields_all++)
			field_msg[n_fields_all] = mi, field_fi[n_fields_all] = fi;
	}
	field_base[PGBIND_MESSAGE_COUNT] = n_fields_all;
	fields = calloc(n_fields_all, sizeof *fields);
	kind_uses = calloc((size_t)n_fields_all * MAX_KINDS, sizeof *kind_uses);
	null_uses = calloc(n_fields_all, sizeof *null_uses);
	if (!fields || !kind_uses || !null_uses) {
		fprintf(stderr, "deparse-probe: out of memory\n");
		return 2;
	}
	for (uint32_t f = 0; f < n_fields_all; f++)
		fields[f].fewest = SIZE_MAX, fields[f].ex_kind = fields[f].ex_null = fields[f].ex_empty = fields[f].ex_cut = -1;

	/* the hosts: learnt statements that deparse and parse back to themselves */
	size_t n_learnt = 0, n_hosts = 0;
	for (size_t i = 0; i < n_stmts; i++)
		if (stmts[i].learn)
			add_case((int)i, 0, NULL, CH_NONE, 0), n_learnt++;
	outcomes = malloc(n_cases + 1);
	run_cases(cases, n_cases, outcomes);
	int *parsed = malloc((n_cases + 1) * sizeof *parsed); /* crashed as parsed */
	size_t n_parsed = 0;
	for (size_t i = 0; i < n_cases; i++) {
		if (outcomes[i] == OUT_SAME)
			stmts[cases[i].stmt].host = true, n_hosts++;
		if (outcomes[i] == OUT_CRASH && parsed)
			parsed[n_parsed++] = cases[i].stmt, stmts[cases[i].stmt].crashes = true;
	}
	n_cases = 0;
	for (size_t i = 0; i < n_stmts; i++)
		if (stmts[i].learn)
			walk(root_index(), (char *)stmts[i].tree, UINT32_MAX, 0, learn_field, &(int){(int)i});
	fprintf(stderr, "deparse-probe: %zu statements learnt from, %zu of them hosts, %zu crash the deparser as parsed\n",
			n_learnt, n_hosts, n_parsed);

	pick_samples();
	sort_shown();
	for (int l = 0; l < 52; l++)
		letters[2 * l] = (char)(l < 26 ? 'a' + l : 'A' + l - 26);
	make_cases();
	free(outcomes);
	outcomes = malloc(n_cases + 1);
	run_cases(cases, n_cases, outcomes);
	size_t counts[5] = {0}, n_first = n_cases;
	for (size_t i = 0; i < n_cases; i++) {
		counts[outcomes[i]]++;
		record(i, outcomes[i]);
	}
	size_t n_second = second_round(n_first, outcomes);
	outcomes = realloc(outcomes, n_cases + 1);
	recovering = true;
	run_cases(cases + n_first, n_second, outcomes + n_first);
	recovering = false;
	size_t proofs = 0;
	for (size_t i = n_first; i < n_cases; i++) /* only proofs count: the first round showed the shape */
		if (outcomes[i] == OUT_SAME)
			record(i, outcomes[i]), proofs++;
	fprintf(stderr, "deparse-probe: second round: %zu cases, %zu parsed back\n", n_second, proofs);
	/* last: reduce() drops cells of the crashing statements, whose nodes may be the samples */
	rules_for_parsed(parsed, n_parsed);
	free(parsed);
	FILE *out = fopen(out_path, "w");
	if (!out) {
		fprintf(stderr, "deparse-probe: cannot write %s: %s\n", out_path, strerror(errno));
		return 2;
	}
	write_rules(out, major, n_learnt, n_hosts, counts);
	if (fclose(out) != 0) {
		fprintf(stderr, "deparse-probe: cannot write %s\n", out_path);
		return 2;
	}
	fprintf(stderr, "deparse-probe: wrote %s in %ld s\n", out_path, (long)(time(NULL) - started));
	return checking ? check_refusals() : 0;
}
