/*
 * fuzz_cli.c -- the command line against random and mutated input: every subcommand of a pgbind
 * (make check runs it on the AddressSanitizer build, build/san/pgbind) over SQL, protobuf and
 * JSON, from a file and from standard input, with NUL bytes, invalid UTF-8, truncation, huge
 * inputs and deep nesting, plus mangled command lines. A fixed seed and a fixed number of cases:
 * a failure reproduces. Depends on nothing but libc; tests/run.sh compiles it.
 *
 *   fuzz_cli --pgbind PATH [--seed-pgbind PATH] [--cases N] [--seed S] [--save DIR] SEED.sql...
 *
 * --seed-pgbind: the (faster) pgbind that writes the seed statements' protobuf and JSON.
 *
 * A case passes when the process exits (no signal, no sanitizer report), with 0, or with 1 and a
 * message on standard error (2 and a message for a mangled command line). A failing case's input
 * is saved in DIR with the command that fails on it. The deparse of a tree read from protobuf or
 * JSON (`deparse --from=protobuf|json`) hands libpg_query's deparser trees it may crash on, in the
 * process, until the command isolates that deparse: its cases run and are counted apart, and fail
 * the run only with PGBIND_FUZZ_DEPARSE_TREES=fail (the switch for when it is isolated).
 * Ends with "N passed, M failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- bytes ------------------------------------------------------------------------------------ */

typedef struct {
	char *data;
	size_t len, cap;
} Buf;

static void buf_reserve(Buf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->data = realloc(b->data, cap);
	if (!b->data) {
		fputs("fuzz_cli: out of memory\n", stderr);
		exit(2);
	}
	b->cap = cap;
}

static void buf_add(Buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void buf_str(Buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static uint64_t rng_state;

static uint64_t rnd(void) /* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static bool read_file(const char *path, Buf *b)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(b, chunk, n);
	fclose(f);
	buf_reserve(b, 0);
	b->data[b->len] = '\0';
	return true;
}

static bool write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

/* ---- running pgbind ------------------------------------------------------------------------- */

enum { TIMEOUT_SECONDS = 60 };

typedef struct {
	int status; /* waitpid's */
	Buf err;    /* standard error */
} Outcome;

/* Runs argv with standard input from in_path (NULL: /dev/null), standard output to out_path
 * (NULL: /dev/null), standard error kept; killed by SIGALRM after TIMEOUT_SECONDS. */
static void run(char *const *argv, const char *in_path, const char *out_path, const char *err_path, Outcome *o)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fuzz_cli: fork");
		exit(2);
	}
	if (pid == 0) {
		int in = open(in_path ? in_path : "/dev/null", O_RDONLY);
		int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || out < 0 || err < 0)
			_exit(125);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		alarm(TIMEOUT_SECONDS);
		execv(argv[0], argv);
		_exit(126);
	}
	waitpid(pid, &o->status, 0);
	o->err.len = 0;
	read_file(err_path, &o->err);
}

/* ---- inputs ----------------------------------------------------------------------------------- */

typedef enum { FORMAT_SQL, FORMAT_PROTOBUF, FORMAT_JSON } Format;

typedef struct {
	Buf *items;
	size_t n;
} Seeds;

static void seeds_add(Seeds *s, const char *data, size_t len)
{
	s->items = realloc(s->items, (s->n + 1) * sizeof *s->items);
	if (!s->items)
		exit(2);
	s->items[s->n] = (Buf){0};
	buf_add(&s->items[s->n], data, len);
	s->n++;
}

static const char *const bad_utf8[] = {"\xff", "\xc3", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
									   "\x80"};

/* One mutation of b, chosen at random: a byte changed, a NUL or invalid UTF-8 inserted, a range
 * deleted, duplicated or truncated. */
static void mutate_once(Buf *b)
{
	size_t at = below(b->len + 1);
	switch (below(8)) {
	case 0: /* a byte flipped */
		if (b->len)
			b->data[below(b->len)] ^= (char)(1u << below(8));
		break;
	case 1: /* a random byte */
		if (b->len)
			b->data[below(b->len)] = (char)rnd();
		break;
	case 2: { /* a NUL byte inserted */
		Buf t = {0};
		buf_add(&t, b->data, at);
		buf_add(&t, "", 1);
		buf_add(&t, b->data + at, b->len - at);
		free(b->data);
		*b = t;
		break;
	}
	case 3: { /* invalid UTF-8 inserted */
		const char *u = bad_utf8[below(sizeof bad_utf8 / sizeof *bad_utf8)];
		Buf t = {0};
		buf_add(&t, b->data, at);
		buf_str(&t, u);
		buf_add(&t, b->data + at, b->len - at);
		free(b->data);
		*b = t;
		break;
	}
	case 4: /* truncated */
		b->len = at;
		break;
	case 5: { /* a range deleted */
		size_t n = below(b->len - at + 1);
		memmove(b->data + at, b->data + at + n, b->len - at - n);
		b->len -= n;
		break;
	}
	case 6: { /* a range duplicated */
		size_t n = below(b->len - at + 1) % 64;
		Buf t = {0};
		buf_add(&t, b->data, at + n);
		buf_add(&t, b->data + at, b->len - at);
		free(b->data);
		*b = t;
		break;
	}
	default: /* an interesting byte */
		if (b->len) {
			static const char interesting[] = {'(', ')', '[', ']',  '{', '}', '"', '\'',
											   ';', ',', ':', '\\', '$', '0', '-', '\x7f'};
			b->data[below(b->len)] = interesting[below(sizeof interesting)];
		}
		break;
	}
	buf_reserve(b, 0);
	b->data[b->len] = '\0';
}

/* Text nested n levels deep: open repeated n times, middle, close repeated n times. */
static void nested(Buf *b, const char *prefix, const char *open, const char *middle, const char *close, size_t n,
				   const char *suffix)
{
	buf_str(b, prefix);
	for (size_t i = 0; i < n; i++)
		buf_str(b, open);
	buf_str(b, middle);
	for (size_t i = 0; i < n; i++)
		buf_str(b, close);
	buf_str(b, suffix);
}

static size_t varint_len(size_t v)
{
	size_t n = 1;
	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

static void add_varint(Buf *b, size_t v)
{
	for (; v >= 0x80; v >>= 7) {
		unsigned char c = (unsigned char)(v | 0x80);
		buf_add(b, &c, 1);
	}
	unsigned char c = (unsigned char)v;
	buf_add(b, &c, 1);
}

/* A ParseResult whose one statement is depth A_Exprs, each the lexpr of the one around it:
 * Node.a_expr is field 171, A_Expr.lexpr field 3, RawStmt.stmt 1, ParseResult.stmts 2 (all
 * length-delimited). The lengths are counted from the inside out first, then written. */
static void nested_protobuf(Buf *b, size_t depth)
{
	size_t *node_len = calloc(depth + 1, sizeof *node_len), *a_len = calloc(depth + 1, sizeof *a_len);
	if (!node_len || !a_len)
		exit(2);
	for (size_t i = 1; i <= depth; i++) {
		a_len[i] = 1 + varint_len(node_len[i - 1]) + node_len[i - 1];
		node_len[i] = varint_len(171 << 3 | 2) + varint_len(a_len[i]) + a_len[i];
	}
	size_t raw_len = 1 + varint_len(node_len[depth]) + node_len[depth];
	add_varint(b, 2 << 3 | 2);
	add_varint(b, raw_len);
	add_varint(b, 1 << 3 | 2);
	add_varint(b, node_len[depth]);
	for (size_t i = depth; i >= 1; i--) {
		add_varint(b, 171 << 3 | 2);
		add_varint(b, a_len[i]);
		add_varint(b, 3 << 3 | 2);
		add_varint(b, node_len[i - 1]);
	}
	free(node_len);
	free(a_len);
}

/* A case's input of the format: a seed mutated, random bytes, a deep or huge input. kind names it. */
static void make_input(Format format, const Seeds *seeds, Buf *b, const char **kind)
{
	b->len = 0;
	size_t choice = below(40);
	size_t depth = (size_t)1 << (4 + below(14)); /* 16 .. 131072 levels */
	if (choice == 0) {
		*kind = "random bytes";
		size_t n = below(4096);
		for (size_t i = 0; i < n; i++) {
			char c = (char)rnd();
			buf_add(b, &c, 1);
		}
	} else if (choice <= 2) {
		*kind = "deep nesting";
		if (format == FORMAT_SQL) {
			switch (below(4)) {
			case 0:
				nested(b, "SELECT ", "(", "1", ")", depth, ";");
				break;
			case 1:
				nested(b, "SELECT ", "1 + ", "1", "", depth, ";");
				break;
			case 2:
				nested(b, "SELECT 1", " UNION ALL SELECT 1", "", "", depth, ";");
				break;
			default:
				nested(b, "SELECT ARRAY", "[", "1", "]", depth, ";");
				break;
			}
		} else if (format == FORMAT_JSON) {
			nested(b, "{\"version\":1,\"stmts\":[{\"stmt\":", "{\"A_Expr\":{\"lexpr\":", "{\"A_Const\":{}}", "}}",
				   depth, "}]}");
		} else {
			nested_protobuf(b, depth);
		}
	} else if (choice == 3 && format != FORMAT_PROTOBUF) {
		*kind = "huge input";
		const Buf *s = &seeds->items[below(seeds->n)];
		size_t target = ((size_t)1 << (19 + below(3))); /* 512 KiB to 2 MiB */
		if (format == FORMAT_JSON) {                    /* many statements of one tree */
			const char *stmts = strstr(s->data, "\"stmts\":[");
			if (!stmts) {
				buf_add(b, s->data, s->len);
				return;
			}
			size_t head = (size_t)(stmts - s->data) + 9, body = s->len - head - 2; /* without "]}" */
			buf_add(b, s->data, head);
			for (bool first = true; b->len < target; first = false) {
				if (!first)
					buf_str(b, ",");
				buf_add(b, s->data + head, body);
			}
			buf_str(b, "]}");
		} else {
			while (b->len < target) {
				buf_add(b, s->data, s->len);
				buf_str(b, ";\n");
			}
		}
	} else {
		*kind = "mutated";
		const Buf *s = &seeds->items[below(seeds->n)];
		buf_add(b, s->data, s->len);
		size_t n = 1 + below(4);
		for (size_t i = 0; i < n; i++)
			mutate_once(b);
	}
	buf_reserve(b, 0);
	b->data[b->len] = '\0';
}

/* ---- cases -------------------------------------------------------------------------------- */

typedef struct {
	const char *args; /* the subcommand and its options, space-separated */
	Format format;
	bool tree_deparse; /* deparse of a tree read from protobuf or JSON: counted apart */
} Command;

static const Command commands[] = {
	{"parse --format=protobuf", FORMAT_SQL, false},
	{"parse --format=json", FORMAT_SQL, false},
	{"parse --format=text", FORMAT_SQL, false},
	{"deparse", FORMAT_SQL, false},
	{"deparse --check", FORMAT_SQL, false},
	{"fingerprint", FORMAT_SQL, false},
	{"fingerprint --each", FORMAT_SQL, false},
	{"normalize", FORMAT_SQL, false},
	{"normalize --each", FORMAT_SQL, false},
	{"scan", FORMAT_SQL, false},
	{"verify", FORMAT_SQL, false},
	{"deparse --from=protobuf", FORMAT_PROTOBUF, true},
	{"deparse --check --from=protobuf", FORMAT_PROTOBUF, true},
	{"deparse --from=json", FORMAT_JSON, true},
	{"deparse --check --from=json", FORMAT_JSON, true},
};
#define N_COMMANDS (sizeof commands / sizeof *commands)

/* Arguments a mangled command line draws from. */
static const char *const junk_args[] = {
	"--format",    "--format=", "--format=xml", "--from", "--from=",   "--from=yaml", "--check", "--each",
	"--",          "-",         "-x",           "--help", "--version", "help",        "",        "--format=json",
	"--from=json", "\xff",      "verify",       "parse"};

typedef struct {
	long passed, failed;
	long tree_passed, tree_failed; /* the deparse of trees read from protobuf or JSON */
	long exits[3], signals, sanitizer, silent, other;
} Tally;

/* Whether the outcome is acceptable; why it is not in why. */
static bool judge(const Outcome *o, bool usage_allowed, char *why, size_t size, Tally *t)
{
	if (WIFSIGNALED(o->status)) {
		t->signals++;
		snprintf(why, size, "ended by signal %d (%s)", WTERMSIG(o->status), strsignal(WTERMSIG(o->status)));
		return false;
	}
	int code = WEXITSTATUS(o->status);
	if (o->err.len && (strstr(o->err.data, "Sanitizer") || strstr(o->err.data, "runtime error:"))) {
		t->sanitizer++;
		snprintf(why, size, "a sanitizer's report (exit %d)", code);
		return false;
	}
	if (code > 2 || (code == 2 && !usage_allowed)) {
		t->other++;
		snprintf(why, size, "exit %d", code);
		return false;
	}
	t->exits[code]++;
	if (code != 0 && o->err.len == 0) {
		t->silent++;
		snprintf(why, size, "exit %d without a message", code);
		return false;
	}
	return true;
}

static void usage(void)
{
	fputs("usage: fuzz_cli --pgbind PATH [--cases N] [--seed S] [--save DIR] SEED.sql...\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *pgbind = NULL, *seed_pgbind = NULL, *save = NULL;
	long n_cases = 1000;
	uint64_t seed = 1;
	Seeds sql = {0}, pb = {0}, json = {0};
	int first_seed = argc;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--pgbind") == 0 && i + 1 < argc)
			pgbind = argv[++i];
		else if (strcmp(argv[i], "--seed-pgbind") == 0 && i + 1 < argc)
			seed_pgbind = argv[++i];
		else if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc)
			n_cases = atol(argv[++i]);
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--save") == 0 && i + 1 < argc)
			save = argv[++i];
		else if (argv[i][0] == '-')
			usage();
		else {
			first_seed = i;
			break;
		}
	}
	if (!pgbind || first_seed == argc)
		usage();
	if (!seed_pgbind)
		seed_pgbind = pgbind;
	const char *env = getenv("PGBIND_FUZZ_DEPARSE_TREES");
	bool trees_fail = env && strcmp(env, "fail") == 0;
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;

	char dir[] = "/tmp/fuzz_cli.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("fuzz_cli: mkdtemp");
		return 2;
	}
	char in_path[64], out_path[64], err_path[64];
	snprintf(in_path, sizeof in_path, "%s/input", dir);
	snprintf(out_path, sizeof out_path, "%s/out", dir);
	snprintf(err_path, sizeof err_path, "%s/err", dir);

	/* seeds: each file's statements (split at ';' ending a line), and their protobuf and JSON */
	for (int i = first_seed; i < argc; i++) {
		Buf f = {0};
		if (!read_file(argv[i], &f)) {
			fprintf(stderr, "fuzz_cli: cannot read %s\n", argv[i]);
			return 2;
		}
		size_t start = 0;
		for (size_t k = 0; k < f.len; k++) {
			if (f.data[k] == ';' && (k + 1 == f.len || f.data[k + 1] == '\n')) {
				seeds_add(&sql, f.data + start, k + 1 - start);
				start = k + 1;
			}
		}
		free(f.data);
	}
	Outcome o = {0};
	for (size_t i = 0; i < sql.n; i += 5) { /* every 5th statement's trees */
		write_file(in_path, sql.items[i].data, sql.items[i].len);
		char *pb_argv[] = {(char *)seed_pgbind, "parse", "--format=protobuf", in_path, NULL};
		run(pb_argv, NULL, out_path, err_path, &o);
		Buf b = {0};
		if (WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0 && read_file(out_path, &b) && b.len)
			seeds_add(&pb, b.data, b.len);
		free(b.data);
		char *json_argv[] = {(char *)seed_pgbind, "parse", "--format=json", in_path, NULL};
		run(json_argv, NULL, out_path, err_path, &o);
		b = (Buf){0};
		if (WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0 && read_file(out_path, &b) && b.len)
			seeds_add(&json, b.data, b.len);
		free(b.data);
	}
	if (!sql.n || !pb.n || !json.n) {
		fprintf(stderr, "fuzz_cli: no seeds (%zu SQL, %zu protobuf, %zu JSON)\n", sql.n, pb.n, json.n);
		return 2;
	}
	printf("# seeds: %zu SQL statements, %zu protobuf and %zu JSON trees; seed %llu, %ld cases\n", sql.n, pb.n, json.n,
		   (unsigned long long)seed, n_cases);

	Tally t = {0};
	Buf input = {0};
	time_t started = time(NULL);
	for (long c = 0; c < n_cases; c++) {
		bool mangled = below(25) == 0; /* a mangled command line */
		const Command *cmd = &commands[below(N_COMMANDS)];
		const Seeds *seeds = cmd->format == FORMAT_SQL ? &sql : cmd->format == FORMAT_PROTOBUF ? &pb : &json;
		const char *kind;
		make_input(cmd->format, seeds, &input, &kind);
		write_file(in_path, input.data, input.len);
		bool from_stdin = below(2) == 0 && strncmp(cmd->args, "verify", 6) != 0;
		/* argv: pgbind, the command's words, [junk], [the file] */
		char args[128];
		snprintf(args, sizeof args, "%s", cmd->args);
		char *av[16];
		int ac = 0;
		av[ac++] = (char *)pgbind;
		for (char *w = strtok(args, " "); w && ac < 8; w = strtok(NULL, " "))
			av[ac++] = w;
		for (size_t k = 0, n = mangled ? 1 + below(3) : 0; k < n; k++) { /* junk inserted anywhere after pgbind */
			size_t at = 1 + below((size_t)ac);
			memmove(&av[at + 1], &av[at], ((size_t)ac - at) * sizeof *av);
			av[at] = (char *)junk_args[below(sizeof junk_args / sizeof *junk_args)];
			ac++;
		}
		if (!from_stdin)
			av[ac++] = in_path;
		av[ac] = NULL;
		time_t case_started = time(NULL);
		run(av, from_stdin ? in_path : NULL, NULL, err_path, &o);
		if (time(NULL) - case_started >= 5)
			printf("# case %ld (%s, %zu bytes): pgbind %s took %ld s\n", c, kind, input.len, cmd->args,
				   (long)(time(NULL) - case_started));
		char why[128];
		bool ok = judge(&o, mangled, why, sizeof why, &t);
		bool counted = !cmd->tree_deparse || trees_fail;
		if (cmd->tree_deparse)
			ok ? t.tree_passed++ : t.tree_failed++;
		if (ok || !counted)
			t.passed += ok;
		if (ok)
			continue;
		if (counted)
			t.failed++;
		char line[512] = "";
		for (int k = 1; k < ac; k++) {
			strncat(line, " ", sizeof line - strlen(line) - 1);
			strncat(line, av[k] == in_path ? "INPUT" : av[k], sizeof line - strlen(line) - 1);
		}
		char saved[600] = "";
		if (save) {
			mkdir(save, 0755);
			snprintf(saved, sizeof saved, "%s/case-%ld", save, c);
			write_file(saved, input.data, input.len);
		}
		printf("%s - case %ld (%s, %zu bytes%s): pgbind%s%s: %s%s%s\n", counted ? "not ok" : "found (not counted)", c,
			   kind, input.len, from_stdin ? ", standard input" : "", line, from_stdin ? " <INPUT" : "", why,
			   *saved ? "; input saved as " : "", saved);
		const char *e = o.err.len ? o.err.data : "";
		printf("#   stderr: %.300s\n", e);
	}
	printf("# %ld cases in %ld s: exits 0: %ld, 1: %ld, 2: %ld; by a signal %ld, sanitizer reports %ld, other exit "
		   "codes %ld, failures without a message %ld\n",
		   n_cases, (long)(time(NULL) - started), t.exits[0], t.exits[1], t.exits[2], t.signals, t.sanitizer, t.other,
		   t.silent);
	printf("# deparse of trees read from protobuf or JSON (%s): %ld passed, %ld failed\n",
		   trees_fail ? "counted: PGBIND_FUZZ_DEPARSE_TREES=fail" : "not counted until the command isolates it",
		   t.tree_passed, t.tree_failed);
	unlink(in_path);
	unlink(out_path);
	unlink(err_path);
	rmdir(dir);
	printf("%ld passed, %ld failed\n", t.passed, t.failed);
	return t.failed ? 1 : 0;
}
