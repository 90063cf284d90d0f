/* lib/evnotation.h - nanoBench's event notation (Abel and Reineke,
 * "nanoBench: A Low-Overhead Tool for Running Microbenchmarks on x86
 * Systems", ISPASS 2020; the syntax of its configs/cfg_*.txt as its
 * common/nanoBench.c parse_counter_configs reads them):
 *
 *   EvtSel.UMASK[.CMSK=n][.AnyT][.EDG][.INV][.TakenAlone][.CTR=n]
 *        [.MSR_RSP0=v][.MSR_RSP1=v][.MSR_3F6H=v][.MSR_PF=v][:NAME | NAME]
 *
 * EvtSel and UMASK hex without 0x (Intel "D1.01", AMD a 12-bit EvtSel
 * "076.00"); the options' n and v decimal or 0x-hex (nanoBench reads them
 * with strtoul(..., 0)); the name after ':' or after blanks (a config
 * line pastes unchanged: "A1.01 UOPS_DISPATCHED_PORT.PORT_0"). The MSR
 * options are the extra MSR of the event: MSR_OFFCORE_RSP0 (1A6H),
 * MSR_OFFCORE_RSP1 (1A7H), MSR_PEBS_LD_LAT_THRESHOLD (3F6H),
 * MSR_PEBS_FRONTEND (3F7H) (SDM Vol. 4); one per event here.
 * Freestanding; host-tested (tests/unit/test_events.c). */
#ifndef LIB_EVNOTATION_H
#define LIB_EVNOTATION_H

#include <stddef.h>
#include <stdint.h>

#define EV_NOTATION_NAME_MAX 96

/* One line of the notation, parsed. */
struct ev_notation {
	uint16_t event_select;  /* 8 bits Intel, 12 bits AMD */
	uint8_t umask, cmask;   /* cmask: CMSK=n, 0 without */
	uint8_t inv, edge, anyt, taken_alone;
	int ctr;                /* CTR=n: the one GP counter allowed, -1 any */
	uint32_t msr_index;     /* the MSR_* option's MSR, 0 none */
	uint64_t msr_value;
	char name[EV_NOTATION_NAME_MAX]; /* the :NAME (or the name after blanks), else the text */
};

/* ev_notation_like - 1 when s[0..len-1] starts as the notation does (hex
 * digits, '.', a hex digit), so a parse error is about the notation and
 * not an unknown name. */
int ev_notation_like(const char *s, size_t len);

/* ev_notation_parse - s[0..len-1] into *n; amd: a 12-bit EvtSel and no
 * AnyT (AMD's and Hygon's PERF_CTL). Returns 0, or -1 with err[] saying
 * what is wrong ("nanoBench notation 3C.00.CMSK=300: CMSK=n is 0..255"):
 * EvtSel above FFH on Intel or FFFH on AMD, a UMASK above FFH, an
 * unknown option, AnyT on AMD, CTR=n with n > 31, two extra MSRs, an empty
 * name. */
int ev_notation_parse(int amd, const char *s, size_t len, struct ev_notation *n, char *err, size_t errlen);

#endif
