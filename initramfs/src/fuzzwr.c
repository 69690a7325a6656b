// SPDX-License-Identifier: GPL-2.0
/*
 * fuzzwr - fuzz one sysfs attribute: write generated payloads to it, each
 * with one write() on a fresh descriptor, and check the kernel's answer and
 * the value read back against a model of what the attribute's store must do.
 *
 *   fuzzwr -s SEED -n COUNT [-r INDEX] [-v] FILE RULE
 *
 * Payloads: numbers in and out of range, signs, hex, octal, exponents, huge
 * numbers, governor names and their mutations, random bytes, long strings
 * (up to 8 KiB, past the page that sysfs passes on), embedded NULs,
 * newlines and blanks around all of these, and the empty write; for a
 * bands: rule also band strings, valid and broken (unsorted, repeated or
 * zero frequencies, even counts, empty tokens, doubled or other
 * separators, values out of range, more than 31 tokens).  They
 * follow from SEED and FILE's name alone, so a run is reproduced by the
 * same SEED; -r INDEX writes only payload number INDEX of that sequence.
 *
 * The store sees the payload's first 4096 bytes (PAGE_SIZE), up to the
 * first NUL.  RULE says what it must do with them:
 *
 *   uint:MIN:MAX  kstrtouint(, 10) within [MIN, MAX]: accepted and reads
 *                 back as that number; else EINVAL (interactive tunables)
 *   int:MIN:MAX   the same with kstrtoint(, 10): a '-' may lead, the value
 *                 must fit an int, reads back "%d" (timer_slack)
 *   bands:VMIN:VMAX
 *                 "VALUE FREQ:VALUE ..." as the interactive governor's
 *                 store parses it: leading and trailing blanks (isspace)
 *                 stripped, split at each ' ' and ':' (strsep), every token
 *                 kstrtouint(, 10), VALUEs in [VMIN, VMAX], FREQs nonzero
 *                 and strictly ascending, an odd count of at most 31
 *                 tokens: accepted and reads back as "V F:V F:V"; else
 *                 EINVAL (target_loads, above_hispeed_delay)
 *   wo            write-only: accepted when kstrtouint(, 10) takes it
 *                 (any value), else EINVAL; the file is never read, so
 *                 nothing is checked after the write (boostpulse)
 *   freq:F1,F2..  sscanf("%lu") and a frequency QoS request: accepted when
 *                 a decimal digit follows the leading blanks and the value,
 *                 as the s32 that freq_qos_update_request() takes, is >= 0
 *                 or -1 (the default); reads back one of F1.., and
 *                 scaling_min_freq <= scaling_max_freq (scaling_min_freq,
 *                 scaling_max_freq)
 *   speed:F1,F2.. sscanf("%u"): accepted when a decimal digit follows the
 *                 leading blanks; reads back one of F1.. (scaling_setspeed
 *                 with the userspace governor)
 *   gov:G1,G2..   sscanf("%15s") names one of G1.. (case-insensitively):
 *                 accepted and reads back that name; else EINVAL
 *                 (scaling_governor)
 *   none          every non-empty write fails with EINVAL, the file reads
 *                 the same (scaling_setspeed without a setspeed governor)
 *
 * Every rejected write must leave the value unchanged, and an empty write
 * returns 0 and changes nothing.  A frequency QoS request changes the
 * policy's limits from a work item, after the write returned: after each
 * accepted write to a freq: file, fuzzwr waits for scaling_min_freq and
 * scaling_max_freq to settle before it reads them.  Prints one line per mismatch (index,
 * payload in hex, what was expected, what happened) and a summary line
 * "fuzzwr: FILE: N writes, A accepted, R rejected, M mismatches, seed S".
 * Exits 0 when nothing mismatched, 1 on a mismatch, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define STORE_MAX 4096		/* sysfs hands ->store() at most PAGE_SIZE */
#define PAY_MAX 8300
#define LIST_MAX 32
#define BANDS_MAX 31		/* MAX_BAND_VALUES: tokens a band string takes */
#define VAL_MAX 512		/* a value read back, or the model's want */

enum rule { R_UINT, R_INT, R_BANDS, R_WO, R_FREQ, R_SPEED, R_GOV, R_NONE };

static enum rule rule;
/*
 * R_UINT/R_BANDS bounds (R_INT's as two's complement), or the list's span.
 */
static unsigned long long lo, hi;
static char list[LIST_MAX][32];		/* R_FREQ/R_SPEED/R_GOV values */
static int nlist;
static const char *file;
static char dir[4096];

static char pay[PAY_MAX];
static size_t plen;
static uint64_t rng;

static uint64_t next64(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(unsigned int n)
{
	return n ? next64() % n : 0;
}

static void putb(const void *p, size_t n)
{
	if (n > PAY_MAX - plen)
		n = PAY_MAX - plen;
	memcpy(pay + plen, p, n);
	plen += n;
}

static void puts_(const char *s)
{
	putb(s, strlen(s));
}

static void putf(const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > 0)
		putb(b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

/* ---- the kernel's parsers, as a model ---- */

/* lib/ctype.c: isspace() is \t \n \v \f \r, space and 0xa0 */
static int k_isspace(unsigned char c)
{
	return (c >= 9 && c <= 13) || c == ' ' || c == 0xa0;
}

/* _kstrtoull(s, 10, &v) == 0: no sign, digits, an optional newline */
static int model_kstrtoull(const char *s, unsigned long long *v)
{
	unsigned long long res = 0;
	int n = 0;

	for (; *s >= '0' && *s <= '9'; s++, n++) {
		unsigned int d = *s - '0';

		if (res > (~0ULL - d) / 10)
			return 0;	/* -ERANGE */
		res = res * 10 + d;
	}
	if (!n)
		return 0;
	if (*s == '\n')
		s++;
	if (*s)
		return 0;
	*v = res;
	return 1;
}

/* kstrtouint(s, 10, &v) == 0 */
static int model_kstrtouint(const char *s, unsigned long long *v)
{
	unsigned long long res;

	if (*s == '+')
		s++;
	if (!model_kstrtoull(s, &res) || res > 0xffffffffULL)
		return 0;
	*v = res;
	return 1;
}

/*
 * kstrtoint(s, 10, &v) == 0.  kstrtoll() parses what follows a '-' with
 * _kstrtoull(), which takes no '+': "-+5" is EINVAL, "+-5" too.
 */
static int model_kstrtoint(const char *s, long long *v)
{
	unsigned long long res;

	if (*s == '-') {
		if (!model_kstrtoull(s + 1, &res) || res > 0x80000000ULL)
			return 0;
		*v = -(long long)res;
		return 1;
	}
	if (*s == '+')
		s++;
	if (!model_kstrtoull(s, &res) || res > 0x7fffffffULL)
		return 0;
	*v = (long long)res;
	return 1;
}

/*
 * interactive_parse_bands(s, lo, hi) == 0: strim(), strsep(" :"), each
 * token kstrtouint(); values (even tokens) in [lo, hi], frequencies (odd
 * tokens) nonzero and strictly ascending; an odd count, at most BANDS_MAX.
 * On success *want is what the file reads back: "V F:V F:V".
 */
static int model_bands(const char *s, char *want, size_t wsz)
{
	char c[STORE_MAX + 1], *end, *rest, *tok;
	unsigned long long v[BANDS_MAX];
	size_t len = strnlen(s, STORE_MAX), o;
	unsigned int n = 0, i;

	memcpy(c, s, len);
	c[len] = 0;
	for (end = c + len; end > c && k_isspace((unsigned char)end[-1]); )
		*--end = 0;
	for (rest = c; k_isspace((unsigned char)*rest); )
		rest++;
	while ((tok = strsep(&rest, " :"))) {
		if (n == BANDS_MAX || !model_kstrtouint(tok, &v[n]))
			return 0;
		if (n % 2 ? !v[n] || (n > 1 && v[n] <= v[n - 2]) :
			    v[n] < lo || v[n] > hi)
			return 0;
		n++;
	}
	if (n % 2 == 0)
		return 0;
	o = snprintf(want, wsz, "%llu", v[0]);
	for (i = 1; i + 1 < n && o < wsz; i += 2)
		o += snprintf(want + o, wsz - o, " %llu:%llu", v[i], v[i + 1]);
	return 1;
}

/* sscanf(s, "%llu") as lib/vsprintf.c does it: the value wraps. */
static int model_scan_ull(const char *s, unsigned long long *v)
{
	unsigned long long res = 0;

	while (k_isspace((unsigned char)*s))
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++)
		res = res * 10 + (unsigned int)(*s - '0');
	*v = res;
	return 1;
}

/* sscanf(s, "%15s") then the governor list; returns the index or -1. */
static int model_gov(const char *s)
{
	char tok[16];
	int n = 0, i;

	while (k_isspace((unsigned char)*s))
		s++;
	while (*s && !k_isspace((unsigned char)*s) && n < 15)
		tok[n++] = *s++;
	tok[n] = 0;
	for (i = 0; i < nlist; i++)
		if (!strcasecmp(tok, list[i]))
			return i;
	return -1;
}

/*
 * What the store must do with the current payload: 1 accept, 0 reject.
 * For R_UINT, R_INT, R_BANDS and R_GOV, *want is what the file must read
 * back.
 */
static int expect(char *want, size_t wsz)
{
	char s[STORE_MAX + 1];
	size_t n = plen < STORE_MAX ? plen : STORE_MAX;
	unsigned long long v;
	long long sv;
	int32_t q;
	int g;

	memcpy(s, pay, n);
	s[n] = 0;		/* the store's string ends at the first NUL */
	*want = 0;
	switch (rule) {
	case R_UINT:
		if (!model_kstrtouint(s, &v) || v < lo || v > hi)
			return 0;
		snprintf(want, wsz, "%llu", v);
		return 1;
	case R_INT:
		if (!model_kstrtoint(s, &sv) || sv < (long long)lo || sv > (long long)hi)
			return 0;
		snprintf(want, wsz, "%lld", sv);
		return 1;
	case R_BANDS:
		if (!model_bands(s, want, wsz)) {
			*want = 0;
			return 0;
		}
		return 1;
	case R_WO:
		return model_kstrtouint(s, &v);
	case R_FREQ:
		if (!model_scan_ull(s, &v))
			return 0;
		q = (int32_t)(uint32_t)v;	/* unsigned long (32 bits) -> s32 */
		return q >= 0 || q == -1;
	case R_SPEED:
		return model_scan_ull(s, &v);
	case R_GOV:
		g = model_gov(s);
		if (g < 0)
			return 0;
		snprintf(want, wsz, "%s", list[g]);
		return 1;
	case R_NONE:
		return 0;
	}
	return 0;
}

/* ---- payloads ---- */

static const char *const boundaries[] = {
	"0", "1", "4294967295", "4294967296", "2147483647", "2147483648",
	"2147483649", "4294967294", "9223372036854775807",
	"9223372036854775808", "18446744073709551615",
	"18446744073709551616", "18446744073709551617",
	"18446744078004518912", "36893488147419103232",
	"99999999999999999999", "4295167296", "4295967296",
};
static const char *const words[] = {
	"", "abc", "max", "min", "nan", "inf", "-", "+", "\n", " ", "0x",
	"true", "on", "default", "\xff\xfe", "%s%n", "../", "interactive",
	"performance", "powersave", "userspace", "ondemand", "schedutil",
	"conservative", "INTERACTIVE", "Performance",
};
static const char *const prefixes[] = {
	"+", "-", " ", "\t", "\n", "\xa0", "0", "00", "--", "+-", "-+",
	"++", "\r", "\v", "  ", "0x", "0X", "0b", "\\",
};
static const char *const suffixes[] = {
	"\n", "\n\n", " ", "\r\n", "\t", "abc", "k", ".0", ".5", "e3", "\n5",
	" 5", "\nabc", "-", "+", "0", "\xa0", "\f", "\v",
};

/* A number of the rule's range: signed for R_INT. */
static void putn(unsigned long long v)
{
	if (rule == R_INT)
		putf("%lld", (long long)v);
	else
		putf("%llu", v);
}

/* A number near the interesting values of the rule. */
static void gen_number(void)
{
	unsigned long long span = hi - lo + 1;

	switch (rnd(6)) {
	case 0:
	case 1:
		if ((rule == R_FREQ || rule == R_SPEED) && nlist && rnd(2))
			puts_(list[rnd(nlist)]);
		else
			putn(lo + next64() % (span ? span : 1));
		break;
	case 2: {
		unsigned long long e[] = { lo - 1, lo, lo + 1, hi - 1, hi, hi + 1 };

		putn(e[rnd(6)]);
		break;
	}
	case 3:
		if (rule == R_INT && rnd(2))
			puts_("-");	/* -2147483648 and its neighbours */
		puts_(boundaries[rnd(sizeof(boundaries) / sizeof(*boundaries))]);
		break;
	case 4:
		if (rule == R_INT && rnd(2))
			puts_("-");
		putf("%u", rnd(1000));
		break;
	default:
		putf("%llu", next64() >> rnd(64));
		break;
	}
}

static void gen_name(void)
{
	char n[40];
	size_t k, i;

	snprintf(n, sizeof(n), "%s",
		 nlist && rule == R_GOV ? list[rnd(nlist)] :
		 words[16 + rnd(10)]);
	k = strlen(n);
	switch (rnd(6)) {
	case 0:			/* change the case of some letters */
		for (i = 0; i < k; i++)
			if (rnd(3) == 0)
				n[i] ^= 0x20;
		break;
	case 1:			/* cut short */
		if (k)
			n[rnd(k)] = 0;
		break;
	case 2:			/* one letter changed */
		if (k)
			n[rnd(k)] = 'a' + rnd(26);
		break;
	case 3:			/* longer than the 15 letters read */
		snprintf(n + k, sizeof(n) - k, "%s", "xxxxxxxxxxxxxxxx");
		n[15 + rnd(3)] = 0;
		break;
	default:
		break;
	}
	puts_(n);
}

static void gen_long(void)
{
	static const size_t lens[] = { 4094, 4095, 4096, 4097, 5000, 8192 };
	size_t n = rnd(3) ? lens[rnd(6)] : 100 + rnd(8100);
	size_t i;

	switch (rnd(4)) {
	case 0:			/* zeros, then a small number */
		for (i = 0; i + 2 < n; i++)
			puts_("0");
		gen_number();
		break;
	case 1:			/* digits */
		for (i = 0; i < n; i++)
			putf("%u", rnd(10));
		break;
	case 2:			/* blanks, then a number */
		for (i = 0; i + 12 < n; i++)
			puts_(" ");
		gen_number();
		break;
	default:		/* one letter */
		for (i = 0; i < n; i++)
			puts_("A");
		break;
	}
}

/*
 * A band string "V F:V F:V ..." for a bands: rule: 0 to 15 pairs, values
 * in range and frequencies ascending, then often broken one way: more
 * than 31 tokens, an even count, frequencies repeated, unsorted, zero or
 * past 32 bits, a value out of range; separators all ' ', all ':', mixed,
 * or now and then doubled or foreign, with empty tokens, a '+' or a
 * newline on a token, separators leading or trailing.
 */
static void gen_bands(void)
{
	static const char *const seps[] = {
		" ", ":", "  ", "::", " :", ": ", "\t", ",", "\n", ";", "\xa0",
	};
	const unsigned int nseps = sizeof(seps) / sizeof(*seps);
	unsigned long long t[2 * 19 + 2], x, span = hi - lo + 1;
	unsigned int k = rnd(8) ? rnd(16) : 16 + rnd(4);	/* pairs */
	unsigned int n = 2 * k + 1, i, j, mode = rnd(8);
	unsigned long long f = rnd(2) ? 1 + rnd(1000) : 100000 + rnd(1000000);

	for (i = 0; i < n; i++) {
		if (i % 2) {
			t[i] = f;
			f += 1 + rnd(rnd(2) ? 500000 : 3);
		} else if (rnd(10)) {
			t[i] = lo + next64() % (span ? span : 1);
		} else {
			t[i] = rnd(2) ? lo : hi;
		}
	}
	switch (rnd(12)) {
	case 0:			/* an even count */
		if (rnd(2) || n == 1)
			t[n++] = rnd(2) ? f : lo;
		else
			n--;
		break;
	case 1:			/* unsorted */
		if (k >= 2) {
			i = 1 + 2 * rnd(k);
			j = 1 + 2 * rnd(k);
			x = t[i];
			t[i] = t[j];
			t[j] = x;
		}
		break;
	case 2:			/* a frequency repeated */
		if (k >= 2) {
			i = 1 + 2 * rnd(k - 1);
			t[i + 2] = t[i];
		}
		break;
	case 3:			/* a zero or a huge frequency */
		if (k) {
			unsigned long long e[] = { 0, 4294967295ULL, 4294967296ULL };

			t[1 + 2 * rnd(k)] = e[rnd(3)];
		}
		break;
	case 4: {		/* a value out of range */
		unsigned long long e[] = { lo - 1, hi + 1, 0, 4294967296ULL };

		t[2 * rnd(k + 1)] = e[rnd(4)];
		break;
	}
	default:
		break;
	}
	if (mode == 7 && rnd(2))
		puts_(seps[rnd(nseps)]);	/* leading */
	for (i = 0; i < n; i++) {
		if (i) {
			switch (mode) {
			case 0: puts_(":"); break;	/* "85:800000:90": valid */
			case 1: puts_(" "); break;	/* "85 800000 90": valid */
			case 2:				/* either, each time */
				puts_(rnd(2) ? " " : ":");
				break;
			case 7:				/* anything, now and then */
				if (rnd(6) == 0) {
					puts_(seps[rnd(nseps)]);
					break;
				}
				/* fall through */
			default:
				puts_(i % 2 ? " " : ":");
				break;
			}
		}
		if (mode == 7 && rnd(12) == 0)
			continue;	/* an empty token */
		if (rnd(mode == 7 ? 8 : 40) == 0)
			puts_("+");
		putf("%llu", t[i]);
		if (rnd(mode == 7 ? 8 : 40) == 0)
			puts_("\n");
	}
	if (mode == 7 && rnd(2))
		puts_(seps[rnd(nseps)]);	/* trailing */
}

/*
 * One payload for any rule, after gen()'s prefix; 0 when it must not get
 * a suffix.
 */
static int gen_any(void)
{
	size_t i, n;

	switch (rnd(16)) {
	case 0: case 1: case 2: case 3: case 4:
		gen_number();
		break;
	case 5:			/* huge */
		n = 10 + rnd(rnd(4) ? 40 : 300);
		putf("%u", 1 + rnd(9));
		for (i = 1; i < n; i++)
			putf("%u", rnd(10));
		break;
	case 6:			/* hex, octal, float */
		switch (rnd(4)) {
		case 0: putf("0x%llx", lo + rnd(1000)); break;
		case 1: putf("0%llo", lo); break;
		case 2: putf("%llu.%u", lo, rnd(100)); break;
		default: putf("%ue%u", 1 + rnd(9), rnd(12)); break;
		}
		break;
	case 7: case 8:
		gen_name();
		break;
	case 9:			/* random bytes */
		plen = 0;
		n = rnd(65);
		for (i = 0; i < n; i++) {
			char c = (char)rnd(256);

			putb(&c, 1);
		}
		return 0;
	case 10:
		gen_long();
		return 0;
	case 11:		/* embedded NUL in the middle */
		gen_number();
		putb("", 1);
		if (rnd(2))
			gen_number();
		else
			puts_("junk");
		break;
	case 12:
		plen = 0;	/* the empty write */
		return 0;
	default:
		puts_(words[rnd(sizeof(words) / sizeof(*words))]);
		break;
	}
	return 1;
}

static void gen(void)
{
	int decorate;

	plen = 0;
	if (rnd(3) == 0)
		puts_(prefixes[rnd(sizeof(prefixes) / sizeof(*prefixes))]);
	if (rnd(8) == 0)
		putb("", 1);	/* a NUL first: the store sees "" or a prefix */
	if (rule == R_BANDS && rnd(2)) {
		gen_bands();
		decorate = rnd(2);	/* well formed more often than not */
	} else {
		decorate = gen_any();
	}
	if (decorate && rnd(2))
		puts_(suffixes[rnd(sizeof(suffixes) / sizeof(*suffixes))]);
	if (decorate && rnd(6) == 0)
		putb("", 1);
}

/* ---- the file ---- */

static int readf(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sz - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

static int in_list(const char *v)
{
	for (int i = 0; i < nlist; i++)
		if (!strcmp(v, list[i]))
			return 1;
	return 0;
}

/* The file's text without its newline; "" and 0 when unreadable/malformed. */
static int value(const char *path, char *v, size_t sz)
{
	size_t n;

	if (readf(path, v, sz))
		return 0;
	n = strlen(v);
	if (!n || v[n - 1] != '\n')
		return 0;
	v[n - 1] = 0;
	return 1;
}

static int valid(const char *v)
{
	const char *p = v;
	char canon[VAL_MAX];
	long long sv;

	switch (rule) {
	case R_UINT:
		if (!*p)
			return 0;
		for (; *p; p++)
			if (*p < '0' || *p > '9')
				return 0;
		return strtoull(v, NULL, 10) >= lo && strtoull(v, NULL, 10) <= hi;
	case R_INT:		/* "%d" within the bounds */
		if (!model_kstrtoint(v, &sv) || sv < (long long)lo || sv > (long long)hi)
			return 0;
		snprintf(canon, sizeof(canon), "%lld", sv);
		return !strcmp(v, canon);
	case R_BANDS:		/* what the store takes, written as it shows it */
		return model_bands(v, canon, sizeof(canon)) && !strcmp(v, canon);
	case R_WO:
		return 1;	/* never read */
	case R_FREQ:
	case R_SPEED:
	case R_GOV:
		return in_list(v);
	case R_NONE:
		return !strcmp(v, "<unsupported>");
	}
	return 0;
}

/*
 * Wait until the policy's limits read the same for 3 reads 10 ms apart
 * (the update work runs as soon as this CPU sleeps; at most 2 s).
 */
static void settle(void)
{
	char a[80] = "", b[80], mn[32], mx[32], path[4200];
	int same = 0, n = 0;

	while (same < 3 && n++ < 200) {
		snprintf(path, sizeof(path), "%s/scaling_min_freq", dir);
		if (!value(path, mn, sizeof(mn)))
			mn[0] = 0;
		snprintf(path, sizeof(path), "%s/scaling_max_freq", dir);
		if (!value(path, mx, sizeof(mx)))
			mx[0] = 0;
		snprintf(b, sizeof(b), "%s %s", mn, mx);
		if (strcmp(a, b)) {
			strcpy(a, b);
			same = 0;
		} else {
			same++;
		}
		usleep(10000);
	}
}

static void hexdump(char *out, size_t osz)
{
	size_t i, o = 0, n = plen < 48 ? plen : 48;

	out[0] = 0;
	for (i = 0; i < n && o + 3 < osz; i++)
		o += snprintf(out + o, osz - o, "%02x", (unsigned char)pay[i]);
	if (plen > n && o + 4 < osz)
		snprintf(out + o, osz - o, "...");
}

static int parse_rule(const char *r)
{
	char buf[1024], *tok, *save;

	if (!strncmp(r, "uint:", 5) || !strncmp(r, "bands:", 6)) {
		rule = *r == 'u' ? R_UINT : R_BANDS;
		return sscanf(strchr(r, ':') + 1, "%llu:%llu", &lo, &hi) != 2 ||
		       lo > hi || hi > 0xffffffffULL;
	}
	if (!strncmp(r, "int:", 4)) {
		long long a, b;

		rule = R_INT;
		if (sscanf(r + 4, "%lld:%lld", &a, &b) != 2 || a > b ||
		    a < INT32_MIN || b > INT32_MAX)
			return 1;
		lo = (unsigned long long)a;
		hi = (unsigned long long)b;
		return 0;
	}
	if (!strcmp(r, "wo")) {
		rule = R_WO;
		lo = 0;
		hi = 0xffffffffULL;
		return 0;
	}
	if (!strcmp(r, "none")) {
		rule = R_NONE;
		lo = 0;
		hi = 1000;
		return 0;
	}
	if (!strncmp(r, "freq:", 5))
		rule = R_FREQ;
	else if (!strncmp(r, "speed:", 6))
		rule = R_SPEED;
	else if (!strncmp(r, "gov:", 4))
		rule = R_GOV;
	else
		return 1;
	snprintf(buf, sizeof(buf), "%s", strchr(r, ':') + 1);
	lo = ~0ULL;
	hi = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (nlist == LIST_MAX || strlen(tok) >= sizeof(list[0]))
			return 1;
		strcpy(list[nlist++], tok);
		if (rule != R_GOV) {
			unsigned long long f = strtoull(tok, NULL, 10);

			lo = f < lo ? f : lo;
			hi = f > hi ? f : hi;
		}
	}
	if (rule == R_GOV) {
		lo = 0;
		hi = 1000;
	}
	return !nlist;
}

int main(int argc, char **argv)
{
	unsigned long long seed = 0, count = 0, only = ~0ULL, i;
	unsigned long acc = 0, rej = 0, bad = 0;
	int opt, verbose = 0;
	const char *base;
	char *slash;

	while ((opt = getopt(argc, argv, "s:n:r:v")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtoull(optarg, NULL, 0); break;
		case 'r': only = strtoull(optarg, NULL, 0); break;
		case 'v': verbose = 1; break;
		default: goto usage;
		}
	}
	if (optind + 2 != argc || !count || parse_rule(argv[optind + 1]))
		goto usage;
	file = argv[optind];
	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");

	/* Each file its own stream, from SEED and the file's name. */
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	rng = seed;
	for (const char *p = base; *p; p++)
		rng = (rng ^ (unsigned char)*p) * 0x100000001b3ULL;

	for (i = 0; i < count; i++) {
		char before[VAL_MAX], after[VAL_MAX], want[VAL_MAX], hex[160], why[512];
		char mn[32], mx[32], path[4200];
		ssize_t ret;
		int fd, err, ok;
		size_t eff;

		gen();
		if (only != ~0ULL && i != only)
			continue;
		before[0] = after[0] = 0;	/* R_WO: never read */
		if (rule != R_WO && !value(file, before, sizeof(before))) {
			fprintf(stderr, "fuzzwr: %s: unreadable or not one line\n", file);
			return 2;
		}
		fd = open(file, O_WRONLY);
		if (fd < 0) {
			fprintf(stderr, "fuzzwr: cannot open %s: %s\n", file, strerror(errno));
			return 2;
		}
		ret = write(fd, pay, plen);
		err = errno;
		close(fd);

		ok = expect(want, sizeof(want));
		eff = plen < STORE_MAX ? plen : STORE_MAX;
		if (rule == R_FREQ && ret > 0)
			settle();
		if (rule != R_WO)
			value(file, after, sizeof(after));
		why[0] = 0;
		if (!plen) {
			if (ret != 0)
				snprintf(why, sizeof(why), "empty write returned %zd", ret);
			else if (strcmp(after, before))
				snprintf(why, sizeof(why), "empty write changed the value");
		} else if (ok) {
			if (ret != (ssize_t)eff)
				snprintf(why, sizeof(why), "want accepted (%zu), got %zd (%s)",
					 eff, ret, ret < 0 ? strerror(err) : "short");
			else if (!valid(after))
				snprintf(why, sizeof(why), "accepted, reads back invalid '%.120s'", after);
			else if (*want && strcmp(after, want))
				snprintf(why, sizeof(why), "accepted, reads back '%.120s', want '%.120s'",
					 after, want);
		} else {
			if (ret >= 0)
				snprintf(why, sizeof(why), "want EINVAL, got accepted (%zd), reads '%.120s'",
					 ret, after);
			else if (err != EINVAL)
				snprintf(why, sizeof(why), "want EINVAL, got %s", strerror(err));
			else if (strcmp(after, before))
				snprintf(why, sizeof(why), "rejected but changed '%.120s' -> '%.120s'",
					 before, after);
		}
		if (!why[0] && rule == R_FREQ) {
			snprintf(path, sizeof(path), "%s/scaling_min_freq", dir);
			value(path, mn, sizeof(mn));
			snprintf(path, sizeof(path), "%s/scaling_max_freq", dir);
			value(path, mx, sizeof(mx));
			if (strtoull(mn, NULL, 10) > strtoull(mx, NULL, 10))
				snprintf(why, sizeof(why), "scaling_min_freq %s > scaling_max_freq %s",
					 mn, mx);
		}
		if (plen && ret >= 0)
			acc++;
		else if (plen)
			rej++;
		if (why[0] || verbose) {
			hexdump(hex, sizeof(hex));
			printf("fuzzwr: %s #%llu len %zu [%s]: %s\n", base, i, plen, hex,
			       why[0] ? why : (ret >= 0 ? "accepted" : "rejected"));
		}
		if (why[0])
			bad++;
	}
	printf("fuzzwr: %s: %llu writes, %lu accepted, %lu rejected, %lu mismatches, seed %llu\n",
	       file, only != ~0ULL ? 1ULL : count, acc, rej, bad, seed);
	return bad ? 1 : 0;

usage:
	fprintf(stderr, "usage: fuzzwr -s SEED -n COUNT [-r INDEX] [-v] FILE "
		"uint:MIN:MAX|int:MIN:MAX|bands:VMIN:VMAX|wo|freq:F1,..|speed:F1,..|\n"
		"       gov:G1,..|none\n");
	return 2;
}
