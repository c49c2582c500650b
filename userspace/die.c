// SPDX-License-Identifier: GPL-2.0
/*
 * How mwictl ends: fatal errors as one line on standard error, exit statuses
 * ranked by severity, and the check that standard output was written.
 * Every other file may use these; this one depends on nothing of mwictl's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

/*
 * Exit statuses from the least to the most severe, as mwictl(8) lists them:
 * a bound driver (7) changed nothing and harms nothing; an I/O error or a
 * failed bind (6) may have left a function without its driver. A usage error
 * (1) stops mwictl before it acts on anything.
 */
static const int severity[] = {
	EXIT_OK, EXIT_BUSY, EXIT_REFUSED, EXIT_NODEV, EXIT_NOATTR, EXIT_PERM, EXIT_IO,
	EXIT_USAGE,
};

static size_t rank(int code)
{
	size_t i;

	for (i = 0; i < sizeof(severity) / sizeof(severity[0]) - 1; i++)
		if (severity[i] == code)
			break;
	return i;
}

/* The more severe of two exit statuses. */
int exit_worse(int a, int b)
{
	return rank(b) > rank(a) ? b : a;
}

/*
 * Flush and close standard output, and say once when a write to it failed
 * (a full disk; a closed pipe when SIGPIPE is ignored: by default SIGPIPE
 * ends mwictl first, as it ends lspci). @code, or EXIT_IO when a write
 * failed and @code is less severe.
 */
int out_close(int code)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno;
	if (!err)
		return code;
	fprintf(stderr, "mwictl: standard output: %s\n", strerror(err));
	return exit_worse(code, EXIT_IO);
}

/* Print "mwictl: <what>: <why>" and exit with @code (or 6, see out_close()). */
void die_vcode(int code, const char *fmt, va_list ap)
{
	fputs("mwictl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(out_close(code));
}

/* The same, exit 1 (usage or bad input). */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_vcode(EXIT_USAGE, fmt, ap);
}

/* The same with another exit code. */
void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_vcode(code, fmt, ap);
}
