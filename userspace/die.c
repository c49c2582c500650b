// SPDX-License-Identifier: GPL-2.0
/*
 * Fatal errors: one line on standard error and the exit code of mwictl(8).
 * Every other file may use these; this one depends on nothing of mwictl's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mwictl.h"

static void __attribute__((noreturn, format(printf, 2, 0)))
vdie(int code, const char *fmt, va_list ap)
{
	fputs("mwictl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(code);
}

/* Print "mwictl: <what>: <why>" and exit 1 (usage or bad input). */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
}

/* The same with another exit code. */
void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(code, fmt, ap);
}
