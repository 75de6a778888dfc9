# A bench is never built unoptimised silently: a single-config build whose
# flags carry no optimisation level warns once at configure time, naming the
# fix, and every bench is compiled knowing its build (FORGE_BENCH_OPTIMIZED and
# the rest, for eval.json's "build"). A multi-config build records it per
# configuration.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)\nforge_add_operator(shift BACKEND HOST)")
configure_consumer("${source}" "${WORK_DIR}/scaffold" result log)  # scaffolds, then refuses
declare_placeholder("${source}/scale")
declare_placeholder("${source}/shift")

# CMake wraps a warning's lines: the checks read configure's output with its
# white space collapsed (configure_flat).
function(configure_flat build log_var)
  configure_consumer("${source}" "${build}" result log ${ARGN})
  if(NOT result EQUAL 0)
    fail("configure of ${build} failed:\n${log}")
  endif()
  string(REGEX REPLACE "[ \t\n]+" " " log "${log}")
  set(${log_var} "${log}" PARENT_SCOPE)
endfunction()

set(warning "forge_add_operator\\(scale\\): the benches of this build are compiled without optimisation")
# The definitions the bench of `operator` is compiled with, from the Ninja file(s) of `build`.
function(bench_defines build operator out)
  file(GLOB ninja_files "${build}/build*.ninja")
  set(defines "")
  foreach(ninja_file IN LISTS ninja_files)
    file(STRINGS "${ninja_file}" lines REGEX "FORGE_BENCH_OPTIMIZED")
    string(APPEND defines "${lines}\n")
  endforeach()
  set(${out} "${defines}" PARENT_SCOPE)
endfunction()

# No build type: a warning, said once for both operators, with the fix.
configure_flat("${WORK_DIR}/none" log)
expect_match("${log}" "${warning} \\(CMAKE_BUILD_TYPE is empty, and the CXX flags carry no -O1" "no build type")
expect_match("${log}" "-DCMAKE_BUILD_TYPE=Release" "the warning says how to fix it")
string(REGEX MATCHALL "the benches of this build are compiled without optimisation" said "${log}")
list(LENGTH said times)
if(NOT times EQUAL 1)
  fail("the warning was given ${times} times for two operators:\n${log}")
endif()
bench_defines("${WORK_DIR}/none" scale defines)
expect_match("${defines}" "-DFORGE_BENCH_BUILD_TYPE=\\\\\"\\\\\"" "an empty build type is compiled in")
expect_match("${defines}" "-DFORGE_BENCH_OPTIMIZED=0" "the bench knows it is unoptimised")

configure_flat("${WORK_DIR}/debug" log -DCMAKE_BUILD_TYPE=Debug)
expect_match("${log}" "${warning} \\(CMAKE_BUILD_TYPE is Debug" "a Debug build")

# An optimisation level from the build type, or from CMAKE_CXX_FLAGS alone: no warning.
configure_flat("${WORK_DIR}/release" log -DCMAKE_BUILD_TYPE=Release)
expect_no_match("${log}" "without optimisation" "a Release build")
bench_defines("${WORK_DIR}/release" scale defines)
expect_match("${defines}" "-DFORGE_BENCH_BUILD_TYPE=\\\\\"Release\\\\\"" "the build type is compiled in")
expect_match("${defines}" "-DFORGE_BENCH_FLAGS=[\"\\\\]*-O3 -DNDEBUG" "the flags are compiled in")
expect_match("${defines}" "-DFORGE_BENCH_COMPILER=[\"\\\\]*${CMAKE_CXX_COMPILER_ID}" "the compiler is compiled in")
expect_match("${defines}" "-DFORGE_BENCH_OPTIMIZED=1" "the bench knows it is optimised")

# The card's timed code (the reference in the bench, the student) is aligned on
# cache lines with GCC and Clang, so where the linker puts it cannot move a
# ratio; eval.json's flags say so.
file(GLOB compiler_files "${WORK_DIR}/release/CMakeFiles/*/CMakeCXXCompiler.cmake")
include(${compiler_files})
if(CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
  set(aligned "-falign-functions=64 -falign-loops=64")
  expect_match("${defines}" "-DFORGE_BENCH_FLAGS=[\"\\\\]*-O3 -DNDEBUG ${aligned}" "the alignment is recorded")
  file(READ "${WORK_DIR}/release/build.ninja" ninja)
  foreach(object IN ITEMS "scale/student/student\\.cpp\\.o" "scale/bench\\.cpp\\.o")
    expect_match("${ninja}" "build [^\n]*${object}: [^\n]*\n(  [^\n]*\n)*  FLAGS = [^\n]*${aligned}"
      "${object} compiles aligned")
  endforeach()
endif()
configure_flat("${WORK_DIR}/flags" log "-DCMAKE_CXX_FLAGS=-O2 -g ${CONSUMER_FLAGS}")
expect_no_match("${log}" "without optimisation" "-O2 in CMAKE_CXX_FLAGS")
# The last level wins, as on the compiler's command line.
configure_flat("${WORK_DIR}/undone" log -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -O0")
expect_match("${log}" "${warning} \\(CMAKE_BUILD_TYPE is Release" "-O3 undone by a later -O0")

# A multi-config generator picks the configuration at build time: no warning,
# and each configuration's bench knows its own build.
set(CONSUMER_GENERATOR "Ninja Multi-Config")
configure_flat("${WORK_DIR}/multi" log)
expect_no_match("${log}" "without optimisation" "a multi-config build")
foreach(config optimized IN ZIP_LISTS "Debug;Release" "0;1")
  file(STRINGS "${WORK_DIR}/multi/build-${config}.ninja" defines REGEX "FORGE_BENCH_OPTIMIZED")
  expect_match("${defines}" "-DFORGE_BENCH_BUILD_TYPE=\\\\\"${config}\\\\\"" "the ${config} bench's build type")
  expect_match("${defines}" "-DFORGE_BENCH_OPTIMIZED=${optimized}" "the ${config} bench's optimisation")
endforeach()
