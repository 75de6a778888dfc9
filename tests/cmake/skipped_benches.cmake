# What ctest prints after a run in which benches skipped (cmake/ForgeSkippedBenches.cmake,
# CTEST_CUSTOM_POST_TEST): each skipped bench of this run once, grouped by its reason;
# nothing for a bench that measured, one whose eval.json is older than the run, or
# one with no eval.json; and never a failure, even on an unreadable eval.json.
#   cmake -DFORGE_SOURCE_DIR=<repo> -DWORK_DIR=<dir> -P skipped_benches.cmake
cmake_minimum_required(VERSION 3.25)
function(fail message)
  message(FATAL_ERROR "FAILED: ${message}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(script "${FORGE_SOURCE_DIR}/cmake/ForgeSkippedBenches.cmake")
set(benches "${WORK_DIR}/benches.txt")
set(started "${WORK_DIR}/started")

function(run_script out)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DFORGE_BENCHES=${benches}" "-DFORGE_STARTED=${started}" -P "${script}"
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    fail("the script exited ${result} (a failing post-test command fails the ctest run):\n${output}")
  endif()
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

set(no_device "no CUDA device to run this bench on (no NVIDIA driver)")
file(WRITE "${WORK_DIR}/old.json" "{\"skipped\": {\"reason\": \"${no_device}\"}}")
file(TOUCH_NOCREATE "${WORK_DIR}/old.json")
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(TOUCH "${started}")
file(WRITE "${WORK_DIR}/a.json" "{\"operator\": \"a\", \"skipped\": {\"reason\": \"${no_device}\"}}")
file(WRITE "${WORK_DIR}/b.json" "{\"operator\": \"b\", \"skipped\": {\"reason\": \"${no_device}\"}}")
file(WRITE "${WORK_DIR}/c.json" "{\"operator\": \"c\", \"skipped\": {\"reason\": \"another; with a semicolon\"}}")
file(WRITE "${WORK_DIR}/measured.json" "{\"operator\": \"m\", \"performance\": {\"ratio\": 1.0}}")
file(WRITE "${WORK_DIR}/broken.json" "{\"operator\": ")
file(WRITE "${benches}" "forge.a.bench|${WORK_DIR}/a.json
forge.old.bench|${WORK_DIR}/old.json
forge.b.bench|${WORK_DIR}/b.json
forge.c.bench|${WORK_DIR}/c.json
forge.m.bench|${WORK_DIR}/measured.json
forge.broken.bench|${WORK_DIR}/broken.json
forge.absent.bench|${WORK_DIR}/absent.json
")

run_script(output)
string(REGEX MATCHALL "ForgeKernel:" headers "${output}")
list(LENGTH headers count)
if(NOT count EQUAL 1 OR NOT output MATCHES "ForgeKernel: 3 benches did not run")
  fail("not one line saying 3 benches did not run:\n${output}")
endif()
string(REPLACE "(" "\\(" reason_regex "${no_device}")
string(REPLACE ")" "\\)" reason_regex "${reason_regex}")
if(NOT output MATCHES "\n  forge\\.a\\.bench, forge\\.b\\.bench: ${reason_regex}\n")
  fail("the two benches of one reason are not one line with it:\n${output}")
endif()
if(NOT output MATCHES "\n  forge\\.c\\.bench: another; with a semicolon")
  fail("the other reason is not on a line of its own:\n${output}")
endif()
foreach(quiet IN ITEMS old m broken absent)
  if(output MATCHES "forge\\.${quiet}\\.bench")
    fail("forge.${quiet}.bench is named, but it did not skip in this run:\n${output}")
  endif()
endforeach()

# A run in which every bench measured: nothing at all.
file(WRITE "${benches}" "forge.m.bench|${WORK_DIR}/measured.json\n")
run_script(output)
if(NOT output STREQUAL "")
  fail("a run without skipped benches printed:\n${output}")
endif()
# No list or stamp (ctest before the first configure finished): nothing, exit 0.
file(REMOVE "${started}")
run_script(output)
if(NOT output STREQUAL "")
  fail("the script printed without its stamp:\n${output}")
endif()
message(STATUS "skipped benches: said once, grouped by reason, this run's only")
