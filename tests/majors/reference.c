/*
 * reference.c -- one libpg_query major alone in its process, the reference the test of the link
 * layer compares with (tests/majors/one_process.c runs it): mk/majors.mk links it, with
 * tests/majors/answers.c, against a major's own libpg_query.a, its symbols not renamed.
 *
 *   reference [-c SQL | FILE]...
 *
 * For each input (SQL given with -c, or a file's whole text) it writes the answers (answers.h)
 * as "LENGTH\n" and that many bytes. Exit 0, or 2 with a message when an input cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "read_file.h"

extern const MajorApi answers_reference;

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *sql;
		if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
			sql = strdup(argv[++i]);
		} else if (!(sql = majors_read_file(argv[i]))) {
			fprintf(stderr, "reference: cannot read %s\n", argv[i]);
			return 2;
		}
		char *a = answers_reference.answers(sql);
		printf("%zu\n", strlen(a));
		fwrite(a, 1, strlen(a), stdout);
		free(a);
		free(sql);
	}
	return fflush(stdout) == 0 ? 0 : 2;
}
