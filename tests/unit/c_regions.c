/* C code marking regions with forge/bench/region.h, compiled as C: a kernel
 * that spends its time in two nested regions, and two that leave them unbalanced. */
#include "c_regions.h"

#include <forge/bench/region.h>
#include <time.h>

static double thread_cpu_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

static void spin_ms(double ms) {
    const double until = thread_cpu_ms() + ms;
    while (thread_cpu_ms() < until) {
    }
}

void c_nested_regions(double outer_own_ms, double inner_ms) {
    forge_region_begin("c_outer");
    spin_ms(outer_own_ms);
    forge_region_begin("c_inner");
    spin_ms(inner_ms);
    forge_region_end();
    forge_region_end();
}

void c_region_left_open(void) { forge_region_begin("c_left_open"); }

void c_region_ended_twice(void) {
    forge_region_begin("c_once");
    forge_region_end();
    forge_region_end();
}
