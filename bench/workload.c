/* bench/workload.c - the workload registry (see workload.h) and the names
 * the command line chooses methods and workloads from (kernel/config.h). */
#include "workload.h"
#include "../kernel/config.h"

static const struct workload *sorted[WORKLOADS_MAX];
static int nsorted = -1;

static int name_less(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a < (unsigned char)*b;
}

int workload_count(void)
{
	if (nsorted < 0) {
		int n = (int)(__stop_bench_workloads - __start_bench_workloads);
		nsorted = n < WORKLOADS_MAX ? n : WORKLOADS_MAX;
		for (int i = 0; i < nsorted; i++) {
			const struct workload *w = &__start_bench_workloads[i];
			int j = i;
			for (; j > 0 && name_less(w->name, sorted[j - 1]->name); j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = w;
		}
	}
	return nsorted;
}

const struct workload *workload_at(int i)
{
	return i >= 0 && i < workload_count() ? sorted[i] : 0;
}

const struct workload *workload_find(const char *name)
{
	for (int i = 0; i < workload_count(); i++) {
		const char *a = workload_at(i)->name, *b = name;
		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b)
			return workload_at(i);
	}
	return 0;
}

void bench_config_choices(struct config_choices *ch)
{
	static const char *method_names[METHOD_COUNT + 1];
	static const char *workload_names[WORKLOADS_MAX + 1];
	int nw = workload_count();
	*ch = (struct config_choices){ .methods = method_names, .workloads = workload_names,
				       .default_methods = (1ull << METHOD_COUNT) - 1 };
	for (int m = 0; m < METHOD_COUNT; m++)
		method_names[m] = methods[m].name;
	method_names[METHOD_COUNT] = 0;
	for (int i = 0; i < nw; i++) {
		workload_names[i] = workload_at(i)->name;
		/* By default every workload but the offset (it always runs first)
		 * and the resolution test's loop (resolution=on runs it). */
		if (!(workload_at(i)->flags & (WL_OFFSET | WL_RESOLUTION)))
			ch->default_workloads |= 1ull << i;
	}
	workload_names[nw] = 0;
}
