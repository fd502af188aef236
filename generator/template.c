/*
 * template.c -- the template engine behind template_render() (see template.h): a small, strict
 * subset of mustache used to render C source from the files under templates/.
 *
 * A template is parsed once into a flat array of nodes. Literal text nodes point into the
 * template itself, and each section node records the index just past its body, so rendering is
 * a plain loop that recurses only into a section's body. Keys are split into their dotted
 * segments at parse time, so a lookup at render time is a walk down the context stack with one
 * hash lookup per frame. Everything that can be checked without data (tag syntax, section
 * nesting, key names) is rejected at parse time, before any output is produced.
 */
#include "template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
	NODE_TEXT,
	NODE_VAR,
	NODE_SECTION,
	NODE_INVERTED,
} NodeKind;

typedef enum {
	KEY_PLAIN, /* a name or a dotted path, looked up on the context stack */
	KEY_SELF,  /* {{.}} */
	KEY_INDEX, /* {{@index}} */
	KEY_FIRST, /* {{@first}} */
	KEY_LAST,  /* {{@last}} */
} KeyKind;

typedef struct {
	NodeKind kind;
	KeyKind key;
	int line;
	int col;
	size_t start; /* TEXT: the bytes to copy; tags: the key as written, for messages */
	size_t len;
	size_t segs; /* offset in Template.keys of the first NUL-terminated segment */
	size_t nsegs;
	size_t end; /* sections: index of the first node after the body */
} Node;

typedef struct {
	const char *name;
	const char *text;
	Node *nodes;
	size_t nnodes;
	size_t cap;
	/* Key segments live in one buffer rather than one allocation per tag; nodes refer to them
	 * by offset because the buffer moves as it grows. */
	gen_Buf keys;
	size_t max_depth;
} Template;

/* One entry of the context stack. Array sections push one frame per element and remember
 * where they are, which is what @index, @first and @last report. */
typedef struct {
	const json_t *value;
	bool iter;
	size_t index;
	size_t count;
} Frame;

/* A resolved key. The special keys have no json_t behind them, so a value is a jansson type
 * plus either the json_t or the integer/boolean it stands for. */
typedef struct {
	json_type type;
	const json_t *json;
	json_int_t integer;
} Value;

typedef struct {
	const Template *t;
	Frame *stack;
	size_t depth;
	gen_Buf *out;
	gen_Error *err;
} Renderer;

static void *grow(void *ptr, size_t *cap, size_t used, size_t elem)
{
	size_t ncap = *cap ? *cap * 2 : 32;
	void *p = gen_xmalloc(ncap * elem);
	if (used)
		memcpy(p, ptr, used * elem);
	free(ptr);
	*cap = ncap;
	return p;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static size_t add_node(Template *t, NodeKind kind, int line, int col, size_t start, size_t len)
{
	if (t->nnodes == t->cap)
		t->nodes = grow(t->nodes, &t->cap, t->nnodes, sizeof *t->nodes);
	Node *n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->line = line;
	n->col = col;
	n->start = start;
	n->len = len;
	return t->nnodes++;
}

static void add_text(Template *t, size_t start, size_t end)
{
	if (end > start)
		add_node(t, NODE_TEXT, 0, 0, start, end - start);
}

/* Validates the key of a tag and splits it into segments. Done at parse time so that a
 * malformed key is reported even in a section that the data never renders. */
static bool parse_key(Template *t, Node *n, gen_Error *err)
{
	const char *k = t->text + n->start;
	size_t len = n->len;

	if (len == 1 && k[0] == '.') {
		n->key = KEY_SELF;
		return true;
	}
	if (k[0] == '@') {
		if (len == 6 && memcmp(k, "@index", 6) == 0)
			n->key = KEY_INDEX;
		else if (len == 6 && memcmp(k, "@first", 6) == 0)
			n->key = KEY_FIRST;
		else if (len == 5 && memcmp(k, "@last", 5) == 0)
			n->key = KEY_LAST;
		else
			return gen_fail(err, t->name, n->line, n->col,
							"unknown special key '%.*s' (there are @index, @first and @last)", (int)len, k);
		return true;
	}

	n->key = KEY_PLAIN;
	n->segs = t->keys.len;
	size_t seg_start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || k[i] == '.') {
			if (i == seg_start)
				return gen_fail(err, t->name, n->line, n->col, "invalid key '%.*s'", (int)len, k);
			gen_Buf_append(&t->keys, k + seg_start, i - seg_start);
			gen_Buf_append(&t->keys, "", 1);
			n->nsegs++;
			seg_start = i + 1;
		} else if (!is_key_char(k[i])) {
			return gen_fail(err, t->name, n->line, n->col, "invalid key '%.*s'", (int)len, k);
		}
	}
	return true;
}

/* Line counting is incremental: positions only move forward, so the whole template is scanned
 * for newlines exactly once. */
typedef struct {
	size_t pos;
	int line;
	size_t line_start;
} LineCounter;

static void advance(LineCounter *lc, const char *s, size_t target)
{
	while (lc->pos < target) {
		const char *nl = memchr(s + lc->pos, '\n', target - lc->pos);
		if (!nl) {
			lc->pos = target;
			break;
		}
		lc->line++;
		lc->pos = lc->line_start = (size_t)(nl - s) + 1;
	}
}

typedef enum {
	TAG_VAR,
	TAG_SECTION,
	TAG_INVERTED,
	TAG_CLOSE,
	TAG_COMMENT,
} TagKind;

static bool parse(Template *t, gen_Error *err)
{
	const char *s = t->text;
	size_t len = strlen(s);
	size_t text_start = 0;
	LineCounter lc = {0, 1, 0};
	size_t *open = NULL;
	size_t nopen = 0;
	size_t open_cap = 0;
	bool ok = false;

	for (;;) {
		const char *p = strstr(s + text_start, "{{");
		if (!p) {
			add_text(t, text_start, len);
			break;
		}
		size_t tag = (size_t)(p - s);
		advance(&lc, s, tag);
		int line = lc.line;
		int col = (int)(tag - lc.line_start) + 1;

		const char *q = strstr(p + 2, "}}");
		if (!q) {
			gen_fail(err, t->name, line, col, "unclosed '{{' (no matching '}}')");
			goto done;
		}
		size_t tag_end = (size_t)(q - s) + 2;

		size_t cs = tag + 2;
		size_t ce = (size_t)(q - s);
		while (cs < ce && is_space(s[cs]))
			cs++;
		while (ce > cs && is_space(s[ce - 1]))
			ce--;
		if (cs == ce) {
			gen_fail(err, t->name, line, col, "empty tag");
			goto done;
		}
		TagKind kind = TAG_VAR;
		switch (s[cs]) {
		case '#':
			kind = TAG_SECTION;
			break;
		case '^':
			kind = TAG_INVERTED;
			break;
		case '/':
			kind = TAG_CLOSE;
			break;
		case '!':
			kind = TAG_COMMENT;
			break;
		default:
			break;
		}
		if (kind != TAG_VAR) {
			cs++;
			while (cs < ce && is_space(s[cs]))
				cs++;
			if (kind != TAG_COMMENT && cs == ce) {
				gen_fail(err, t->name, line, col, "empty tag");
				goto done;
			}
		}

		/*
		 * A tag other than a variable that is alone on its line (apart from blanks) takes the
		 * whole line with it, newline included, so that section tags can sit on lines of their
		 * own. line_start >= text_start means no other tag ended on this line before this one.
		 */
		size_t text_end = tag;
		size_t next = tag_end;
		if (kind != TAG_VAR && lc.line_start >= text_start) {
			size_t i = lc.line_start;
			while (i < tag && is_blank(s[i]))
				i++;
			if (i == tag) {
				size_t j = tag_end;
				bool standalone = true;
				while (is_blank(s[j]))
					j++;
				if (s[j] == '\n')
					j++;
				else if (s[j] == '\r' && s[j + 1] == '\n')
					j += 2;
				else if (s[j] != '\0')
					standalone = false;
				if (standalone) {
					text_end = lc.line_start;
					next = j;
				}
			}
		}
		add_text(t, text_start, text_end);
		text_start = next;

		switch (kind) {
		case TAG_COMMENT:
			break;
		case TAG_VAR:
		case TAG_SECTION:
		case TAG_INVERTED: {
			NodeKind nk = kind == TAG_VAR ? NODE_VAR : kind == TAG_SECTION ? NODE_SECTION : NODE_INVERTED;
			size_t idx = add_node(t, nk, line, col, cs, ce - cs);
			if (!parse_key(t, &t->nodes[idx], err))
				goto done;
			if (kind != TAG_VAR) {
				if (nopen == open_cap)
					open = grow(open, &open_cap, nopen, sizeof *open);
				open[nopen++] = idx;
				if (nopen > t->max_depth)
					t->max_depth = nopen;
			}
			break;
		}
		case TAG_CLOSE: {
			if (nopen == 0) {
				gen_fail(err, t->name, line, col, "{{/%.*s}} closes no open section", (int)(ce - cs), s + cs);
				goto done;
			}
			Node *sec = &t->nodes[open[nopen - 1]];
			if (sec->len != ce - cs || memcmp(s + sec->start, s + cs, sec->len) != 0) {
				gen_fail(err, t->name, line, col, "{{/%.*s}} closes section '%.*s' (opened at %d:%d)", (int)(ce - cs),
						 s + cs, (int)sec->len, s + sec->start, sec->line, sec->col);
				goto done;
			}
			sec->end = t->nnodes;
			nopen--;
			break;
		}
		}
	}

	if (nopen > 0) {
		const Node *sec = &t->nodes[open[nopen - 1]];
		gen_fail(err, t->name, sec->line, sec->col, "section '%.*s' is never closed", (int)sec->len, s + sec->start);
		goto done;
	}
	ok = true;

done:
	free(open);
	return ok;
}

static const char *type_name(json_type type)
{
	switch (type) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_NULL:
		return "null";
	}
	return "an unknown value";
}

static void set_json(Value *v, const json_t *j)
{
	v->type = json_typeof(j);
	v->json = j;
	v->integer = v->type == JSON_INTEGER ? json_integer_value(j) : 0;
}

static bool resolve(Renderer *r, const Node *n, Value *v)
{
	const Template *t = r->t;
	const char *name = t->text + n->start;

	switch (n->key) {
	case KEY_SELF:
		set_json(v, r->stack[r->depth - 1].value);
		return true;
	case KEY_INDEX:
	case KEY_FIRST:
	case KEY_LAST: {
		/* The innermost array section counts, even through object sections pushed since. */
		const Frame *f = NULL;
		for (size_t i = r->depth; i-- > 0;) {
			if (r->stack[i].iter) {
				f = &r->stack[i];
				break;
			}
		}
		if (!f)
			return gen_fail(r->err, t->name, n->line, n->col, "'%.*s' used outside an array section", (int)n->len,
							name);
		v->json = NULL;
		v->integer = 0;
		if (n->key == KEY_INDEX) {
			v->type = JSON_INTEGER;
			v->integer = (json_int_t)f->index;
		} else if (n->key == KEY_FIRST) {
			v->type = f->index == 0 ? JSON_TRUE : JSON_FALSE;
		} else {
			v->type = f->index + 1 == f->count ? JSON_TRUE : JSON_FALSE;
		}
		return true;
	}
	case KEY_PLAIN:
		break;
	}

	const char *seg = t->keys.data + n->segs;
	const json_t *j = NULL;
	for (size_t i = r->depth; i-- > 0;) {
		const json_t *frame = r->stack[i].value;
		if (json_is_object(frame) && (j = json_object_get(frame, seg)) != NULL)
			break;
	}
	if (!j)
		return gen_fail(r->err, t->name, n->line, n->col, "unknown key '%.*s'", (int)n->len, name);

	/* Only the first segment is looked up on the stack; the rest must be members of it. */
	size_t prefix = strlen(seg);
	for (size_t k = 1; k < n->nsegs; k++) {
		seg += strlen(seg) + 1;
		if (!json_is_object(j))
			return gen_fail(r->err, t->name, n->line, n->col, "unknown key '%.*s': '%.*s' is %s, not an object",
							(int)n->len, name, (int)prefix, name, type_name(json_typeof(j)));
		const json_t *member = json_object_get(j, seg);
		if (!member)
			return gen_fail(r->err, t->name, n->line, n->col, "unknown key '%.*s': '%.*s' has no member '%s'",
							(int)n->len, name, (int)prefix, name, seg);
		j = member;
		prefix += 1 + strlen(seg);
	}
	set_json(v, j);
	return true;
}

static bool render_range(Renderer *r, size_t begin, size_t end);

static bool render_var(Renderer *r, const Node *n)
{
	Value v;
	if (!resolve(r, n, &v))
		return false;
	switch (v.type) {
	case JSON_STRING:
		gen_Buf_append(r->out, json_string_value(v.json), json_string_length(v.json));
		return true;
	case JSON_INTEGER: {
		char num[32];
		int len = snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, v.integer);
		gen_Buf_append(r->out, num, (size_t)len);
		return true;
	}
	case JSON_TRUE:
		gen_Buf_append(r->out, "true", 4);
		return true;
	case JSON_FALSE:
		gen_Buf_append(r->out, "false", 5);
		return true;
	default:
		return gen_fail(r->err, r->t->name, n->line, n->col, "{{%.*s}}: cannot insert %s", (int)n->len,
						r->t->text + n->start, type_name(v.type));
	}
}

static bool render_section(Renderer *r, size_t idx)
{
	const Node *n = &r->t->nodes[idx];
	bool inverted = n->kind == NODE_INVERTED;
	Value v;
	bool truthy;

	if (!resolve(r, n, &v))
		return false;
	switch (v.type) {
	case JSON_ARRAY: {
		size_t count = json_array_size(v.json);
		if (inverted || count == 0)
			break;
		for (size_t i = 0; i < count; i++) {
			r->stack[r->depth++] = (Frame){json_array_get(v.json, i), true, i, count};
			bool ok = render_range(r, idx + 1, n->end);
			r->depth--;
			if (!ok)
				return false;
		}
		return true;
	}
	case JSON_OBJECT: {
		if (inverted)
			return true;
		r->stack[r->depth++] = (Frame){v.json, false, 0, 0};
		bool ok = render_range(r, idx + 1, n->end);
		r->depth--;
		return ok;
	}
	case JSON_REAL:
		/* Whether 0.0 or NaN is "empty" is a question no template should depend on. */
		return gen_fail(r->err, r->t->name, n->line, n->col, "{{%c%.*s}}: cannot use a real number as a section",
						inverted ? '^' : '#', (int)n->len, r->t->text + n->start);
	default:
		break;
	}

	switch (v.type) {
	case JSON_ARRAY:
		truthy = json_array_size(v.json) > 0;
		break;
	case JSON_TRUE:
		truthy = true;
		break;
	case JSON_STRING:
		truthy = json_string_length(v.json) > 0;
		break;
	case JSON_INTEGER:
		truthy = v.integer != 0;
		break;
	default:
		truthy = false;
		break;
	}
	if (truthy == inverted)
		return true;
	return render_range(r, idx + 1, n->end);
}

static bool render_range(Renderer *r, size_t begin, size_t end)
{
	const Node *nodes = r->t->nodes;
	size_t i = begin;

	while (i < end) {
		const Node *n = &nodes[i];
		switch (n->kind) {
		case NODE_TEXT:
			gen_Buf_append(r->out, r->t->text + n->start, n->len);
			i++;
			break;
		case NODE_VAR:
			if (!render_var(r, n))
				return false;
			i++;
			break;
		case NODE_SECTION:
		case NODE_INVERTED:
			if (!render_section(r, i))
				return false;
			i = n->end;
			break;
		}
	}
	return true;
}

bool template_render(const char *name, const char *text, json_t *ctx, gen_Buf *out, gen_Error *err)
{
	Template t = {.name = name, .text = text};
	size_t saved_len = out->len;
	bool ok = false;

	if (!json_is_object(ctx))
		return gen_fail(err, name, 0, 0, "template context is not an object");

	if (parse(&t, err)) {
		Renderer r = {.t = &t, .out = out, .err = err};
		/* Every section pushes at most one frame, so nesting depth bounds the stack. */
		r.stack = gen_xcalloc(t.max_depth + 1, sizeof *r.stack);
		r.stack[r.depth++] = (Frame){ctx, false, 0, 0};
		ok = render_range(&r, 0, t.nnodes);
		free(r.stack);
	}

	/* A half-rendered file is never useful, so a failure leaves out as the caller gave it. */
	if (!ok && out->data) {
		out->len = saved_len;
		out->data[saved_len] = '\0';
	}
	free(t.nodes);
	gen_Buf_free(&t.keys);
	return ok;
}
