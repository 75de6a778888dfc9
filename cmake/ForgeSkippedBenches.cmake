# The benches of this ctest run that did not run, said once on the console.
#
# CTest prints a skipped test as `***Skipped` and keeps the bench's reason in its
# eval.json ("skipped": {"reason": ...}); without a GPU that is every CUDA bench.
# ctest runs this script after its tests (CTEST_CUSTOM_POST_TEST, written by
# _forge_write_ctest_custom in ForgeTests.cmake), so the reason is printed once,
# under CTest's list of the tests that did not run:
#
#   cmake -DFORGE_BENCHES=<file> -DFORGE_STARTED=<file> -P ForgeSkippedBenches.cmake
#
# FORGE_BENCHES lists "<test name>|<eval.json>" per line; FORGE_STARTED was
# touched before the tests ran, so an eval.json older than it (a bench this run
# left out, `ctest -L unit`) is not this run's. Always exits 0: a failing
# post-test command would fail the whole ctest run.
cmake_minimum_required(VERSION 3.25)

if(NOT EXISTS "${FORGE_BENCHES}" OR NOT EXISTS "${FORGE_STARTED}")
  return()
endif()
file(TIMESTAMP "${FORGE_STARTED}" started "%s")
file(STRINGS "${FORGE_BENCHES}" benches)

# The skipped benches, grouped by reason: reason_<i> and tests_<i>.
set(reasons 0)
set(skipped 0)
foreach(bench IN LISTS benches)
  if(NOT bench MATCHES "^([^|]+)\\|(.+)$")
    continue()
  endif()
  set(test "${CMAKE_MATCH_1}")
  set(eval "${CMAKE_MATCH_2}")
  if(NOT EXISTS "${eval}")
    continue()
  endif()
  file(TIMESTAMP "${eval}" written "%s")
  if(written LESS started)
    continue()
  endif()
  file(READ "${eval}" json)
  string(JSON reason ERROR_VARIABLE not_skipped GET "${json}" skipped reason)
  if(not_skipped)
    continue()
  endif()
  math(EXPR skipped "${skipped} + 1")
  set(group "")
  foreach(i RANGE ${reasons})
    if(DEFINED reason_${i} AND reason_${i} STREQUAL reason)
      set(group ${i})
      break()
    endif()
  endforeach()
  if(group STREQUAL "")
    math(EXPR reasons "${reasons} + 1")
    set(group ${reasons})
    set(reason_${group} "${reason}")
  endif()
  list(APPEND tests_${group} "${test}")
endforeach()

if(skipped EQUAL 0)
  return()
endif()
if(skipped EQUAL 1)
  message("ForgeKernel: 1 bench did not run, so this run measured no ratio for it (its checks skipped too; "
    "its eval.json keeps the reason, and `forge report` lists it):")
else()
  message("ForgeKernel: ${skipped} benches did not run, so this run measured no ratio for them (their checks "
    "skipped too; each eval.json keeps the reason, and `forge report` lists them):")
endif()
foreach(i RANGE 1 ${reasons})
  list(JOIN tests_${i} ", " tests)
  message("  ${tests}: ${reason_${i}}")
endforeach()
