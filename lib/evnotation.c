/* lib/evnotation.c - see evnotation.h. */
#include "evnotation.h"
#include "fmt.h"
#include "hex.h"
#include "string.h"

int ev_notation_like(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && hex_digit(s[i]) >= 0)
		i++;
	return i > 0 && i + 1 < len && s[i] == '.' && hex_digit(s[i + 1]) >= 0;
}

/* s[0..len-1] as hex digits only: 0, or -1 (empty, not hex, above max). */
static int parse_hex(const char *s, size_t len, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int h = hex_digit(s[i]);
		if (h < 0 || len > 8)
			return -1;
		v = v * 16 + (unsigned)h;
	}
	if (v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* decimal or 0x-hex, as strtoul(..., 0) takes them (no octal here). */
static int parse_num(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (len > 18)
			return -1;
		for (size_t i = 2; i < len; i++) {
			int h = hex_digit(s[i]);
			if (h < 0)
				return -1;
			v = v * 16 + (unsigned)h;
		}
	} else {
		if (!len || len > 19)
			return -1;
		for (size_t i = 0; i < len; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			v = v * 10 + (unsigned)(s[i] - '0');
		}
	}
	*out = v;
	return 0;
}

static int opt_is(const char *s, size_t len, const char *name)
{
	size_t n = strlen(name);
	return len == n && !memcmp(s, name, n);
}

static int opt_eq(const char *s, size_t len, const char *name)
{
	size_t n = strlen(name);
	return len > n && !memcmp(s, name, n);
}

static int fail(char *err, size_t errlen, const char *s, size_t len, const char *why)
{
	fmt_format(err, errlen, "nanoBench notation %.*s: %s", (int)(len > 60 ? 60 : len), s, why);
	return -1;
}

int ev_notation_parse(int amd, const char *s, size_t len, struct ev_notation *d, char *err, size_t errlen)
{
	size_t end = 0, nstart = len, i, p;
	uint32_t x;
	static const struct {
		const char *opt;
		uint32_t msr;
	} msrs[] = {
		{"MSR_RSP0=", 0x1A6}, {"MSR_RSP1=", 0x1A7}, {"MSR_3F6H=", 0x3F6}, {"MSR_PF=", 0x3F7},
	};

	memset(d, 0, sizeof *d);
	if (err && errlen)
		err[0] = 0;
	/* The encoding ends at ':' or a blank; the name follows. */
	while (end < len && s[end] != ':' && s[end] != ' ' && s[end] != '\t')
		end++;
	if (end < len) {
		nstart = end + 1;
		while (nstart < len && (s[nstart] == ' ' || s[nstart] == '\t'))
			nstart++;
		if (nstart == len)
			return fail(err, errlen, s, len, "the name after the encoding is empty");
	}
	/* EvtSel */
	for (i = 0; i < end && s[i] != '.'; i++)
		;
	if (parse_hex(s, i, amd ? 0xFFF : 0xFF, &x) < 0)
		return fail(err, errlen, s, len,
			    amd ? "EvtSel is 1 to 3 hex digits, 000..FFF (AMD)" : "EvtSel is 1 or 2 hex digits, 00..FF (Intel)");
	d->event_select = (uint16_t)x;
	if (i >= end)
		return fail(err, errlen, s, len, "no .UMASK after the EvtSel");
	p = ++i;
	for (; i < end && s[i] != '.'; i++)
		;
	if (parse_hex(s + p, i - p, 0xFF, &x) < 0)
		return fail(err, errlen, s, len, "UMASK is 1 or 2 hex digits, 00..FF");
	d->umask = (uint8_t)x;
	d->ctr = -1;
	while (i < end) {
		const char *o;
		size_t ol;
		uint64_t n;
		p = ++i;
		for (; i < end && s[i] != '.'; i++)
			;
		o = s + p;
		ol = i - p;
		if (opt_is(o, ol, "AnyT")) {
			if (amd)
				return fail(err, errlen, s, len, "AnyT: AMD's PERF_CTL has no AnyThread bit");
			d->anyt = 1;
		} else if (opt_is(o, ol, "EDG")) {
			d->edge = 1;
		} else if (opt_is(o, ol, "INV")) {
			d->inv = 1;
		} else if (opt_is(o, ol, "TakenAlone")) {
			d->taken_alone = 1;
		} else if (opt_eq(o, ol, "CMSK=")) {
			if (parse_num(o + 5, ol - 5, &n) < 0 || n > 255)
				return fail(err, errlen, s, len, "CMSK=n is 0..255 (decimal or 0x-hex)");
			d->cmask = (uint8_t)n;
		} else if (opt_eq(o, ol, "CTR=")) {
			if (parse_num(o + 4, ol - 4, &n) < 0 || n > 31)
				return fail(err, errlen, s, len, "CTR=n is a general-purpose counter 0..31");
			d->ctr = (int)n;
		} else {
			size_t k;
			for (k = 0; k < sizeof msrs / sizeof msrs[0]; k++)
				if (opt_eq(o, ol, msrs[k].opt))
					break;
			if (k == sizeof msrs / sizeof msrs[0])
				return fail(err, errlen, s, len,
					    "unknown option (CMSK=n, AnyT, EDG, INV, TakenAlone, CTR=n, MSR_RSP0=v, "
					    "MSR_RSP1=v, MSR_3F6H=v, MSR_PF=v)");
			if (d->msr_index)
				return fail(err, errlen, s, len, "two extra MSRs: one per event here");
			if (parse_num(o + strlen(msrs[k].opt), ol - strlen(msrs[k].opt), &n) < 0)
				return fail(err, errlen, s, len, "an MSR value is decimal or 0x-hex");
			d->msr_index = msrs[k].msr;
			d->msr_value = n;
		}
	}
	if (nstart < len) {
		size_t n = len - nstart;
		while (n && (s[nstart + n - 1] == ' ' || s[nstart + n - 1] == '\t'))
			n--;
		if (n >= EV_NOTATION_NAME_MAX)
			n = EV_NOTATION_NAME_MAX - 1;
		memcpy(d->name, s + nstart, n);
		d->name[n] = 0;
	} else {
		size_t n = end < EV_NOTATION_NAME_MAX ? end : EV_NOTATION_NAME_MAX - 1;
		memcpy(d->name, s, n);
		d->name[n] = 0;
	}
	return 0;
}
