/* kernel/quiet.c - see quiet.h. */
#include "quiet.h"
#include "console.h"
#include "cpu.h"
#include "lapic.h"
#include "pit.h"

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

	kprintf("{\"rec\":\"quiet\",\"pic_masks\":[%u,%u],\"pit0_status\":%u,\"pit0_stopped\":%d,"
		"\"apic\":\"%s\",\"apic_max_lvt\":%d,\"lvt_masked\":%d,\"lvt_failed\":%d,\"lint1_nmi_kept\":%d,"
		"\"apic_timer_stopped\":%d,\"apic_irr\":%d,\"apic_isr\":%d,\"tsc_deadline\":\"%s\"}\n",
		m, s, st, pit_ok, q.apic, q.max_lvt, q.lvt_masked, q.lvt_failed, q.lvt_nmi_kept, q.timer_stopped, q.irr,
		q.isr, deadline);
}
