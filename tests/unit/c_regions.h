/* The C kernels of c_regions.c, for the C++ tests that call them. */
#ifndef FORGE_TEST_C_REGIONS_H
#define FORGE_TEST_C_REGIONS_H

#ifdef __cplusplus
extern "C" {
#endif

void c_nested_regions(double outer_own_ms, double inner_ms);
void c_region_left_open(void);
void c_region_ended_twice(void);

#ifdef __cplusplus
}
#endif

#endif
