/* kernel/efi.c - see efi.h. The UEFI structures are reduced to the
 * members used, at the offsets of UEFI 2.x (EDK2 MdePkg/Include/Uefi/
 * UefiSpec.h, Protocol/SimpleFileSystem.h, Protocol/LoadedImage.h;
 * PI 1.7 vol. 2 Protocol/Timer.h), checked by _Static_assert. Every
 * call goes through the firmware's function pointers with the Microsoft
 * x64 convention (UEFI 2.x 2.3.4.2; GCC's ms_abi attribute). */
#include <stddef.h>
#include "efi.h"
#include "efitypes.h"
#include "clocks.h"
#include "console.h"
#include "cpu.h"
#include "exit.h"
#include "lapic.h"
#include "msr.h"
#include "pic.h"
#include "trap.h"
#include "watchdog.h"
#include "../lib/efimmap.h"
#include "../lib/efistatus.h"
#include "../lib/fmt.h"
#include "../lib/logbuf.h"
#include "../lib/mb2tags.h"
#include "../lib/planpath.h"
#include "../lib/resultname.h"
#include "../lib/string.h"

struct efi_file;
typedef efi_status(EFIAPI *efi_file_open)(struct efi_file *self, struct efi_file **out, const uint16_t *name,
					   uint64_t mode, uint64_t attributes);
typedef efi_status(EFIAPI *efi_file_io)(struct efi_file *self, uint64_t *bytes, void *buf);
typedef efi_status(EFIAPI *efi_file_fn)(struct efi_file *self);
typedef efi_status(EFIAPI *efi_file_setpos)(struct efi_file *self, uint64_t pos);
typedef efi_status(EFIAPI *efi_file_info_fn)(struct efi_file *self, const struct efi_guid *type, uint64_t *bytes,
					      void *buf);
typedef efi_status(EFIAPI *efi_file_setinfo_fn)(struct efi_file *self, const struct efi_guid *type, uint64_t bytes,
						 void *buf);
struct efi_file { /* EFI_FILE_PROTOCOL, UEFI 2.x 13.5 */
	uint64_t revision;
	efi_file_open open;
	efi_file_fn close, delete_file;
	efi_file_io read, write;
	void *get_position;
	efi_file_setpos set_position;
	efi_file_info_fn get_info;
	efi_file_setinfo_fn set_info;
	efi_file_fn flush;
};
_Static_assert(offsetof(struct efi_file, open) == 8 && offsetof(struct efi_file, write) == 40 &&
		       offsetof(struct efi_file, set_position) == 56 && offsetof(struct efi_file, flush) == 80,
	       "EFI_FILE_PROTOCOL layout");

struct efi_simple_fs { /* EFI_SIMPLE_FILE_SYSTEM_PROTOCOL, 13.4 */
	uint64_t revision;
	efi_status(EFIAPI *open_volume)(struct efi_simple_fs *self, struct efi_file **root);
};

struct efi_loaded_image { /* EFI_LOADED_IMAGE_PROTOCOL, 9.1 */
	uint32_t revision;
	void *parent, *system_table, *device_handle;
};
_Static_assert(offsetof(struct efi_loaded_image, device_handle) == 24, "EFI_LOADED_IMAGE_PROTOCOL layout");

struct efi_timer_arch { /* EFI_TIMER_ARCH_PROTOCOL, PI 1.7 vol. 2 12.10 */
	void *register_handler;
	efi_status(EFIAPI *set_timer_period)(struct efi_timer_arch *self, uint64_t period);
	efi_status(EFIAPI *get_timer_period)(struct efi_timer_arch *self, uint64_t *period);
};


_Static_assert(offsetof(struct efi_cpu_state, cr0) == 8 && offsetof(struct efi_cpu_state, xcr0) == 32 &&
		       offsetof(struct efi_cpu_state, rsp) == 48 && offsetof(struct efi_cpu_state, cs) == 56 &&
		       offsetof(struct efi_cpu_state, tr) == 104 && offsetof(struct efi_cpu_state, gdtr) == 112 &&
		       offsetof(struct efi_cpu_state, idtr) == 128 && sizeof(struct efi_cpu_state) == 144,
	       "boot/efi.asm's ST_* offsets");

static const struct efi_guid loaded_image_guid = { 0x5B1B31A1, 0x9562, 0x11d2,
						   { 0x8E, 0x3F, 0x00, 0xA0, 0xC9, 0x69, 0x72, 0x3B } };
static const struct efi_guid simple_fs_guid = { 0x964E5B22, 0x6459, 0x11d2,
						{ 0x8E, 0x39, 0x00, 0xA0, 0xC9, 0x69, 0x72, 0x3B } };
static const struct efi_guid file_info_guid = { 0x09576E92, 0x6D3F, 0x11d2,
						{ 0x8E, 0x39, 0x00, 0xA0, 0xC9, 0x69, 0x72, 0x3B } };
static const struct efi_guid pxe_base_code_guid = { 0x03C4E603, 0xAC28, 0x11d3,
						    { 0x9A, 0x2D, 0x00, 0x90, 0x27, 0x3F, 0xC1, 0x4D } };
static const struct efi_guid timer_arch_guid = { 0x26BACCB3, 0x6F42, 0x11D4,
						 { 0xBC, 0xE7, 0x00, 0x80, 0xC7, 0x3C, 0x88, 0x81 } };

#define ALLOCATE_ANY_PAGES 0
#define ALLOCATE_MAX_ADDRESS 1
#define ALLOCATE_ADDRESS 2
#define FILE_MODE_READ 0x1ull
#define FILE_MODE_WRITE 0x2ull
#define FILE_MODE_CREATE 0x8000000000000000ull
#define FILE_DIRECTORY 0x10ull
#define FILE_INFO_NAME 80 /* EFI_FILE_INFO.FileName's offset, 13.5.12 */
#define FILE_INFO_FILE_SIZE 8  /* EFI_FILE_INFO.FileSize's offset (bytes, u64), 13.5.12 */
#define FILE_INFO_ATTRIBUTE 72 /* EFI_FILE_INFO.Attribute's offset (u64) */

#define RESERVE_MIN (16ull << 20) /* bytes of the largest range left to the firmware, at least */
#define AP_PAGE_MAX 0x9EFFFull    /* the AP start-up page's last byte: below 0x9F000, where an EBDA may begin */
#define TAKEN_MAX 1

extern struct efi_cpu_state efi_fw; /* boot/efi.asm */
uint64_t efi_call_firmware(uint64_t (*fn)(void *), void *arg);

/* What efi_early found (printed by efi_report). */
static struct {
	int entered;
	struct efi_system_table *st;
	void *image;
	efi_status watchdog, mmap, take, ap_page_status, timer;
	uint64_t mmap_bytes, desc_size, descriptors, conventional, ranges;
	struct efi_range taken[TAKEN_MAX];
	int ntaken;
	uint64_t ap_page;
	struct efi_timer_arch *timer_arch;
	uint64_t timer_period; /* 100 ns units */
	char vendor[48];
	uint16_t pic;
	struct lapic_saved lapic;
	uint64_t tsc_entry; /* the TSC at efi_early */
	void *pxe;          /* the boot device's EFI_PXE_BASE_CODE_PROTOCOL, or 0 */
} eb;

static uint8_t mmap_buf[65536] __attribute__((aligned(8)));
static struct efi_range ranges[128];

/* One line on the firmware's console (ConOut, which OVMF also sends to its
 * serial port), the failure exit, halt: only before the kernel's console. */
static __attribute__((noreturn)) void early_fatal(const char *msg)
{
	static uint16_t w[160];
	size_t i = 0;
	for (; msg[i] && i + 3 < sizeof w / sizeof w[0]; i++)
		w[i] = (uint8_t)msg[i];
	w[i++] = '\r';
	w[i++] = '\n';
	w[i] = 0;
	if (eb.st && eb.st->con_out)
		eb.st->con_out->output_string(eb.st->con_out, w);
	outl(DEBUG_EXIT_PORT, EXIT_FAILURE_CODE); /* QEMU's failure exit status 35 */
	halt_forever();
}

/* The highest page below AP_PAGE_MAX in the loader's own memory
 * (EfiLoaderData: GRUB 2.06 holds 0x1000-0x9FFFF so under OVMF, and
 * conventional memory is then none there), outside the boot information
 * [info, info + size): the loader has jumped to us for good and the
 * firmware never touches its memory. 0 when there is none. */
static uint64_t loader_page(uint64_t info, uint64_t size)
{
	uint64_t best = 0;
	for (uint64_t i = 0; i < eb.descriptors; i++) {
		struct efi_desc d;
		if (!efimmap_get(mmap_buf, eb.mmap_bytes, eb.desc_size, i, &d) || d.type != EFI_LOADER_DATA)
			continue;
		uint64_t lo = d.base < 0x1000 ? 0x1000 : d.base, hi = d.base + d.pages * EFI_PAGE_SIZE;
		if (hi > AP_PAGE_MAX + 1)
			hi = AP_PAGE_MAX + 1;
		for (uint64_t p = hi & ~(EFI_PAGE_SIZE - 1); p >= lo + EFI_PAGE_SIZE; p -= EFI_PAGE_SIZE)
			if (p <= info || p - EFI_PAGE_SIZE >= info + size) {
				if (p - EFI_PAGE_SIZE > best)
					best = p - EFI_PAGE_SIZE;
				break;
			}
	}
	return best;
}

static struct efi_plan_read plan_read;
static char plan_name[64]; /* kernel/config.h's plan[] */
static uint8_t plan_info[512] __attribute__((aligned(8))); /* EFI_FILE_INFO of \FILE */
static const uint8_t plan_empty[1];

#define PLAN_FAIL(what, st)             \
	do {                            \
		plan_read.step = (what); \
		plan_read.status = (st); \
		goto out;               \
	} while (0)

/* efi_plan_read's read (efi.h), on the firmware's state: plan=FILE from
 * the multiboot2 command line tag (type 1, Multiboot2 3.6.3), then \FILE
 * through the firmware, every step's EFI_STATUS kept. */
static void plan_read_early(const uint8_t *info)
{
	/* The tag's string in place: NUL-terminated within the tag
	 * (Multiboot2 3.6.3); planpath_find reads its first CFG_MAX_LINE
	 * characters, as config does. */
	const char *line = "";
	for (const uint8_t *p = mb2_tag_next(info, 0); p; p = mb2_tag_next(info, p))
		if (mb2_tag_type(p) == MB2_TAG_CMDLINE && mb2_tag_size(p) > 8 && p[mb2_tag_size(p) - 1] == 0)
			line = (const char *)(p + 8);
	if (!planpath_find(line, plan_name, sizeof plan_name))
		return;
	plan_read.tried = 1;
	struct efi_boot_services *bs = eb.st->boot_services;
	struct efi_loaded_image *li = 0;
	struct efi_simple_fs *fs = 0;
	struct efi_file *root = 0, *f = 0;
	uint16_t path[sizeof plan_name + 1];
	efi_status s;
	if (!planpath_ucs2(path, sizeof path / sizeof path[0], plan_name))
		PLAN_FAIL("the file's name (not printable ASCII)", EFI_INVALID_PARAMETER);
	if ((s = bs->handle_protocol(eb.image, &loaded_image_guid, (void **)&li)) != EFI_SUCCESS || !li)
		PLAN_FAIL("HandleProtocol(EFI_LOADED_IMAGE_PROTOCOL)", s ? s : EFI_NOT_FOUND);
	if ((s = bs->handle_protocol(li->device_handle, &simple_fs_guid, (void **)&fs)) != EFI_SUCCESS || !fs)
		PLAN_FAIL("HandleProtocol(EFI_SIMPLE_FILE_SYSTEM_PROTOCOL) of the boot device", s ? s : EFI_NOT_FOUND);
	if ((s = fs->open_volume(fs, &root)) != EFI_SUCCESS) {
		root = 0;
		PLAN_FAIL("OpenVolume", s);
	}
	if ((s = root->open(root, &f, path, FILE_MODE_READ, 0)) != EFI_SUCCESS) {
		f = 0;
		PLAN_FAIL("Open", s);
	}
	uint64_t isize = sizeof plan_info;
	if ((s = f->get_info(f, &file_info_guid, &isize, plan_info)) != EFI_SUCCESS)
		PLAN_FAIL("GetInfo(EFI_FILE_INFO)", s);
	if (*(const uint64_t *)(plan_info + FILE_INFO_ATTRIBUTE) & FILE_DIRECTORY)
		PLAN_FAIL("Open (a folder, not a file)", EFI_INVALID_PARAMETER);
	uint64_t bytes = *(const uint64_t *)(plan_info + FILE_INFO_FILE_SIZE);
	plan_read.bytes = bytes;
	if (bytes > EFI_PLAN_READ_MAX)
		goto out; /* not read: planfile says so, with its size */
	if (!bytes) {
		plan_read.data = plan_empty;
		goto out;
	}
	uint64_t addr = 0xFFFFFFFFull, pages = (bytes + EFI_PAGE_SIZE - 1) / EFI_PAGE_SIZE;
	if ((s = bs->allocate_pages(ALLOCATE_MAX_ADDRESS, EFI_LOADER_DATA, pages, &addr)) != EFI_SUCCESS)
		PLAN_FAIL("AllocatePages (EfiLoaderData, below 4 GiB)", s);
	uint64_t got = bytes;
	if ((s = f->read(f, &got, (void *)(uintptr_t)addr)) != EFI_SUCCESS)
		PLAN_FAIL("Read", s);
	if (got != bytes)
		PLAN_FAIL("Read (fewer bytes than EFI_FILE_INFO.FileSize)", EFI_DEVICE_ERROR);
	plan_read.data = (const uint8_t *)(uintptr_t)addr;
out:
	if (f)
		f->close(f);
	if (root)
		root->close(root);
}

uint64_t efi_early(uint64_t info_phys)
{
	struct mb2_efi tags;
	memset(&tags, 0, sizeof tags);
	const uint8_t *info = (const uint8_t *)(uintptr_t)info_phys;
	for (const uint8_t *p = mb2_tag_next(info, 0); p; p = mb2_tag_next(info, p))
		mb2_efi_take(p, &tags);
	eb.entered = 1;
	eb.tsc_entry = rdtsc();
	eb.st = (struct efi_system_table *)(uintptr_t)tags.system_table;
	eb.image = (void *)(uintptr_t)tags.image_handle;
	if (!eb.st || eb.st->signature != EFI_SYSTEM_TABLE_SIGNATURE || !eb.st->boot_services) {
		eb.st = 0;
		return 0; /* efi_report says so; nothing of the firmware is used */
	}
	if (read_cr4() & (1ull << 12))
		early_fatal("bench: FATAL: the firmware runs 5-level paging (CR4.LA57=1); this kernel's page tables "
			    "have 4 levels: boot it with 5-level paging off");
	struct efi_boot_services *bs = eb.st->boot_services;
	for (size_t i = 0; i + 1 < sizeof eb.vendor && eb.st->firmware_vendor && eb.st->firmware_vendor[i]; i++)
		eb.vendor[i] = eb.st->firmware_vendor[i] < 0x80 ? (char)eb.st->firmware_vendor[i] : '?';

	eb.watchdog = bs->set_watchdog_timer(0, 0, 0, 0);

	uint64_t size = sizeof mmap_buf, key = 0, desc_size = 0;
	uint32_t version = 0;
	eb.mmap = bs->get_memory_map(&size, mmap_buf, &key, &desc_size, &version);
	eb.mmap_bytes = size;
	eb.desc_size = desc_size;
	eb.take = EFI_NOT_FOUND;
	if (eb.mmap == EFI_SUCCESS && efimmap_desc_size_ok(desc_size)) {
		eb.descriptors = efimmap_count(size, desc_size);
		struct efimmap_free f = efimmap_free_ranges(mmap_buf, size, desc_size, 1, ranges,
							    sizeof ranges / sizeof ranges[0]);
		eb.conventional = f.bytes;
		eb.ranges = f.ranges;
		uint64_t best = 0;
		for (uint64_t i = 1; i < f.ranges; i++)
			if (ranges[i].length > ranges[best].length)
				best = i;
		if (f.ranges) {
			uint64_t len = ranges[best].length, reserve = len / 8;
			if (reserve < RESERVE_MIN)
				reserve = RESERVE_MIN;
			len = len > 2 * reserve ? len - reserve : len / 2;
			for (int tries = 0; tries < 8 && len >= EFI_PAGE_SIZE; tries++, len /= 2) {
				uint64_t addr = ranges[best].base, pages = len / EFI_PAGE_SIZE;
				eb.take = bs->allocate_pages(ALLOCATE_ADDRESS, EFI_LOADER_DATA, pages, &addr);
				if (eb.take == EFI_SUCCESS) {
					eb.taken[0] = (struct efi_range){ addr, pages * EFI_PAGE_SIZE };
					eb.ntaken = 1;
					break;
				}
			}
		}
	}
	eb.ap_page = AP_PAGE_MAX;
	eb.ap_page_status = bs->allocate_pages(ALLOCATE_MAX_ADDRESS, EFI_LOADER_DATA, 1, &eb.ap_page);
	if (eb.ap_page_status != EFI_SUCCESS)
		eb.ap_page = loader_page(info_phys, *(const uint32_t *)info);

	void *timer = 0;
	eb.timer = bs->locate_protocol(&timer_arch_guid, 0, &timer);
	if (eb.timer == EFI_SUCCESS && timer) {
		eb.timer_arch = timer;
		eb.timer = eb.timer_arch->get_timer_period(eb.timer_arch, &eb.timer_period);
		if (eb.timer != EFI_SUCCESS)
			eb.timer_arch = 0;
	}
	plan_read_early(info);
	/* a network boot: the boot device's EFI_PXE_BASE_CODE_PROTOCOL (kernel/efinet.c) */
	struct efi_loaded_image *li = 0;
	if (bs->handle_protocol(eb.image, &loaded_image_guid, (void **)&li) != EFI_SUCCESS || !li ||
	    bs->handle_protocol(li->device_handle, &pxe_base_code_guid, &eb.pxe) != EFI_SUCCESS)
		eb.pxe = 0;
	return 0;
}

const struct efi_plan_read *efi_plan_read(void)
{
	return &plan_read;
}

int efi_booted(void)
{
	return eb.entered && eb.st;
}

void efi_boot_info(struct boot_info *bi)
{
	eb.pic = pic_masks();
	lapic_save(&eb.lapic);
	if (!efi_booted())
		return;
	bi->nmmap = 0;
	for (int i = 0; i < eb.ntaken && bi->nmmap < BOOT_MMAP_MAX; i++)
		bi->mmap[bi->nmmap++] = (struct mmap_entry){ eb.taken[i].base, eb.taken[i].length, MMAP_AVAILABLE };
	if (eb.ap_page && bi->nmmap < BOOT_MMAP_MAX)
		bi->mmap[bi->nmmap++] = (struct mmap_entry){ eb.ap_page, EFI_PAGE_SIZE, MMAP_AVAILABLE };
}

const char *efi_status_text(char *buf, size_t size, uint64_t s)
{
	const char *n = efi_status_name(s);
	if (n)
		return n;
	fmt_format(buf, size, "status 0x%llx", (unsigned long long)s);
	return buf;
}

void efi_report(void)
{
	if (!eb.entered)
		return;
	if (!eb.st) {
		kprintf("efi: entered through the EFI entry, but without a usable EFI system table (multiboot2 "
			"tag 12): the firmware is not called, the run's log is not written\n");
		return;
	}
	char a[32], b[32], c[32];
	kprintf("efi: UEFI %u.%u, firmware \"%s\" revision 0x%x; boot services kept (multiboot2 tags 7 and 18); "
		"SetWatchdogTimer(0): %s (the firmware's 5-minute watchdog off)\n",
		eb.st->revision >> 16, (eb.st->revision & 0xFFFF) / 10, eb.vendor, eb.st->firmware_revision,
		efi_status_text(a, sizeof a, eb.watchdog));
	if (eb.ntaken)
		kprintf("efi: memory: GetMemoryMap %llu descriptors of %llu bytes, %llu MiB conventional in %llu ranges; "
			"taken with AllocatePages (EfiLoaderData): 0x%llx-0x%llx (%llu MiB); the rest stays the "
			"firmware's\n",
			(unsigned long long)eb.descriptors, (unsigned long long)eb.desc_size,
			(unsigned long long)(eb.conventional >> 20), (unsigned long long)eb.ranges,
			(unsigned long long)eb.taken[0].base,
			(unsigned long long)(eb.taken[0].base + eb.taken[0].length - 1),
			(unsigned long long)(eb.taken[0].length >> 20));
	else
		kprintf("efi: memory: NONE taken (GetMemoryMap: %s, %llu bytes; AllocatePages: %s): no sample "
			"buffers\n", efi_status_text(a, sizeof a, eb.mmap), (unsigned long long)eb.mmap_bytes,
			efi_status_text(b, sizeof b, eb.take));
	if (eb.ap_page)
		kprintf("efi: the other CPUs' start-up page: 0x%llx (%s)\n", (unsigned long long)eb.ap_page,
			eb.ap_page_status == EFI_SUCCESS ? "AllocatePages, EfiLoaderData"
							 : "the loader's EfiLoaderData, outside its boot information");
	else
		kprintf("efi: no start-up page below 0x%llx for the other CPUs (AllocatePages: %s)\n",
			AP_PAGE_MAX + 1, efi_status_text(a, sizeof a, eb.ap_page_status));
	if (eb.timer_arch)
		kprintf("efi: the firmware's timer: period %llu x 100 ns (EFI_TIMER_ARCH_PROTOCOL); stopped for the "
			"run, restarted before the log is written\n", (unsigned long long)eb.timer_period);
	else
		kprintf("efi: the firmware's timer: unknown (EFI_TIMER_ARCH_PROTOCOL: %s): its 8259 masks and "
			"local APIC are restored, the period not\n", efi_status_text(c, sizeof c, eb.timer));
}

void efi_save_before_final(int save)
{
	if (efi_booted() && save)
		return; /* said after the final line */
	if (!save)
		kprintf("save: off (save=off): the log is not written to the boot device\n");
	else if (eb.entered)
		kprintf("save: the log is not written: the firmware's system table is unusable\n");
	else
		kprintf("save: the log is not written to the boot device: %s; the serial log, the screen "
			"and its QR code are the results\n",
			"results are written to the stick only when it boots under UEFI, and this was a BIOS boot "
			"(or a loader that ended the firmware's boot services)");
}

/* fn(arg) on the firmware's state (efi_firmware_run): its timer period
 * first. */
struct fw_run {
	uint64_t (*fn)(void *);
	void *arg;
};

static uint64_t fw_enter(void *p)
{
	const struct fw_run *r = p;
	if (eb.timer_arch)
		eb.timer_arch->set_timer_period(eb.timer_arch, eb.timer_period);
	return r->fn(r->arg);
}

uint64_t efi_firmware_run(uint64_t (*fn)(void *), void *arg)
{
	struct fw_run r = { fn, arg };
	console_flush();
	/* The firmware's timers and interrupt controllers as it had them, then
	 * its CPU state and its timer period (fw_enter). */
	watchdog_release();
	lapic_restore(&eb.lapic);
	pic_set_masks(eb.pic);
	uint64_t ret = efi_call_firmware(fw_enter, &r);
	pic_mask_all(); /* nothing of the firmware's timer while the end screen holds */
	return ret;
}

struct efi_system_table *efi_system_table(void)
{
	return efi_booted() ? eb.st : 0;
}

void *efi_image_handle(void)
{
	return eb.image;
}

void *efi_boot_pxe(void)
{
	return efi_booted() ? eb.pxe : 0;
}

/* The write, step by step, on the firmware's state (efi_firmware_run). */
struct save_job {
	const char *id;
	const struct logbuf *log;
	uint64_t watchdog_s;    /* SetWatchdogTimer's timeout before the write: 0 (off) but in tests */
	const char *step;       /* the step that failed, or 0 */
	efi_status status;      /* its status */
	char name[RESULTNAME_MAX]; /* the file's name in results\ */
	uint64_t written;       /* bytes */
	uint64_t mismatch;      /* the first byte read back that differed, +1 (0: none) */
	int deleted;            /* the temporary file was deleted after a failure */
};

/* What the save reads back to compare, in chunks: taken from the firmware's
 * pool (AllocatePool, EfiLoaderData, UEFI 2.x 7.2) during the write and
 * given back after it, not from the image, whose size the paper-size run in
 * 4 MiB cannot spare (t_memory_small). */
#define READBACK_CHUNK 65536
static uint8_t info_buf[512] __attribute__((aligned(8)));

#define FAIL(what, st)                 \
	do {                           \
		j->step = (what);      \
		j->status = (st);      \
		goto out;              \
	} while (0)

static uint64_t fw_write(void *arg)
{
	struct save_job *j = arg;
	struct efi_boot_services *bs = eb.st->boot_services;
	struct efi_loaded_image *li = 0;
	struct efi_simple_fs *fs = 0;
	struct efi_file *root = 0, *dir = 0, *f = 0;
	uint16_t w[RESULTNAME_MAX + 16];
	uint8_t *readback = 0;
	efi_status s;

	bs->set_watchdog_timer(j->watchdog_s, 0, 0, 0);
	if ((s = bs->handle_protocol(eb.image, &loaded_image_guid, (void **)&li)) != EFI_SUCCESS || !li)
		FAIL("HandleProtocol(EFI_LOADED_IMAGE_PROTOCOL)", s);
	if ((s = bs->handle_protocol(li->device_handle, &simple_fs_guid, (void **)&fs)) != EFI_SUCCESS || !fs)
		FAIL("HandleProtocol(EFI_SIMPLE_FILE_SYSTEM_PROTOCOL) of the boot device", s);
	if ((s = fs->open_volume(fs, &root)) != EFI_SUCCESS)
		FAIL("OpenVolume", s);
	resultname_ucs2(w, sizeof w / sizeof w[0], 0, RESULTNAME_DIR);
	if ((s = root->open(root, &dir, w, FILE_MODE_READ | FILE_MODE_WRITE | FILE_MODE_CREATE, FILE_DIRECTORY)) !=
	    EFI_SUCCESS)
		FAIL("Open(CREATE) of the folder " RESULTNAME_DIR, s);
	/* 1. a temporary name nobody has */
	unsigned n = 0;
	for (;; n++) {
		if (n == RESULTNAME_ATTEMPTS)
			FAIL("finding a free name (" RESULTNAME_DIR "\\<id>.part to <id>-9.part all taken)", EFI_ACCESS_DENIED);
		resultname_make(j->name, sizeof j->name, j->id, n, RESULTNAME_TEMPORARY);
		resultname_ucs2(w, sizeof w / sizeof w[0], 0, j->name);
		s = dir->open(dir, &f, w, FILE_MODE_READ, 0);
		if (s == EFI_NOT_FOUND)
			break;
		if (s != EFI_SUCCESS)
			FAIL("Open(READ) of a temporary name", s);
		f->close(f);
		f = 0;
	}
	if ((s = dir->open(dir, &f, w, FILE_MODE_READ | FILE_MODE_WRITE | FILE_MODE_CREATE, 0)) != EFI_SUCCESS) {
		f = 0;
		FAIL("Open(CREATE)", s);
	}
	/* 2. the log, flushed, read back */
	uint64_t bytes = j->log->kept;
	s = f->write(f, &bytes, j->log->buf);
	j->written = bytes;
	if (s != EFI_SUCCESS || bytes != j->log->kept)
		FAIL("Write", s == EFI_SUCCESS ? EFI_VOLUME_FULL : s);
	if ((s = f->flush(f)) != EFI_SUCCESS)
		FAIL("Flush", s);
	if ((s = f->set_position(f, 0)) != EFI_SUCCESS)
		FAIL("SetPosition(0)", s);
	if ((s = bs->allocate_pool(EFI_LOADER_DATA, READBACK_CHUNK, (void **)&readback)) != EFI_SUCCESS || !readback) {
		readback = 0;
		FAIL("AllocatePool (64 KiB to read the file back into)", s == EFI_SUCCESS ? EFI_OUT_OF_RESOURCES : s);
	}
	for (uint64_t at = 0; at < j->log->kept;) {
		uint64_t chunk = j->log->kept - at < READBACK_CHUNK ? j->log->kept - at : READBACK_CHUNK;
		uint64_t got = chunk;
		if ((s = f->read(f, &got, readback)) != EFI_SUCCESS)
			FAIL("Read (reading back)", s);
		if (got != chunk)
			FAIL("Read (reading back: the file is shorter than written)", EFI_DEVICE_ERROR);
		for (uint64_t i = 0; i < chunk; i++)
			if (readback[i] != (uint8_t)j->log->buf[at + i]) {
				j->mismatch = at + i + 1;
				FAIL("comparing what was read back", EFI_DEVICE_ERROR);
			}
		at += chunk;
	}
	/* 3. the final name, never over an existing file */
	if (j->log->total > j->log->kept)
		goto out_keep; /* a prefix: stays .part, said by the caller */
	for (unsigned m = 0; m < RESULTNAME_ATTEMPTS; m++) {
		char final[RESULTNAME_MAX];
		uint64_t isize = sizeof info_buf;
		if ((s = f->get_info(f, &file_info_guid, &isize, info_buf)) != EFI_SUCCESS)
			FAIL("GetInfo", s);
		resultname_make(final, sizeof final, j->id, m, RESULTNAME_FINAL);
		size_t len = resultname_ucs2((uint16_t *)(info_buf + FILE_INFO_NAME),
					     (sizeof info_buf - FILE_INFO_NAME) / 2, 0, final);
		*(uint64_t *)info_buf = FILE_INFO_NAME + 2 * (len + 1);
		s = f->set_info(f, &file_info_guid, FILE_INFO_NAME + 2 * (len + 1), info_buf);
		if (s == EFI_SUCCESS) {
			memcpy(j->name, final, sizeof final);
			goto out_keep;
		}
		if (s != EFI_ACCESS_DENIED)
			FAIL("SetInfo (the rename to <id>.log)", s);
	}
	FAIL("SetInfo (the rename: <id>.log to <id>-9.log all taken)", EFI_ACCESS_DENIED);
out:
	if (f && j->step) {
		j->deleted = f->delete_file(f) == EFI_SUCCESS; /* Delete closes it */
		f = 0;
	}
out_keep:
	if (readback)
		bs->free_pool(readback);
	if (f)
		f->close(f);
	if (dir)
		dir->close(dir);
	if (root)
		root->close(root);
	return 0;
}

int efi_on_boot_cpu(void)
{
	uint64_t base;
	return rdmsr_safe(MSR_APIC_BASE, &base) || (base & APIC_BASE_BSP);
}

void efi_save_log(int save, const char *run_id, uint64_t test_watchdog_s)
{
	static int tried;
	if (!efi_booted() || !save || tried++)
		return;
	if (!efi_on_boot_cpu()) {
		kprintf("save: NOT written: the run ended on a CPU other than the boot CPU (IA32_APIC_BASE.BSP=0), "
			"and UEFI's boot services are the boot CPU's only; the serial log, the screen and its QR code "
			"are as they are\n");
		return;
	}
	const struct logbuf *log = console_log();
	static struct save_job j;
	j = (struct save_job){ .id = run_id, .log = log, .watchdog_s = test_watchdog_s };
	uint64_t hz = clocks_tsc_rate()->hz, ticks = rdtsc() - eb.tsc_entry;
	char took[96] = "";
	if (hz)
		fmt_format(took, sizeof took, "; the firmware's watchdog off for the run's %llu s (TSC)",
			   (unsigned long long)(ticks / hz));
	efi_firmware_run(fw_write, &j);

	char a[32];
	if (!j.step && log->total > log->kept)
		kprintf("save: INCOMPLETE: " RESULTNAME_DIR "\\%s holds the first %llu of the log's %llu bytes "
			"(its RAM copy was full), written and read back; kept as .part\n", j.name,
			(unsigned long long)log->kept, (unsigned long long)log->total);
	else if (!j.step)
		kprintf("save: " RESULTNAME_DIR "\\%s on the boot device: %llu bytes, written and read back (this log "
			"up to the final line%s)\n", j.name, (unsigned long long)j.written, took);
	else {
		const char *meaning = efi_status_meaning(j.status);
		char cmp[64] = "";
		if (j.mismatch)
			fmt_format(cmp, sizeof cmp, " (byte %llu differs)", (unsigned long long)(j.mismatch - 1));
		kprintf("save: NOT written: %s%s returned %s%s%s%s; the serial log, the screen and its QR code are "
			"as they are\n", j.step, cmp, efi_status_text(a, sizeof a, j.status), *meaning ? ": " : "", meaning,
			j.written && j.name[0] ? (j.deleted ? " (the partial file was deleted)"
							   : " (a partial .part file may remain)")
					       : "");
	}
}
