/*
 * equal.c -- deep equality of two ASTs, field by field (targets/c/generated/pgNN/equal.inc.c).
 *
 * Strings compare by content (NULL counts as "", as on the wire), doubles by value or else by
 * their bits (-0.0 equals 0.0, which the protocol writes alike; a NaN equals the same NaN), arrays
 * element by element, nodes by tag first.
 * Recursive: the trees pgbind builds are bounded by max_depth.
 */
#include "internal.h"

#include <string.h>

static bool eq_node_body(const pgbind_Node *a, const pgbind_Node *b);

static bool eq_node(const pgbind_Node *a, const pgbind_Node *b)
{
	if (!a || !b)
		return a == b;
	return a->tag == b->tag && !pgbind_stack_low() && eq_node_body(a, b); /* false past the thread's stack */
}

static bool eq_string(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

#define EQ_BEGIN(M)                                              \
	static bool eq_##M(const pgbind_##M *a, const pgbind_##M *b) \
	{                                                            \
		(void)a;                                                 \
		(void)b;
#define EQ_END   \
	return true; \
	}

#define EQ_SCALAR(f)  \
	if (a->f != b->f) \
		return false;
#define EQ_INT32(f, T)  EQ_SCALAR(f)
#define EQ_UINT32(f, T) EQ_SCALAR(f)
#define EQ_INT64(f, T)  EQ_SCALAR(f)
#define EQ_UINT64(f, T) EQ_SCALAR(f)
#define EQ_BOOL(f, T)   EQ_SCALAR(f)
#define EQ_ENUM(f, T)   EQ_SCALAR(f)
#define EQ_DOUBLE(f, T)                                            \
	if (!(a->f == b->f || memcmp(&a->f, &b->f, sizeof a->f) == 0)) \
		return false;
#define EQ_STRING(f, T)         \
	if (!eq_string(a->f, b->f)) \
		return false;
#define EQ_NODE(f, T)         \
	if (!eq_node(a->f, b->f)) \
		return false;
#define EQ_ONEOF(f, T) EQ_NODE(f, T)
#define EQ_MESSAGE(f, T)                                                   \
	if ((a->f == NULL) != (b->f == NULL) || (a->f && !eq_##T(a->f, b->f))) \
		return false;
#define EQ_REPEATED_NODE(f, T)               \
	if (a->n_##f != b->n_##f)                \
		return false;                        \
	for (size_t i_ = 0; i_ < a->n_##f; i_++) \
		if (!eq_node(a->f[i_], b->f[i_]))    \
			return false;
#define EQ_REPEATED_MESSAGE(f, T)                                                                  \
	if (a->n_##f != b->n_##f)                                                                      \
		return false;                                                                              \
	for (size_t i_ = 0; i_ < a->n_##f; i_++)                                                       \
		if ((a->f[i_] == NULL) != (b->f[i_] == NULL) || (a->f[i_] && !eq_##T(a->f[i_], b->f[i_]))) \
			return false;
#define EQ_PACKED_UINT64(f, T)                                                                  \
	if (a->n_##f != b->n_##f || (a->n_##f && memcmp(a->f, b->f, a->n_##f * sizeof *a->f) != 0)) \
		return false;

#include "equal.inc.c"

bool pgbind_equal(const pgbind_Node *a, const pgbind_Node *b)
{
	return eq_node(a, b);
}

bool pgbind_ParseResult_equal(const pgbind_ParseResult *a, const pgbind_ParseResult *b)
{
	if (!a || !b)
		return a == b;
	return eq_ParseResult(a, b);
}

bool pgbind_ScanResult_equal(const pgbind_ScanResult *a, const pgbind_ScanResult *b)
{
	if (!a || !b)
		return a == b;
	return eq_ScanResult(a, b);
}
