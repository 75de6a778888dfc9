# How ForgeKernel's own test executables compile their test code: for build
# speed, not run speed. The libraries under test keep the build type's
# optimisation; only the test sources (Boost.Test's assertions, the fixtures,
# the small kernels of synthetic benches) are built at -O0. At -O2 they took 528
# of the gpu preset's 1224 CPU seconds of build, and twice as long as at -O0.
function(forge_compile_test_code target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
endfunction()
