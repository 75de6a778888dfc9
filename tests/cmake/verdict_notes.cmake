# What ctest prints after a run in which benches passed with a verdict to read
# with care (cmake/ForgeVerdictNotes.cmake, CTEST_CUSTOM_POST_TEST): each such
# bench of this run once, with its ratio and why (imprecise, quick, a busier
# machine, other busy processes, drift); nothing for a precise one, a failed one, a skipped one, one
# whose eval.json is older than the run or unreadable; never a failure.
#   cmake -DFORGE_SOURCE_DIR=<repo> -DWORK_DIR=<dir> -P verdict_notes.cmake
cmake_minimum_required(VERSION 3.25)
function(fail message)
  message(FATAL_ERROR "FAILED: ${message}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(script "${FORGE_SOURCE_DIR}/cmake/ForgeVerdictNotes.cmake")
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

# An eval.json of a bench that passed: `reached` its precision or not (two
# workloads, the second one's half-width given), `preset`, `busier`, `drift`.
function(write_eval file reached half_width preset busier drift)
  file(WRITE "${file}" "{\"correctness\": {\"passed\": true}, \"performance\": {
  \"ratio\": 1.23456, \"ratio_ci\": [1.2, 1.27], \"verdict\": \"faster\", \"precision_reached\": ${reached},
  \"drift_flagged\": ${drift}, \"stopping\": {\"preset\": \"${preset}\", \"precision\": 0.01},
  \"between_runs\": {\"machine\": {\"busier\": ${busier}}},
  \"workloads\": [{\"precision_reached\": true, \"stopping\": {\"half_width\": 0.008}},
                  {\"precision_reached\": ${reached}, \"stopping\": {\"half_width\": ${half_width}}}]}}")
endfunction()

file(WRITE "${WORK_DIR}/old.json" "")
write_eval("${WORK_DIR}/old.json" false 0.05 standard false false)
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(TOUCH "${started}")
write_eval("${WORK_DIR}/imprecise.json" false 0.0234 standard false false)
write_eval("${WORK_DIR}/quick.json" true 0.004 quick false false)
write_eval("${WORK_DIR}/busier.json" true 0.004 standard true true)
write_eval("${WORK_DIR}/precise.json" true 0.004 standard false false)
# Precise, but beside a neighbour (device.other_processes); precise.json's was quiet.
function(add_other_processes from to cpus neighbour)
  file(READ "${from}" json)
  string(REPLACE "{\"correctness\"" "{\"device\": {\"other_processes\": {\"cpus\": ${cpus}, \"neighbour\": ${neighbour}}}, \"correctness\"" json "${json}")
  file(WRITE "${to}" "${json}")
endfunction()
add_other_processes("${WORK_DIR}/precise.json" "${WORK_DIR}/neighbour.json" 0.9712 true)
add_other_processes("${WORK_DIR}/precise.json" "${WORK_DIR}/precise.json" 0.02 false)
write_eval("${WORK_DIR}/failed.json" false 0.05 standard false false)
file(READ "${WORK_DIR}/failed.json" failed)
string(REPLACE "\"passed\": true" "\"passed\": false" failed "${failed}")
file(WRITE "${WORK_DIR}/failed.json" "${failed}")
file(WRITE "${WORK_DIR}/skipped.json" "{\"skipped\": {\"reason\": \"no CUDA device\"}, \"performance\": null}")
file(WRITE "${WORK_DIR}/broken.json" "{\"performance\": ")
file(WRITE "${benches}" "forge.imprecise.bench|${WORK_DIR}/imprecise.json
forge.old.bench|${WORK_DIR}/old.json
forge.quick.bench|${WORK_DIR}/quick.json
forge.busier.bench|${WORK_DIR}/busier.json
forge.precise.bench|${WORK_DIR}/precise.json
forge.neighbour.bench|${WORK_DIR}/neighbour.json
forge.failed.bench|${WORK_DIR}/failed.json
forge.skipped.bench|${WORK_DIR}/skipped.json
forge.broken.bench|${WORK_DIR}/broken.json
forge.absent.bench|${WORK_DIR}/absent.json
")

run_script(output)
string(REGEX MATCHALL "ForgeKernel:" headers "${output}")
list(LENGTH headers count)
if(NOT count EQUAL 1 OR NOT output MATCHES "ForgeKernel: 4 benches passed with verdicts to read with care")
  fail("not one line saying 4 benches passed with verdicts to read with care:\n${output}")
endif()
set(ratio "1\\.234 \\[1\\.2, 1\\.27\\] faster")
if(NOT output MATCHES "\n  forge\\.imprecise\\.bench: ${ratio}, imprecise \\(1 of 2 workloads did not reach \\+/-1\\.0%, the widest \\+/-2\\.3%\\)\n")
  fail("the imprecise bench's line does not give its ratio, how many workloads and how wide:\n${output}")
endif()
if(NOT output MATCHES "\n  forge\\.quick\\.bench: ${ratio}, a --quick run")
  fail("the quick bench's line does not say quick:\n${output}")
endif()
if(NOT output MATCHES "\n  forge\\.busier\\.bench: ${ratio}, a busier machine than its earlier runs[^\n]*, a workload's calibration or ratio drifted")
  fail("the busier bench's line does not say busier and drifted:\n${output}")
endif()
if(NOT output MATCHES "\n  forge\\.neighbour\\.bench: ${ratio}, other processes kept 0\\.971 CPUs busy beside it")
  fail("the bench beside a neighbour does not say how busy the other processes kept the machine:\n${output}")
endif()
foreach(quiet IN ITEMS old precise failed skipped broken absent)
  if(output MATCHES "forge\\.${quiet}\\.bench")
    fail("forge.${quiet}.bench is named:\n${output}")
  endif()
endforeach()

# A run whose every verdict is precise: nothing at all.
file(WRITE "${benches}" "forge.precise.bench|${WORK_DIR}/precise.json\n")
run_script(output)
if(NOT output STREQUAL "")
  fail("a run of precise verdicts printed:\n${output}")
endif()
file(REMOVE "${started}")
run_script(output)
if(NOT output STREQUAL "")
  fail("the script printed without its stamp:\n${output}")
endif()
message(STATUS "verdict notes: said once, this run's passed benches only")
