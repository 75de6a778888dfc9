# A student whose own objects define a function the harness times or checks with
# (the C library's clock, a linker wrapper) is refused when the bench builds,
# naming the function and the object, and again at the next build; renamed, it
# builds. (cmake/ForgeSideSymbols.cmake; the HOST clock itself is read by
# system call, tests/unit/bench_interposed_clock_test.cpp.)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
set(card "${source}/twice")
set(build "${WORK_DIR}/build")
write_consumer("${source}" "forge_add_operator(twice BACKEND HOST)")
configure_consumer("${source}" "${build}" result log)  # scaffolds
declare_placeholder("${card}")
configure_ok("${source}" "${build}")

function(build_bench result_var log_var)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_twice_bench
    RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  set(${result_var} "${result}" PARENT_SCOPE)
  set(${log_var} "${log}" PARENT_SCOPE)
endfunction()

file(WRITE "${card}/student/clock.cpp" "#include <time.h>
// Sets the clock back by what its calls took (gpu-mode reference-kernels #162).
extern \"C\" int clock_gettime(clockid_t, struct timespec* t) noexcept { t->tv_sec = 0; t->tv_nsec = 0; return 0; }
extern \"C\" long __wrap_pread(int, void*, unsigned long, long) { return 0; }
")
write_consumer("${source}" "forge_add_operator(twice BACKEND HOST
  STUDENT student/student.hpp student/student.cpp student/clock.cpp)")
configure_ok("${source}" "${build}")
foreach(attempt IN ITEMS first again)
  build_bench(result log)
  if(result EQUAL 0)
    fail("the ${attempt} build took a student that defines clock_gettime:\n${log}")
  endif()
  string(REGEX REPLACE "[ \n]+" " " log "${log}")  # CMake wraps the message's lines
  expect_match("${log}" "forge_add_operator\\(twice\\): the student defines [^:]*clock_gettime \\(in clock\\.cpp\\.o\\)"
    "the ${attempt} refusal names clock_gettime and its object")
  expect_match("${log}" "__wrap_pread \\(in clock\\.cpp\\.o\\)" "the ${attempt} refusal names the wrapper")
endforeach()

# Renamed, the student's own functions are its business.
file(WRITE "${card}/student/clock.cpp" "#include <time.h>
namespace student { int my_clock_gettime(clockid_t, struct timespec* t) { t->tv_sec = 0; t->tv_nsec = 0; return 0; } }
extern \"C\" long student_pread(int, void*, unsigned long, long) { return 0; }
")
build_bench(result log)
if(NOT result EQUAL 0)
  fail("a student whose functions have names of their own did not build:\n${log}")
endif()
message(STATUS "student symbols: a defined clock_gettime and __wrap_pread refused, named, at every build")
