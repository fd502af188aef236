/*
 * walk.c -- visiting and rewriting the children of AST nodes (pgbind_walk.h).
 *
 * targets/c/generated/pgNN/walk.inc.c holds one "stepper" per message: called with a Frame, it finds the next
 * occupied child slot of the message at or after the frame's position, offers it (offer()
 * below), stores the callback's edit back into the typed field, advances the frame and returns.
 * Each of the STEP_* macros here says once what that means for one wire kind, as encode.c does
 * for the encoder. Because a stepper can resume where it stopped, every walk is a loop:
 * pgbind_walk_children and pgbind_mutate_children step one frame until it is done; pgbind_walk
 * and pgbind_mutate keep a stack of frames, one per level, and push a frame for each child the
 * stepper yields. Nothing recurses on the C stack (except through non-node message fields,
 * whose nesting the schema bounds), so any depth is safe.
 *
 * The same steppers serve reading and rewriting: in walk mode offer() calls the pgbind_WalkFn on
 * the child and the store-back never fires (the slot still holds what it held), so a read-only
 * walk writes nothing to the tree.
 */
#include "internal.h"
#include "pgbind_walk.h"

#include <stdlib.h>
#include <string.h>

/* What a stepper reports. */
typedef enum Step {
	STEP_DONE,    /* no occupied slot left in this frame */
	STEP_CHILD,   /* offered a slot; walker.yield is the node it now holds, to descend into */
	STEP_SKIP,    /* offered a slot; nothing to descend into (emptied, removed, descend = false) */
	STEP_MESSAGE, /* found a non-node message (walker.yield_msg): walk through it, offer nothing */
	STEP_STOP,    /* the callback returned true */
	STEP_FAIL,    /* refused edit; status is filled */
} Step;

/* Where a stepper is: a message, the next field to look at, the next element within it. */
typedef struct Frame {
	void *msg;           /* the message (a node, or a message that is not a node kind) */
	int32_t message;     /* its index in pgbind_message_descs */
	uint32_t field;      /* index of the next field to look at */
	size_t index;        /* next element of the repeated field `field` */
	pgbind_Node *parent; /* the node that owns the slots: msg itself, or the node a non-node message is in */
} Frame;

typedef struct Walker {
	pgbind_WalkFn walk_fn;     /* walk mode */
	pgbind_MutateFn mutate_fn; /* mutate mode */
	void *ctx;
	pgbind_Status *status;
	pgbind_Node *yield; /* STEP_CHILD */
	void *yield_msg;    /* STEP_MESSAGE */
	int32_t yield_msg_index;
} Walker;

/* How a slot stores its child. */
typedef enum SlotKind {
	SLOT_SINGLE,        /* a Node, oneof or message field */
	SLOT_NODE_ARRAY,    /* an element of a repeated Node field: NULL is a NULL cell */
	SLOT_MESSAGE_ARRAY, /* an element of a repeated message field: cannot be NULL */
} SlotKind;

/* targets/c/generated/pgNN/walk.inc.c: does oneof number `oneof` (pgbind_oneof_descs order) admit this tag? */
static bool walk_oneof_has(int32_t oneof, uint32_t tag);

static const char *tag_name(uint32_t tag)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(tag);
	return d ? d->name : "(not a node kind)";
}

/* Is `replacement` something the slot may hold? Fills status when not. */
static bool acceptable(Walker *w, const char *owner, const char *field, SlotKind sk, uint32_t kind, int32_t oneof,
					   const pgbind_Node *replacement)
{
	if (!replacement) {
		if (sk != SLOT_MESSAGE_ARRAY)
			return true;
		pgbind_fail(w->status, PGBIND_ERROR_ARGUMENT,
					"%s.%s cannot hold a NULL element: set remove to take the element out", owner, field);
		return false;
	}
	uint32_t tag = (uint32_t)replacement->tag;
	if (!pgbind_node_desc(tag)) {
		pgbind_fail(w->status, PGBIND_ERROR_ARGUMENT, "%s.%s: the replacement's tag %u is not a node kind", owner,
					field, (unsigned)tag);
		return false;
	}
	if (kind != 0 && tag != kind) {
		pgbind_fail(w->status, PGBIND_ERROR_ARGUMENT, "%s.%s takes only %s nodes, not %s", owner, field, tag_name(kind),
					tag_name(tag));
		return false;
	}
	if (oneof >= 0 && !walk_oneof_has(oneof, tag)) {
		pgbind_fail(w->status, PGBIND_ERROR_ARGUMENT, "%s.%s takes only the members of oneof %s, not %s", owner, field,
					pgbind_oneof_descs[oneof].name, tag_name(tag));
		return false;
	}
	return true;
}

/*
 * Offers the occupied slot holding *node. Walk mode: calls the walk callback. Mutate mode: calls
 * the mutate callback, checks its edit and leaves the new content in *node (NULL when emptied) and
 * *removed; the caller stores it into the typed field unless this returns STEP_FAIL.
 */
static Step offer(Walker *w, const Frame *fr, const char *owner, const char *field, size_t index, SlotKind sk,
				  uint32_t kind, int32_t oneof, pgbind_Node **node, bool *removed)
{
	*removed = false;
	if (w->walk_fn) {
		if (w->walk_fn(*node, w->ctx))
			return STEP_STOP;
		w->yield = *node;
		return STEP_CHILD;
	}

	pgbind_Child c = {
		.node = *node,
		.remove = false,
		.descend = true,
		.parent = fr->parent,
		.field = field,
		.index = index,
		.repeated = sk != SLOT_SINGLE,
		.kind = (pgbind_NodeTag)kind,
		.oneof = oneof,
	};
	bool stop = w->mutate_fn(&c, w->ctx);
	if (c.remove) {
		*removed = sk != SLOT_SINGLE;
		*node = NULL;
	} else {
		if (c.node != *node && !acceptable(w, owner, field, sk, kind, oneof, c.node))
			return STEP_FAIL;
		*node = c.node;
	}
	if (stop)
		return STEP_STOP;
	if (*node && c.descend) {
		w->yield = *node;
		return STEP_CHILD;
	}
	return STEP_SKIP;
}

static Step yield_message(Walker *w, void *msg, int32_t message)
{
	w->yield_msg = msg;
	w->yield_msg_index = message;
	return STEP_MESSAGE;
}

/* The callback changed the repeated field whose element it was offered, and edited the element. */
static Step list_changed(Walker *w, const char *owner, const char *field)
{
	pgbind_fail(w->status, PGBIND_ERROR_ARGUMENT,
				"%s.%s: the callback changed the list itself while being offered one of its elements, and edited "
				"that element too: the edit cannot be applied",
				owner, field);
	return STEP_FAIL;
}

/* Takes element i out of a repeated field (pointer array arr, count *n). */
#define REMOVE_ELEMENT(arr, n, i)                                             \
	do {                                                                      \
		memmove(&(arr)[(i)], &(arr)[(i) + 1], ((n) - (i)-1) * sizeof *(arr)); \
		if (--(n) == 0)                                                       \
			(arr) = NULL;                                                     \
	} while (0)

#define STEP_BEGIN(M)                                         \
	static Step step_##M(pgbind_##M *m, Frame *fr, Walker *w) \
	{                                                         \
		static const char owner_[] = #M;                      \
		(void)m;                                              \
		(void)fr;                                             \
		(void)w;                                              \
		(void)owner_;
#define STEP_END      \
	return STEP_DONE; \
	}

/* Fields that hold no nodes. */
#define STEP_INT32(k, f, T)
#define STEP_UINT32(k, f, T)
#define STEP_INT64(k, f, T)
#define STEP_UINT64(k, f, T)
#define STEP_BOOL(k, f, T)
#define STEP_DOUBLE(k, f, T)
#define STEP_STRING(k, f, T)
#define STEP_ENUM(k, f, T)
#define STEP_PACKED_UINT64(k, f, T)

/*
 * The store-back rule, for every kind of slot: the field is written only when the callback
 * edited the pgbind_Child (child->node differs from the original, or remove), so a read-only
 * walk never writes and a callback that assigned the parent's field directly is not undone.
 */

/* A single pgbind_Node * slot: any node kind (kind 0), or a oneof's members. */
#define STEP_SINGLE_NODE_(k, f, oneof)                                                 \
	if (fr->field <= (k)) {                                                            \
		fr->field = (k) + 1;                                                           \
		if (m->f) {                                                                    \
			pgbind_Node *orig_ = m->f, *c_ = orig_;                                    \
			bool rm_;                                                                  \
			Step s_ = offer(w, fr, owner_, #f, 0, SLOT_SINGLE, 0, (oneof), &c_, &rm_); \
			if (s_ != STEP_FAIL && c_ != orig_)                                        \
				m->f = c_;                                                             \
			return s_;                                                                 \
		}                                                                              \
	}
#define STEP_NODE(k, f, T)  STEP_SINGLE_NODE_(k, f, -1)
#define STEP_ONEOF(k, f, T) STEP_SINGLE_NODE_(k, f, WALK_ONEOF_##T)

/* A pgbind_T * slot: a node of kind T only; a message that is not a node kind is walked through. */
#define STEP_MESSAGE(k, f, T)                                                                \
	if (fr->field <= (k)) {                                                                  \
		fr->field = (k) + 1;                                                                 \
		if (m->f) {                                                                          \
			if (WALK_TAG_##T == 0)                                                           \
				return yield_message(w, m->f, WALK_INDEX_##T);                               \
			pgbind_Node *orig_ = (pgbind_Node *)m->f, *c_ = orig_;                           \
			bool rm_;                                                                        \
			Step s_ = offer(w, fr, owner_, #f, 0, SLOT_SINGLE, WALK_TAG_##T, -1, &c_, &rm_); \
			if (s_ != STEP_FAIL && c_ != orig_)                                              \
				m->f = (pgbind_##T *)c_;                                                     \
			return s_;                                                                       \
		}                                                                                    \
	}

/*
 * Repeated fields: the frame's index walks the elements; NULL cells are passed over; a removed
 * element's place is taken by the next one, so the index stays. If the callback changed the
 * array itself (the element is no longer where it was), the walk goes on with the next index
 * and an edit of the pgbind_Child cannot be applied: that is an error.
 */
#define STEP_REPEATED_(k, f, sk, kind, message_index, ELEM)                      \
	if (fr->field <= (k)) {                                                      \
		fr->field = (k);                                                         \
		while (fr->index < m->n_##f) {                                           \
			size_t i_ = fr->index;                                               \
			pgbind_Node *orig_ = (pgbind_Node *)m->f[i_], *c_ = orig_;           \
			if (!orig_) {                                                        \
				fr->index++;                                                     \
				continue;                                                        \
			}                                                                    \
			if ((kind) == 0 && (sk) == SLOT_MESSAGE_ARRAY) {                     \
				fr->index++;                                                     \
				return yield_message(w, orig_, (message_index));                 \
			}                                                                    \
			bool rm_;                                                            \
			Step s_ = offer(w, fr, owner_, #f, i_, (sk), (kind), -1, &c_, &rm_); \
			if (s_ == STEP_FAIL)                                                 \
				return s_;                                                       \
			if (i_ >= m->n_##f || (pgbind_Node *)m->f[i_] != orig_) {            \
				fr->index++;                                                     \
				return rm_ || c_ != orig_ ? list_changed(w, owner_, #f) : s_;    \
			}                                                                    \
			if (rm_) {                                                           \
				REMOVE_ELEMENT(m->f, m->n_##f, i_);                              \
			} else {                                                             \
				if (c_ != orig_)                                                 \
					m->f[i_] = (ELEM)c_;                                         \
				fr->index++;                                                     \
			}                                                                    \
			return s_;                                                           \
		}                                                                        \
		fr->field = (k) + 1;                                                     \
		fr->index = 0;                                                           \
	}

#define STEP_REPEATED_NODE(k, f, T) STEP_REPEATED_(k, f, SLOT_NODE_ARRAY, 0, -1, pgbind_Node *)
#define STEP_REPEATED_MESSAGE(k, f, T) \
	STEP_REPEATED_(k, f, SLOT_MESSAGE_ARRAY, WALK_TAG_##T, WALK_INDEX_##T, pgbind_##T *)

#include "walk.inc.c"

/* ---- frames ---------------------------------------------------------------------------------- */

/* A frame at the start of node's slots; false when node's tag is not a node kind. */
static bool node_frame(pgbind_Node *node, Frame *fr)
{
	const pgbind_MessageDesc *d = pgbind_node_desc((uint32_t)node->tag);
	if (!d)
		return false;
	*fr = (Frame){.msg = node, .message = (int32_t)(d - pgbind_message_descs), .parent = node};
	return true;
}

/*
 * Steps one frame to its end (the *_children functions). A non-node message met on the way is
 * walked through here, by recursion: message types that are not node kinds cannot nest deeper
 * than the schema nests them.
 */
static Step run_frame(Frame *fr, Walker *w)
{
	for (;;) {
		Step s = step_frame(fr, w);
		switch (s) {
		case STEP_CHILD:
		case STEP_SKIP:
			continue;
		case STEP_MESSAGE: {
			Frame sub = {.msg = w->yield_msg, .message = w->yield_msg_index, .parent = fr->parent};
			s = run_frame(&sub, w);
			if (s != STEP_DONE)
				return s;
			continue;
		}
		case STEP_DONE:
		case STEP_STOP:
		case STEP_FAIL:
			return s;
		}
	}
}

/* The whole-tree walks' stack: frames in a buffer on the C stack, then on the heap. */
#define INLINE_FRAMES 64

typedef struct Stack {
	Frame *frames;
	size_t n, cap;
	Frame inline_frames[INLINE_FRAMES];
} Stack;

static bool stack_push(Stack *st, Frame fr, pgbind_Status *status)
{
	if (st->n == st->cap) {
		if (st->cap > SIZE_MAX / 2 / sizeof(Frame)) {
			pgbind_fail(status, PGBIND_ERROR_NOMEM, "the walk's stack cannot grow beyond %zu levels", st->cap);
			return false;
		}
		size_t cap = st->cap * 2;
		Frame *grown =
			st->frames == st->inline_frames ? malloc(cap * sizeof *grown) : realloc(st->frames, cap * sizeof *grown);
		if (!grown) {
			pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory for the walk's stack (%zu levels)", st->n);
			return false;
		}
		if (st->frames == st->inline_frames)
			memcpy(grown, st->inline_frames, sizeof st->inline_frames);
		st->frames = grown;
		st->cap = cap;
	}
	st->frames[st->n++] = fr;
	return true;
}

/*
 * The whole-tree loop: steps the top frame; a yielded child (already offered) gets a frame of its
 * own on top, so its subtree is done before the parent's next slot: pre-order.
 */
static pgbind_WalkResult run_stack(Frame first, Walker *w)
{
	Stack st = {.n = 0, .cap = INLINE_FRAMES};
	st.frames = st.inline_frames;
	pgbind_WalkResult result = PGBIND_WALK_DONE;
	if (!stack_push(&st, first, w->status))
		return PGBIND_WALK_FAILED;
	while (st.n > 0 && result == PGBIND_WALK_DONE) {
		Frame *top = &st.frames[st.n - 1];
		Frame next;
		switch (step_frame(top, w)) {
		case STEP_DONE:
			st.n--;
			break;
		case STEP_SKIP:
			break;
		case STEP_CHILD:
			if (!node_frame(w->yield, &next)) {
				pgbind_fail(w->status, PGBIND_ERROR_INVALID, "a child of a %s has tag %u, which is not a node kind",
							pgbind_message_descs[top->message].name, (unsigned)w->yield->tag);
				result = PGBIND_WALK_FAILED;
			} else if (!stack_push(&st, next, w->status)) {
				result = PGBIND_WALK_FAILED;
			}
			break;
		case STEP_MESSAGE:
			next = (Frame){.msg = w->yield_msg, .message = w->yield_msg_index, .parent = top->parent};
			if (!stack_push(&st, next, w->status))
				result = PGBIND_WALK_FAILED;
			break;
		case STEP_STOP:
			result = PGBIND_WALK_STOPPED;
			break;
		case STEP_FAIL:
			result = PGBIND_WALK_FAILED;
			break;
		}
	}
	if (st.frames != st.inline_frames)
		free(st.frames);
	return result;
}

static pgbind_WalkResult to_result(Step s)
{
	return s == STEP_STOP ? PGBIND_WALK_STOPPED : s == STEP_FAIL ? PGBIND_WALK_FAILED : PGBIND_WALK_DONE;
}

/* ---- walking --------------------------------------------------------------------------------- */

bool pgbind_walk_children(pgbind_Node *node, pgbind_WalkFn fn, void *ctx)
{
	Frame fr;
	if (!node || !fn || !node_frame(node, &fr))
		return false;
	Walker w = {.walk_fn = fn, .ctx = ctx};
	return run_frame(&fr, &w) == STEP_STOP;
}

pgbind_WalkResult pgbind_walk(pgbind_Node *root, pgbind_WalkFn fn, void *ctx, pgbind_Status *status)
{
	if (!fn) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_walk: fn is NULL");
		return PGBIND_WALK_FAILED;
	}
	if (!root)
		return PGBIND_WALK_DONE;
	if (fn(root, ctx))
		return PGBIND_WALK_STOPPED;
	Frame fr;
	if (!node_frame(root, &fr)) {
		pgbind_fail(status, PGBIND_ERROR_INVALID, "pgbind_walk: the root's tag %u is not a node kind",
					(unsigned)root->tag);
		return PGBIND_WALK_FAILED;
	}
	Walker w = {.walk_fn = fn, .ctx = ctx, .status = status};
	return run_stack(fr, &w);
}

pgbind_WalkResult pgbind_ParseResult_walk(pgbind_ParseResult *tree, pgbind_WalkFn fn, void *ctx, pgbind_Status *status)
{
	if (!fn) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_ParseResult_walk: fn is NULL");
		return PGBIND_WALK_FAILED;
	}
	if (!tree)
		return PGBIND_WALK_DONE;
	Walker w = {.walk_fn = fn, .ctx = ctx, .status = status};
	return run_stack((Frame){.msg = tree, .message = WALK_INDEX_ParseResult}, &w);
}

/* ---- rewriting ------------------------------------------------------------------------------- */

pgbind_WalkResult pgbind_mutate_children(pgbind_Node *node, pgbind_MutateFn fn, void *ctx, pgbind_Status *status)
{
	if (!fn) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_mutate_children: fn is NULL");
		return PGBIND_WALK_FAILED;
	}
	Frame fr;
	if (!node || !node_frame(node, &fr))
		return PGBIND_WALK_DONE; /* as pgbind_walk_children: no children */
	Walker w = {.mutate_fn = fn, .ctx = ctx, .status = status};
	return to_result(run_frame(&fr, &w));
}

pgbind_WalkResult pgbind_mutate(pgbind_Node *root, pgbind_MutateFn fn, void *ctx, pgbind_Status *status)
{
	if (!fn) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_mutate: fn is NULL");
		return PGBIND_WALK_FAILED;
	}
	if (!root)
		return PGBIND_WALK_DONE;
	Frame fr;
	if (!node_frame(root, &fr)) {
		pgbind_fail(status, PGBIND_ERROR_INVALID, "pgbind_mutate: the root's tag %u is not a node kind",
					(unsigned)root->tag);
		return PGBIND_WALK_FAILED;
	}
	Walker w = {.mutate_fn = fn, .ctx = ctx, .status = status};
	return run_stack(fr, &w);
}

pgbind_WalkResult pgbind_ParseResult_mutate(pgbind_ParseResult *tree, pgbind_MutateFn fn, void *ctx,
											pgbind_Status *status)
{
	if (!fn) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_ParseResult_mutate: fn is NULL");
		return PGBIND_WALK_FAILED;
	}
	if (!tree)
		return PGBIND_WALK_DONE;
	Walker w = {.mutate_fn = fn, .ctx = ctx, .status = status};
	return run_stack((Frame){.msg = tree, .message = WALK_INDEX_ParseResult}, &w);
}
