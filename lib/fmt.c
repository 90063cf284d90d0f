/* lib/fmt.c - see fmt.h. */
#include "fmt.h"

struct out {
	char *buf;
	size_t size;
	size_t len; /* characters the full output has so far */
};

static void put(struct out *o, char c)
{
	if (o->size && o->len < o->size - 1)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* Emit a number's digits (already converted, most significant first) with
 * sign, width and flags applied. */
static void emit_number(struct out *o, const char *digits, int ndigits,
			char sign, int width, int left, int zero)
{
	int len = ndigits + (sign ? 1 : 0);
	if (left) {
		if (sign)
			put(o, sign);
		for (int i = 0; i < ndigits; i++)
			put(o, digits[i]);
		pad(o, ' ', width - len);
		return;
	}
	if (zero) {
		if (sign)
			put(o, sign);
		pad(o, '0', width - len);
	} else {
		pad(o, ' ', width - len);
		if (sign)
			put(o, sign);
	}
	for (int i = 0; i < ndigits; i++)
		put(o, digits[i]);
}

static int to_digits(char *tmp, unsigned long long v, unsigned base, int upper)
{
	const char *d = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	int n = 0;
	do {
		rev[n++] = d[v % base];
		v /= base;
	} while (v);
	for (int i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

int fmt_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	const char *p = fmt;

	while (*p) {
		if (*p != '%') {
			put(&o, *p++);
			continue;
		}
		const char *start = p++;
		int left = 0, zero = 0, width = 0, prec = -1, lmod = 0;
		for (;; p++) {
			if (*p == '-')
				left = 1;
			else if (*p == '0')
				zero = 1;
			else
				break;
		}
		if (*p == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				left = 1;
				width = -width;
			}
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				width = width * 10 + (*p++ - '0');
		}
		if (*p == '.') {
			p++;
			prec = 0;
			if (*p == '*') {
				prec = va_arg(ap, int);
				p++;
			} else {
				while (*p >= '0' && *p <= '9')
					prec = prec * 10 + (*p++ - '0');
			}
		}
		/* lmod: 0 int, 1 long, 2 long long, 3 size_t, -1 short, -2 char */
		if (*p == 'l') {
			p++;
			lmod = 1;
			if (*p == 'l') {
				p++;
				lmod = 2;
			}
		} else if (*p == 'z') {
			p++;
			lmod = 3;
		} else if (*p == 'h') {
			p++;
			lmod = -1;
			if (*p == 'h') {
				p++;
				lmod = -2;
			}
		}

		char tmp[26];
		int n;
		switch (*p) {
		case 'd':
		case 'i': {
			long long v;
			if (lmod == 1)
				v = va_arg(ap, long);
			else if (lmod == 2)
				v = va_arg(ap, long long);
			else if (lmod == 3)
				v = (long long)va_arg(ap, size_t);
			else
				v = va_arg(ap, int);
			if (lmod == -1)
				v = (short)v;
			else if (lmod == -2)
				v = (signed char)v;
			unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
						     : (unsigned long long)v;
			n = to_digits(tmp, u, 10, 0);
			emit_number(&o, tmp, n, v < 0 ? '-' : 0, width, left, zero);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			unsigned long long v;
			if (lmod == 1)
				v = va_arg(ap, unsigned long);
			else if (lmod == 2)
				v = va_arg(ap, unsigned long long);
			else if (lmod == 3)
				v = va_arg(ap, size_t);
			else
				v = va_arg(ap, unsigned int);
			if (lmod == -1)
				v = (unsigned short)v;
			else if (lmod == -2)
				v = (unsigned char)v;
			n = to_digits(tmp, v, *p == 'u' ? 10 : 16, *p == 'X');
			emit_number(&o, tmp, n, 0, width, left, zero);
			break;
		}
		case 'p': {
			uintptr_t v = (uintptr_t)va_arg(ap, void *);
			tmp[0] = '0';
			tmp[1] = 'x';
			n = 2 + to_digits(tmp + 2, v, 16, 0);
			emit_number(&o, tmp, n, 0, width, left, 0);
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);
			if (!left)
				pad(&o, ' ', width - 1);
			put(&o, c);
			if (left)
				pad(&o, ' ', width - 1);
			break;
		}
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			int len = 0;
			while ((prec < 0 || len < prec) && s[len])
				len++;
			if (!left)
				pad(&o, ' ', width - len);
			for (int i = 0; i < len; i++)
				put(&o, s[i]);
			if (left)
				pad(&o, ' ', width - len);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		default:
			/* Unknown conversion: copy it through so it is seen. */
			for (const char *q = start; q <= p && *q; q++)
				put(&o, *q);
			if (!*p)
				goto done;
			break;
		}
		p++;
	}
done:
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int fmt_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

char *fmt_milli(char *buf, size_t size, uint64_t value)
{
	fmt_format(buf, size, "%llu.%03llu", (unsigned long long)(value / 1000),
		   (unsigned long long)(value % 1000));
	return buf;
}

char *fmt_fit_u64(char *buf, size_t size, uint64_t value, int width)
{
	if (fmt_format(buf, size, "%llu", (unsigned long long)value) <= width)
		return buf;
	/* value >= 10^width >= 10 here (width >= 1): p >= 10. */
	uint64_t p = 1;
	int e = 0;
	while (value / p >= 10) {
		p *= 10;
		e++;
	}
	uint64_t frac = p >= 100 ? (value % p) / (p / 100) : (value % p) * 10;
	fmt_format(buf, size, "%llu.%02llue%d", (unsigned long long)(value / p), (unsigned long long)frac, e);
	return buf;
}

char *fmt_fit_i64(char *buf, size_t size, int64_t value, int width)
{
	if (value >= 0)
		return fmt_fit_u64(buf, size, (uint64_t)value, width);
	buf[0] = '-';
	fmt_fit_u64(buf + 1, size - 1, 0 - (uint64_t)value, width - 1);
	return buf;
}

/* One byte as its escape (see fmt_escape) in out[0..3]; returns its length. */
static size_t escape_byte(char *out, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	if (c == '\\' || c == '"') {
		out[0] = '\\';
		out[1] = (char)c;
		return 2;
	}
	if (c == '\n' || c == '\r' || c == '\t') {
		out[0] = '\\';
		out[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		return 2;
	}
	if (c < 0x20 || c > 0x7E) {
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[c >> 4];
		out[3] = hex[c & 15];
		return 4;
	}
	out[0] = (char)c;
	return 1;
}

char *fmt_escape(char *dst, size_t size, const char *src, size_t len)
{
	size_t o = 0, i = 0, fits = 0; /* fits: dst length at the last escape within size - 4 */
	char e[4];
	for (; i < len && src && src[i]; i++) {
		size_t n = escape_byte(e, (unsigned char)src[i]);
		if (o + n > size - 1)
			break;
		for (size_t k = 0; k < n; k++)
			dst[o++] = e[k];
		if (o <= size - 4)
			fits = o;
	}
	if (i < len && src && src[i]) { /* cut: end with "..." */
		o = fits;
		dst[o++] = '.';
		dst[o++] = '.';
		dst[o++] = '.';
	}
	dst[o] = '\0';
	return dst;
}

