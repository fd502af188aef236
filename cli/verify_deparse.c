/*
 * verify_deparse.c -- how `pgbind verify` judges pgbind's deparse of a statement: against
 * pg_query_deparse_protobuf of libpg_query's own bytes (run in the oracle's server,
 * cli/verify_oracle.c), or, where that cannot be the oracle (the protocol loses an empty string,
 * the bytes break the deparse contract, the deparser crashes or misreads), against a parse back
 * of pgbind's SQL; and the round-trip check (--check). pgbind's deparse runs isolated
 * (pgbind_Options.isolate_deparse): the command never runs libpg_query's deparser in its own
 * process. Entry point verify_deparse() (cli/verify.h).
 */
#include "verify.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pgbind's deparse as the command runs it: in the deparse server */
static const pgbind_Options isolated = {.isolate_deparse = true};

/* Whether libpg_query's deparser may be handed these protobuf bytes: their tree meets the deparse
 * contract (schema/pgNN/deparse.txt). The verifier never hands it a tree known to crash it, not
 * even in a child (under a sanitizer the child's report is the run's). */
static bool bytes_meet_contract(const uint8_t *bytes, size_t len, pgbind_Arena *arena)
{
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_decode(bytes, len, NULL, arena, &status);
	return tree && pgbind_check_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &status);
}

/* Whether sql parses back to nodes PostgreSQL's equal() finds equal to tree's (locations aside). */
static bool parses_back_equal(const char *sql, const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	pgbind_ParseResult *back = pgbind_parse(sql, NULL, arena, NULL);
	return back && verify_same_nodes(tree, back);
}

/* What pg_query_deparse_protobuf does with these bytes, in the oracle's server (so that verify
 * survives it): SQL that parses back equal() to tree (*sql: it, malloc'd), its error (*sql: the
 * message), SQL of another tree (what it reads past a node decides which), or death (a signal, or
 * a sanitizer's report and a non-zero exit). */
enum { THEIRS_RIGHT, THEIRS_ERROR, THEIRS_WRONG, THEIRS_DIED };
static int their_deparse(const uint8_t *bytes, size_t len, const pgbind_ParseResult *tree, pgbind_Arena *arena,
						 char **sql)
{
	Oracle o;
	oracle_deparse(bytes, len, &o);
	*sql = o.text;
	if (o.fate == ORACLE_DIED)
		return THEIRS_DIED;
	if (o.fate == ORACLE_ERROR)
		return THEIRS_ERROR;
	return parses_back_equal(o.text, tree, arena) ? THEIRS_RIGHT : THEIRS_WRONG;
}

/* Whether pg_query_deparse_protobuf dies on these bytes, or writes SQL that does not parse back
 * equal() to tree (its error counts as no crash). */
static bool deparse_crashes(const uint8_t *bytes, size_t len, const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	char *sql;
	int theirs = their_deparse(bytes, len, tree, arena, &sql);
	free(sql);
	return theirs == THEIRS_WRONG || theirs == THEIRS_DIED;
}

static void list_bug(const char *file, int line, const char *stmt, const char *kind, const char *what);

/* Counts a statement whose deparse is what memory held: libpg_query's bug, not a mismatch (-v
 * lists it: what pgbind answered, then what libpg_query's process wrote, NULL: died) */
static void memory_bug(Verify *v, const char *file, int line, const char *stmt, const char *ours,
					   const pgbind_Status *status, const char *theirs)
{
	verify_report(v, CHECK_DEPARSE_MEMORY, true);
	if (!v->verbose)
		return;
	char what[700];
	snprintf(what, sizeof what, "pgbind \"%.300s\"%s%.300s%s", ours ? ours : status->message,
			 theirs ? ", libpg_query's process \"" : "", theirs ? theirs : "", theirs ? "\"" : "");
	list_bug(file, line, stmt, "memory", what);
}

/*
 * A tree a parse made that breaks a rule of the deparse contract (learnt from a corpus that lacked
 * this parse, or libpg_query's deparser crashes on it): pgbind_deparse runs the deparser in its
 * deparse server and returns its SQL as it is (the one policy: only --check parses it back). Its
 * answer must be libpg_query's for the same bytes, tried in the oracle's server first: the same
 * SQL, right or wrong; the same error; a crash where libpg_query crashes. Where the two processes
 * differ although the deparser and the tree are the same, the deparser read past a node: what it
 * wrote is what memory held, libpg_query's bug (its row, listed with -v), not a mismatch.
 * A tree the deparser handles right is counted (verify prints how many: a rule unsound there, which
 * costs a round trip to the server) and listed with -v as CONTRACT RULE UNSOUND.
 */
static void verify_isolated(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							const pgbind_ParseResult *tree, pgbind_Arena *arena, const char *ours,
							const pgbind_Status *status, const pgbind_Status *contract, const uint8_t *want,
							size_t want_len)
{
	char *sql;
	int theirs = their_deparse(want, want_len, tree, arena, &sql);
	bool ok;
	char why[768];
	if (theirs == THEIRS_ERROR) {
		ok = !ours && status->code == PGBIND_ERROR_INVALID && verify_same_message(status->message, sql);
		snprintf(why, sizeof why, "libpg_query's error \"%.300s\"", sql);
	} else if (theirs == THEIRS_DIED) {
		ok = !ours && status->code == PGBIND_ERROR_DEPARSER_CRASHED;
		snprintf(why, sizeof why, "libpg_query's deparser crashes (in its process)");
	} else {
		ok = ours && strcmp(ours, sql) == 0;
		snprintf(why, sizeof why, "libpg_query \"%.300s\"", sql);
	}
	if (!ok && (theirs == THEIRS_WRONG || theirs == THEIRS_DIED) &&
		(ours || status->code == PGBIND_ERROR_DEPARSER_CRASHED)) {
		/* the same deparser on the same tree, wrong or dead in libpg_query's process and another
		 * answer in pgbind's server: it read past a node */
		memory_bug(v, file, line, stmt, ours, status, theirs == THEIRS_DIED ? NULL : sql);
		free(sql);
		return;
	}
	verify_report(v, CHECK_DEPARSE_ISOLATED, ok);
	if (!ok) {
		char line_why[1400];
		snprintf(line_why, sizeof line_why,
				 "the tree breaks the deparse contract (%s); deparsed in a child: pgbind %.300s, %s", contract->message,
				 ours ? ours : status->message, why);
		verify_mismatch(file, line, stmt_at, stmt, line_why);
	} else if (theirs == THEIRS_RIGHT) {
		v->unsound++;
		if (v->verbose)
			printf("CONTRACT RULE UNSOUND %s:%d (deparsed right in a child): %s\n", file, line, contract->message);
	}
	free(sql);
}

/*
 * A tree that holds a shape a declared rule says the deparser reads past (schema/libpg_query.txt,
 * memory: XMLROOT's version before 18): pgbind's answer is SQL that parses back to the tree, or
 * PGBIND_ERROR_ROUND_TRIP naming libpg_query's bug, whatever libpg_query's process wrote (what
 * memory held there), or the deparser's own error, libpg_query's. Counted on the memory row;
 * listed with -v where it is the bug's error.
 */
static void verify_reads_past(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							  const pgbind_ParseResult *tree, pgbind_Arena *arena, const char *ours,
							  const pgbind_Status *status, const uint8_t *want, size_t want_len)
{
	bool ok = ours ? parses_back_equal(ours, tree, arena) : status->code == PGBIND_ERROR_ROUND_TRIP;
	if (!ours && status->code == PGBIND_ERROR_INVALID) {
		/* the deparser's own error (LIMIT xmlelement(...)): libpg_query's, for the same bytes */
		char *sql;
		ok = their_deparse(want, want_len, tree, arena, &sql) == THEIRS_ERROR &&
			 verify_same_message(status->message, sql);
		free(sql);
		verify_report(v, CHECK_DEPARSE_ISOLATED, ok);
		if (!ok)
			verify_mismatch(file, line, stmt_at, stmt, "the deparser's error differs from libpg_query's");
		return;
	}
	if (!ok) {
		verify_report(v, CHECK_DEPARSE_MEMORY, false);
		verify_mismatch(file, line, stmt_at, stmt,
						ours ? "the deparse of a tree the deparser reads past does not parse back to it"
							 : "the deparse of a tree the deparser reads past failed otherwise than its round trip");
		return;
	}
	if (ours)
		verify_report(v, CHECK_DEPARSE_MEMORY, true);
	else
		memory_bug(v, file, line, stmt, NULL, status, NULL);
}

/* deparse against libpg_query's deparse of the same bytes, or a refusal the protocol justifies */
static void judge_deparse(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
						  const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want, size_t want_len,
						  const char *ours, pgbind_Status status)
{
	char why[768];
	bool ok;
	pgbind_Status contract = {0};
	pgbind_ContractVerdict verdict = pgbind_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &contract);
	if (verdict == PGBIND_CONTRACT_REFUSED) {
		/* deeper than the thread's stack holds for the deparser (a parse makes no undeclared enum) */
		ok = !ours && status.code == contract.code;
		verify_report(v, CHECK_DEPARSE_DEPTH, ok);
		if (!ok)
			verify_mismatch(file, line, stmt_at, stmt, "the contract's walk refuses the tree, but deparse did not so");
		return;
	}
	if (verdict == PGBIND_CONTRACT_BROKEN) {
		verify_isolated(v, file, line, stmt_at, stmt, tree, arena, ours, &status, &contract, want, want_len);
		return;
	}
	if (verdict == PGBIND_CONTRACT_READS_PAST) {
		verify_reads_past(v, file, line, stmt_at, stmt, tree, arena, ours, &status, want, want_len);
		return;
	}
	if (!ours && status.code == PGBIND_ERROR_UNREPRESENTABLE) {
		/* refused: it holds if the tree nests deeper than the documented limit of the protobuf
		 * route, or if libpg_query's own deparse of these bytes crashes or writes SQL that does not
		 * parse back equal() (tried in a child process); not merely because the protocol loses an
		 * empty string of the tree: where libpg_query's SQL is right, so must pgbind's be */
		ok = !bytes_meet_contract(want, want_len, arena) || deparse_crashes(want, want_len, tree, arena);
		verify_report(v, CHECK_DEPARSE_REFUSED, ok);
		if (!ok) {
			snprintf(why, sizeof why, "deparse refused (%s), but libpg_query deparses these bytes", status.message);
			verify_mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	if (ours && verify_protocol_loses(tree, want, want_len)) {
		/* pgbind deparsed from the nodes what the protocol loses (COMMENT ... IS ''): libpg_query's
		 * protobuf route sees NULL there (and may crash on it), so it is no oracle; instead the SQL
		 * must parse back to nodes PostgreSQL's equal() finds equal to the tree's (locations aside) */
		ok = parses_back_equal(ours, tree, arena);
		verify_report(v, CHECK_DEPARSE_KEEPS, ok);
		if (!ok) {
			snprintf(why, sizeof why, "deparse \"%.300s\" does not parse back to the same nodes", ours);
			verify_mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	if (!bytes_meet_contract(want, want_len, arena)) {
		/* libpg_query's reading of the bytes breaks its deparser's contract: no oracle */
		ok = ours && parses_back_equal(ours, tree, arena);
		verify_report(v, CHECK_DEPARSE_KEEPS, ok);
		if (!ok)
			verify_mismatch(file, line, stmt_at, stmt, "deparse does not parse back to the same nodes");
		return;
	}
	Oracle theirs;
	oracle_deparse(want, want_len, &theirs);
	if (theirs.fate == ORACLE_DIED) {
		/* a parsed tree no rule of the contract covers (SET TIME ZONE INTERVAL '1 hour' on 17):
		 * pgbind's deparse (in its server) must then fail as crashed, or be right */
		ok = ours ? parses_back_equal(ours, tree, arena) : status.code == PGBIND_ERROR_DEPARSER_CRASHED;
		if (ok)
			verify_library_crashed(v, file, line, "pg_query_deparse_protobuf", theirs.why);
		else {
			snprintf(why, sizeof why, "libpg_query's deparser %s; pgbind \"%.300s\"", theirs.why,
					 ours ? ours : status.message);
			verify_report(v, CHECK_DEPARSE, false);
			verify_mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	ok = theirs.fate == ORACLE_ERROR ? !ours && verify_same_message(status.message, theirs.text)
									 : ours && strcmp(ours, theirs.text) == 0;
	if (!ok && ours && theirs.fate == ORACLE_OK && parses_back_equal(ours, tree, arena) &&
		!parses_back_equal(theirs.text, tree, arena)) {
		/* libpg_query's protobuf route wrote SQL of another tree (its deparser reads a node as
		 * another kind in XMLROOT(x, VERSION expr)), pgbind's (from the nodes) parses back equal() */
		verify_report(v, CHECK_DEPARSE_THEIRS_WRONG, true);
		free(theirs.text);
		return;
	}
	if (!ok && ours && theirs.fate == ORACLE_OK && !parses_back_equal(ours, tree, arena) &&
		parses_back_equal(theirs.text, tree, arena)) {
		/* the reverse: both ran the same deparser on the same tree (the bytes and the nodes were
		 * compared equal above), and only pgbind's process wrote SQL of another tree. Where the
		 * deparser reads past a node (XMLROOT(x, VERSION expr) before 18 reads expr as an A_Const),
		 * what it writes is what memory held, which differs between two processes: libpg_query's
		 * bug, counted on its own line and listed with -v, not a pass of the comparison. */
		verify_report(v, CHECK_DEPARSE_MEMORY, true);
		if (v->verbose)
			printf("DEPARSER BUG (memory) %s:%d: pgbind's process \"%.200s\", libpg_query's \"%.200s\"\n", file, line,
				   ours, theirs.text);
		free(theirs.text);
		return;
	}
	verify_report(v, CHECK_DEPARSE, ok);
	if (!ok) {
		snprintf(why, sizeof why, "deparse differs: pgbind \"%.300s\", libpg_query \"%.300s\"",
				 ours ? ours : status.message, theirs.text);
		verify_mismatch(file, line, stmt_at, stmt, why);
	}
	free(theirs.text);
}

/* One line per statement libpg_query's deparser gets wrong (verify -v): where the statement's
 * text begins (comments before it skipped), the text on one line, then what happened. */
static void list_bug(const char *file, int line, const char *stmt, const char *kind, const char *what)
{
	size_t skip = 0;
	for (;;) {
		while (stmt[skip] == ' ' || stmt[skip] == '\t' || stmt[skip] == '\n' || stmt[skip] == '\r')
			skip++;
		if (strncmp(stmt + skip, "--", 2) != 0)
			break;
		while (stmt[skip] && stmt[skip] != '\n')
			skip++;
	}
	for (size_t i = 0; i < skip; i++) /* line is the statement's first: count the comment lines skipped */
		line += stmt[i] == '\n';
	printf("DEPARSER BUG (%s) %s:%d: ", kind, file, line);
	bool space = false;
	int n = 0;
	for (const char *p = stmt + skip; *p && n < 160; p++) {
		bool ws = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
		if (ws && !space)
			putchar(' '), n++;
		else if (!ws)
			putchar(*p), n++;
		space = ws;
	}
	printf("%s\n    %.400s\n", n >= 160 ? "..." : "", what);
}

/*
 * The round-trip check (pgbind_Options.check_deparse), against an independent reading: where
 * pgbind's unchecked SQL parses back equal() to the tree (by verify's own comparison), the checked
 * deparse must return that same SQL; where it does not, the checked deparse must refuse with
 * PGBIND_ERROR_ROUND_TRIP, and the statement is one libpg_query's deparser gets wrong (its own row,
 * listed with -v). Trees the unchecked deparse refuses are counted on the refusal rows above.
 */
static void judge_round_trip(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							 const pgbind_ParseResult *tree, pgbind_Arena *arena, const char *plain,
							 pgbind_Status status)
{
	char why[768];
	pgbind_Options check = {.check_deparse = true, .isolate_deparse = true};
	if (!plain) {
		/* the deparser fails (its error), or pgbind refused what it crashes on or misreads (the
		 * refusal rows above judge those): no SQL to send, checked or not */
		pgbind_StatusCode code = status.code;
		char message[sizeof status.message];
		memcpy(message, status.message, sizeof message);
		const char *checked = pgbind_deparse(tree, &check, arena, &status);
		/* A crash, or wrong SQL from a tree that breaks the contract (the round trip of its child),
		 * is the deparser reading past a node, and what it then does is what memory held, which
		 * differs from one call of the deparse server to the next (a crash restarts it): the
		 * checked deparse may crash, fail its round trip, or return SQL, which must then parse back
		 * equal() by verify's own comparison. Any other failure is the deparser's answer to the
		 * tree: the same again. */
		bool memory = code == PGBIND_ERROR_DEPARSER_CRASHED || code == PGBIND_ERROR_ROUND_TRIP;
		bool ok = memory ? checked
							   ? parses_back_equal(checked, tree, arena)
							   : status.code == PGBIND_ERROR_DEPARSER_CRASHED || status.code == PGBIND_ERROR_ROUND_TRIP
						 : !checked && status.code == code && strcmp(status.message, message) == 0;
		verify_report(v, CHECK_DEPARSER_FAILS, ok);
		if (!ok)
			verify_mismatch(file, line, stmt_at, stmt, "the checked deparse does not fail as the unchecked one does");
		else if (v->verbose)
			list_bug(file, line, stmt, "fails", message);
		return;
	}
	const char *checked = pgbind_deparse(tree, &check, arena, &status);
	bool holds = parses_back_equal(plain, tree, arena);
	if (holds) {
		bool ok = checked && strcmp(checked, plain) == 0;
		verify_report(v, CHECK_ROUND_TRIP, ok);
		if (!ok) {
			snprintf(why, sizeof why, "deparse round trip holds, but the checked deparse %s", status.message);
			verify_mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	bool ok = !checked && status.code == PGBIND_ERROR_ROUND_TRIP;
	verify_report(v, CHECK_ROUND_TRIP_BUGS, ok);
	if (!ok) {
		snprintf(why, sizeof why, "\"%.300s\" does not parse back equal(), but the checked deparse returned it", plain);
		verify_mismatch(file, line, stmt_at, stmt, why);
	} else if (v->verbose) {
		snprintf(why, sizeof why, "\"%.300s\": %s", plain, status.message);
		list_bug(file, line, stmt, "wrong SQL", why);
	}
}

void verify_deparse(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
					const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want, size_t want_len)
{
	pgbind_Status status = {0};
	const char *ours = pgbind_deparse(tree, &isolated, arena, &status);
	judge_deparse(v, file, line, stmt_at, stmt, tree, arena, want, want_len, ours, status);
	judge_round_trip(v, file, line, stmt_at, stmt, tree, arena, ours, status);
}
