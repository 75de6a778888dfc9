# The benches of this ctest run that did not run, said once on the console.
#
# CTest prints a skipped test as `***Skipped` and keeps the bench's reason in its
# eval.json ("skipped": {"reason": ...}); without a GPU that is every CUDA bench.
# ctest runs this script after its tests, so the reason is printed once, under
# CTest's list of the tests that did not run; its arguments are
# ForgeRunEvals.cmake's. Always exits 0: a failing post-test command would fail
# the whole ctest run.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/ForgeRunEvals.cmake")

_forge_run_evals(tests evals)

# The skipped benches, grouped by reason: reason_<i> and tests_<i>.
set(reasons 0)
set(skipped 0)
foreach(test eval IN ZIP_LISTS tests evals)
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
