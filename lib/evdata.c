/* lib/evdata.c - the event tables of lib/evtables.h: build/gen/events_data.c,
 * which tools/mkevents.py --c generates from tools/events/ at build time
 * (the Makefile puts build/gen on this file's quote include path). */
#include "evtables.h"
#include "events_data.c"
