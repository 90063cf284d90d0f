/* lib/smbios.h - the machine's identity from its SMBIOS tables (DMTF
 * DSP0134 3.7.0): the entry points (5.2.1 the 32-bit "_SM_" with its
 * "_DMI_" intermediate anchor, 5.2.2 the 64-bit "_SM3_"), the structure
 * table (6.1: formatted area, string set, type 127 end-of-table) and the
 * structures that say which machine this is: type 0 BIOS Information
 * (7.1), 1 System Information (7.2), 2 Baseboard Information (7.3), 4
 * Processor Information (7.5) and 17 Memory Device (7.18).
 *
 * Freestanding and host-tested (tests/unit/test_smbios.c on made-up tables,
 * tests/unit/test_smbios_corpus.c on real machines' tables against
 * dmidecode's decoding): the caller hands in bytes it has mapped; nothing is
 * read outside them. A malformed table gives one problem text (struct
 * smbios_info problem) naming what is wrong and where, and what was decoded
 * before it is kept; it never faults.
 *
 * Strings are kept as read (placeholders such as "To Be Filled By O.E.M."
 * included), truncated to SMBIOS_STR_MAX - 1 bytes, with every byte below
 * 20h or at and above 7Fh replaced by '.' as dmidecode does. An absent
 * string (index 0, a structure too short for the field, or no such
 * structure) is "" (a string of the set is never empty: an empty one would
 * end the set).
 */
#ifndef LIB_SMBIOS_H
#define LIB_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

#define SMBIOS_STR_MAX 65
#define SMBIOS_MEMDEV_MAX 64
#define SMBIOS_PROBLEM_MAX 200
/* The 32-bit entry point's length (DSP0134 5.2.1: 1Fh; some firmware
 * writes 1Eh, which dmidecode accepts too) and the 64-bit one's (5.2.2). */
#define SMBIOS_EP21_LEN 0x1F
#define SMBIOS_EP30_LEN 0x18

enum smbios_entry_kind { SMBIOS_NONE, SMBIOS_EP21, SMBIOS_EP30 };

/* An entry point, as smbios_entry_parse read it. */
struct smbios_entry {
	enum smbios_entry_kind kind;
	uint8_t major, minor, docrev; /* docrev: 3.0 entry point only (0 for 2.1) */
	uint64_t table_phys;          /* the structure table's physical address */
	uint32_t table_len;           /* 2.1: its length; 3.0: its maximum size (bytes) */
	uint16_t nstructs;            /* 2.1: the number of structures; 3.0: 0 (not given) */
};

/* One populated Memory Device (type 17). */
struct smbios_memdev {
	uint16_t handle;
	char locator[SMBIOS_STR_MAX], bank[SMBIOS_STR_MAX];
	int size_known;        /* 0: size 0xFFFF (unknown) */
	uint64_t size_bytes;   /* from Size (KB or MB granularity) or Extended Size (MB) */
	const char *type;      /* Memory Type's name (7.18.2, dmidecode's spelling), never NULL */
	uint32_t speed_mts;    /* Speed (MT/s), Extended Speed when Speed is 0xFFFF; 0: unknown */
	uint32_t configured_mts; /* Configured Memory Speed, likewise; 0: unknown or absent */
	char manufacturer[SMBIOS_STR_MAX], part[SMBIOS_STR_MAX], serial[SMBIOS_STR_MAX];
};

struct smbios_info {
	struct smbios_entry entry;
	int decoded;       /* the structure table was walked (perhaps to a problem) */
	int structures;    /* structures walked, the end-of-table included */
	char bios_vendor[SMBIOS_STR_MAX], bios_version[SMBIOS_STR_MAX], bios_date[SMBIOS_STR_MAX];
	char sys_manufacturer[SMBIOS_STR_MAX], sys_product[SMBIOS_STR_MAX], sys_version[SMBIOS_STR_MAX];
	char sys_serial[SMBIOS_STR_MAX], sys_sku[SMBIOS_STR_MAX], sys_family[SMBIOS_STR_MAX];
	char sys_uuid[37]; /* dmidecode's form, lower case; "" when absent, all 00h or all FFh */
	char board_manufacturer[SMBIOS_STR_MAX], board_product[SMBIOS_STR_MAX];
	char board_version[SMBIOS_STR_MAX], board_serial[SMBIOS_STR_MAX];
	char cpu_socket[SMBIOS_STR_MAX];
	uint32_t cpu_current_mhz, cpu_max_mhz; /* 0: unknown */
	int memory_devices;      /* populated type 17 structures (all, kept or not) */
	int memdevs_kept;        /* the first SMBIOS_MEMDEV_MAX of them, in memdev[] */
	struct smbios_memdev memdev[SMBIOS_MEMDEV_MAX];
	char problem[SMBIOS_PROBLEM_MAX]; /* "" or the first thing found wrong */
};

/* smbios_checksum - the 8-bit sum of p[0..n-1] (0 for a valid entry point). */
uint8_t smbios_checksum(const uint8_t *p, size_t n);

/* smbios_entry_parse - read an entry point at p (avail bytes readable
 * there) into *e. Returns 1 for a valid one; 0 when p holds no anchor
 * ("_SM3_", or "_SM_" with "_DMI_" at 10h); -1 for an anchor whose
 * length, checksum (5.2.1: the whole entry point; the intermediate
 * checksum over 10h-1Eh) or table address is wrong: problem (size bytes)
 * then says which, with the values read. e->kind is set for 1 and -1. */
int smbios_entry_parse(const uint8_t *p, size_t avail, struct smbios_entry *e, char *problem, size_t size);

/* smbios_scan - the search of DSP0134 5.2.1/5.2.2 in len bytes at base
 * (physical address base_phys, meant to be 000F0000h-000FFFFFh): the
 * anchors on 16-byte boundaries; a valid "_SM3_" is preferred to a valid
 * "_SM_" (as Linux and dmidecode do). Returns the valid entry point's
 * offset from base, or -1 (none valid: problem then names the first
 * anchor found with its fault, or is "" when there was no anchor). */
long smbios_scan(const uint8_t *base, size_t len, struct smbios_entry *e, char *problem, size_t size);

/* smbios_decode - walk the structure table at table (len bytes readable:
 * e->table_len, or fewer when the caller could map fewer) of the entry
 * point e and fill *out (zeroed first; out->entry = *e). The walk ends at
 * type 127, at the end of the bytes, after e->nstructs structures (2.1), or
 * at the first malformed structure (a length below 4, a formatted area or
 * string set past the end, a string set without its double NUL), which
 * out->problem names with its offset and handle; a string index beyond
 * its structure's set is named too and leaves that field "". Type 17
 * devices with Size 0 ("No Module Installed") are skipped. */
void smbios_decode(const uint8_t *table, size_t len, const struct smbios_entry *e, struct smbios_info *out);

/* smbios_end_of_table - the offset of the table's type 127 structure
 * (End-of-Table, 7.46) in len bytes at table, walked as smbios_decode
 * walks; -1 when the walk meets no type 127 or a malformed structure.
 * For tests that break a copy of a real table (kernel/smbios.c). */
long smbios_end_of_table(const uint8_t *table, size_t len);

/* smbios_placeholder - 1 when s says nothing about the machine: blank,
 * or one of the firmware templates' fillers ("To Be Filled By O.E.M.",
 * "Default string", "System Product Name", "Not Specified", ... compared
 * without case and surrounding blanks). */
int smbios_placeholder(const char *s);

/* smbios_short - up to three strings joined by one space into buf (size
 * bytes, NUL-terminated, truncated), each without surrounding blanks,
 * placeholders and empty ones left out (b and c may be NULL). Returns the
 * length written; 0 when nothing was left (the env record's null). */
size_t smbios_short(char *buf, size_t size, const char *a, const char *b, const char *c);

/* smbios_version - the entry point's version as dmidecode prints it
 * ("3.0.0" for a 3.0 entry point, "2.8" for a 2.1 one) into buf; "" for
 * none. Returns buf. */
char *smbios_version(char *buf, size_t size, const struct smbios_entry *e);

/* smbios_memory_type - DSP0134 7.18.2's name of Memory Type t as dmidecode
 * spells it ("DDR4"); "Unknown" for a reserved value. */
const char *smbios_memory_type(uint8_t t);

#endif
