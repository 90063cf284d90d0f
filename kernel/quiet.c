/* kernel/quiet.c - see quiet.h. */
#include "quiet.h"
#include "console.h"
#include "cpu.h"
#include "lapic.h"
#include "pit.h"
#include "../lib/record.h"

void quiet_timers(const struct cpu_info *c)
{
	uint8_t m = inb(0x21), s = inb(0xA1);
	kprintf("quiet: 8259 PIC: interrupt masks 0x%02x (master), 0x%02x (slave)%s\n", m, s,
		m == 0xFF && s == 0xFF ? ": all masked" : ": NOT all masked");

	uint8_t st = pit_stop_channel0();
	int pit_ok = st != 0xFF && (st & 0x3E) == 0x30 && !(st & 0x80);
	kprintf("quiet: PIT channel 0: %s (read-back status 0x%02x: %s)\n",
		pit_ok ? "stopped: mode 0 with no count loaded, OUT0 low" : "NOT confirmed stopped", st,
		st == 0xFF ? "no PIT answered" : pit_ok ? "lobyte/hibyte, mode 0, OUT0 = 0" : "unexpected");

	struct lapic_quiet q;
	lapic_quiet(c, &q);
	const char *deadline = lapic_deadline_disarm();

	struct rec r;
	rec_begin(&r, "quiet");
	rec_array(&r, "pic_masks");
	rec_u64(&r, 0, m);
	rec_u64(&r, 0, s);
	rec_array_end(&r);
	rec_u64(&r, "pit0_status", st);
	rec_i64(&r, "pit0_stopped", pit_ok);
	rec_str(&r, "apic", q.apic);
	rec_i64(&r, "apic_max_lvt", q.max_lvt);
	rec_i64(&r, "lvt_masked", q.lvt_masked);
	rec_i64(&r, "lvt_failed", q.lvt_failed);
	rec_i64(&r, "lint1_nmi_kept", q.lvt_nmi_kept);
	rec_i64(&r, "apic_timer_stopped", q.timer_stopped);
	rec_i64(&r, "apic_irr", q.irr);
	rec_i64(&r, "apic_isr", q.isr);
	rec_str(&r, "tsc_deadline", deadline);
	rec_end(&r);
}
