/* Named regions for C code: the C form of forge::bench::region (region.hpp),
 * for a reference or student written in C (a vendored kernel) whose profiled
 * call should show its parts as rows, as a price entry's regex needs.
 *
 *     #include <forge/bench/region.h>
 *
 *     void layernorm_backward(...) {
 *         forge_region_begin("rebuild_mean_rstd");
 *         ...
 *         forge_region_end();
 *     }
 *
 * Begin and end pair up on the thread that calls them, the innermost first,
 * like braces, and every region begun in a call ends before the call returns:
 * the harness fails the run naming the side when one is left open or an end
 * has no begin. The name must outlive the call (a literal). Time, nesting and
 * cost are as for the C++ regions; up to 64 may be open at once on a thread.
 * Link forge::bench (the card's bench does). */
#ifndef FORGE_BENCH_REGION_H
#define FORGE_BENCH_REGION_H

#ifdef __cplusplus
extern "C" {
#endif

void forge_region_begin(const char* name);
void forge_region_end(void);

#ifdef __cplusplus
}
#endif

#endif /* FORGE_BENCH_REGION_H */
