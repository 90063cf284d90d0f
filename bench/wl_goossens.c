/* bench/wl_goossens.c - Goossens' experiment (slides "Mesurer le temps
 * d'exécution" and "Résultat"): adding two 8x8 matrices of unsigned bytes
 * element by element (saddb: 134 core cycles on his Core 2) and a row at a
 * time with the MMX instruction PADDB (vaddb: 17 core cycles, "16 cycles
 * (16 lectures) et 1 cycle d'épilogue").
 *
 * saddb is C. The compiler must neither vectorize it nor delete it: the
 * kernel is built with -mgeneral-regs-only (no SSE/MMX/x87 registers), the
 * pragma below also turns GCC's vectorizer off for this file (GCC 12
 * vectorizes at -O2 where it may), and the arrays are globals written inside
 * the window, which the methods' "memory" clobbers keep between the reads.
 *
 * vaddb is inline assembly: the slides' C (__builtin_ia32_paddb on 8-byte
 * vectors) is what GCC of 2008 compiled to MMX movq/paddb, but GCC 12
 * compiles it to SSE2 paddb %xmm, which is not Goossens' code. The asm
 * fixes what is measured: per row, two MMX loads, PADDB, one store (SDM
 * Vol. 2B "MOVQ", "PADDB/PADDW/PADDD/PADDQ"). This file alone may name the
 * MMX registers (the pragma GCC target below); the C around the asm uses
 * none (tests/boot/t_regs.py checks the built image). */
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize")
#pragma GCC target("mmx")
#include "workload.h"

/* The slides' x, y, z: 8 rows of 8 unsigned bytes, a row an MMX quadword. */
unsigned char goossens_x[8][8] __attribute__((aligned(8)));
unsigned char goossens_y[8][8] __attribute__((aligned(8)));
unsigned char goossens_z[8][8] __attribute__((aligned(8)));

BENCH_INLINE void saddb_setup(struct wl_ctx *c)
{
	(void)c;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			goossens_x[i][j] = (unsigned char)(i * 8 + j);
			goossens_y[i][j] = (unsigned char)(64 - i * 8 - j);
		}
}
BENCH_INLINE void saddb_body(struct wl_ctx *c)
{
	(void)c;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			goossens_z[i][j] = (unsigned char)(goossens_x[i][j] + goossens_y[i][j]);
}
BENCH_WORKLOAD(saddb, "Goossens' saddb: 8x8 byte matrices added element by element (134 core cycles on Core 2)", 0)

/* EMMS empties the x87 tag word the previous sample's MMX instructions
 * filled (SDM Vol. 1 9.6.3 "Using the EMMS Instruction"): here, before the
 * start's read, not inside the window. */
BENCH_INLINE void vaddb_setup(struct wl_ctx *c)
{
	saddb_setup(c);
	__asm__ volatile("emms" : : : "memory");
}

/* One row: z[r] = x[r] + y[r] byte by byte, modulo 256, in mm(a) and mm(b). */
#define VADDB_ROW(r, a, b)                                   \
	"movq " #r "*8+%[x], %%mm" #a "\n\t"                 \
	"movq " #r "*8+%[y], %%mm" #b "\n\t"                 \
	"paddb %%mm" #b ", %%mm" #a "\n\t"                   \
	"movq %%mm" #a ", " #r "*8+%[z]\n\t"

/* 32 instructions: 16 loads (the slide's critical resource), 8 PADDB,
 * 8 stores; rows 0-3 in mm0..mm7, rows 4-7 reuse them. */
BENCH_INLINE void vaddb_body(struct wl_ctx *c)
{
	(void)c;
	__asm__ volatile(VADDB_ROW(0, 0, 1) VADDB_ROW(1, 2, 3) VADDB_ROW(2, 4, 5) VADDB_ROW(3, 6, 7)
			 VADDB_ROW(4, 0, 1) VADDB_ROW(5, 2, 3) VADDB_ROW(6, 4, 5) VADDB_ROW(7, 6, 7)
			 : [z] "=m"(goossens_z)
			 : [x] "m"(goossens_x), [y] "m"(goossens_y)
			 : "mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7", "memory");
}
BENCH_WORKLOAD(vaddb, "Goossens' vaddb: the same a row at a time with MMX PADDB (17 core cycles on Core 2)", 0)
