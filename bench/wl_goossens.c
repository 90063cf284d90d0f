/* bench/wl_goossens.c - Goossens' experiment (slides "Mesurer le temps
 * d'exécution" and "Résultat"): adding two 8x8 matrices of unsigned bytes
 * element by element (saddb: 134 core cycles on his Core 2) and a row at a
 * time with PADDB (vaddb: 17 core cycles).
 *
 * The compiler must neither vectorize saddb nor delete either: the pragma
 * below turns GCC's vectorizer off for this file (GCC 12 vectorizes at -O2),
 * and the arrays are globals written inside the window, which the methods'
 * "memory" clobbers keep between the two reads. */
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize")
#include "workload.h"

typedef unsigned char v8qi __attribute__((vector_size(8)));
typedef union {
	v8qi p[8];
	unsigned char s[8][8];
} v8x8;

v8x8 goossens_x, goossens_y, goossens_z;

BENCH_INLINE void saddb_setup(struct wl_ctx *c)
{
	(void)c;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			goossens_x.s[i][j] = (unsigned char)(i * 8 + j);
			goossens_y.s[i][j] = (unsigned char)(64 - i * 8 - j);
		}
}
BENCH_INLINE void saddb_body(struct wl_ctx *c)
{
	(void)c;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			goossens_z.s[i][j] = (unsigned char)(goossens_x.s[i][j] + goossens_y.s[i][j]);
}
BENCH_WORKLOAD(saddb, "Goossens' saddb: 8x8 byte matrices added element by element (134 core cycles on Core 2)", 0)

BENCH_INLINE void vaddb_setup(struct wl_ctx *c)
{
	saddb_setup(c);
	__asm__ volatile("emms"); /* leave the x87/MMX state clean outside the window */
}
BENCH_INLINE void vaddb_body(struct wl_ctx *c)
{
	(void)c;
	for (int i = 0; i < 8; i++)
		goossens_z.p[i] = (v8qi)__builtin_ia32_paddb((__attribute__((vector_size(8))) char)goossens_x.p[i],
							     (__attribute__((vector_size(8))) char)goossens_y.p[i]);
}
BENCH_WORKLOAD(vaddb, "Goossens' vaddb: the same a row at a time with PADDB (17 core cycles on Core 2)", 0)
