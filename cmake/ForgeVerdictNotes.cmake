# The benches of this ctest run whose verdict needs a second look, said once on
# the console.
#
# A bench that measured passes, and CTest shows its output only with -V: a
# ratio whose interval stayed wider than its precision target, a --quick
# ratio, or one measured on a machine busier than its earlier runs would pass
# unremarked. ctest runs this script after its tests, beside
# ForgeSkippedBenches.cmake; its arguments are ForgeRunEvals.cmake's. Always
# exits 0: a failing post-test command would fail the whole ctest run.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/ForgeRunEvals.cmake")

# A fraction as a percentage with one decimal, truncated: 0.0123 -> 1.2.
# (math() has no floating point: the fraction's text is scaled.)
function(_forge_percent fraction out)
  set(permille 0)
  if(fraction MATCHES "^([0-9]*)\\.?([0-9]*)$")
    set(whole "${CMAKE_MATCH_1}")
    string(SUBSTRING "${CMAKE_MATCH_2}000" 0 3 digits)
    if(whole STREQUAL "")
      set(whole 0)
    endif()
    math(EXPR permille "${whole} * 1000 + 1${digits} - 1000")  # the leading 1 keeps "012" decimal
  endif()
  math(EXPR integer "${permille} / 10")
  math(EXPR decimal "${permille} % 10")
  set(${out} "${integer}.${decimal}" PARENT_SCOPE)
endfunction()

# A number of eval.json to three decimals, as forge report shows it.
function(_forge_short number out)
  string(REGEX REPLACE "^([0-9]+\\.[0-9][0-9]?[0-9]?)[0-9]*$" "\\1" number "${number}")
  set(${out} "${number}" PARENT_SCOPE)
endfunction()

_forge_run_evals(tests evals)
set(lines "")
foreach(test eval IN ZIP_LISTS tests evals)
  file(READ "${eval}" json)
  string(JSON performance ERROR_VARIABLE unreadable GET "${json}" performance)
  if(unreadable)
    continue()  # skipped, failed before measuring, or not an eval.json: said elsewhere
  endif()
  string(JSON ratio ERROR_VARIABLE unreadable GET "${performance}" ratio)
  string(JSON low ERROR_VARIABLE no_low GET "${performance}" ratio_ci 0)
  string(JSON high ERROR_VARIABLE no_high GET "${performance}" ratio_ci 1)
  string(JSON verdict ERROR_VARIABLE no_verdict GET "${performance}" verdict)
  if(unreadable OR no_low OR no_high OR no_verdict OR ratio STREQUAL "null")
    continue()
  endif()
  string(JSON passed ERROR_VARIABLE ignored GET "${json}" correctness passed)
  if(NOT passed STREQUAL "ON" AND NOT passed STREQUAL "true")
    continue()  # a failed bench: ctest shows it failed, and its output why
  endif()

  set(notes "")
  string(JSON preset ERROR_VARIABLE ignored GET "${performance}" stopping preset)
  if(preset STREQUAL "quick")
    list(APPEND notes "a --quick run (fewer rounds: not a ratio to keep)")
  endif()
  string(JSON reached ERROR_VARIABLE ignored GET "${performance}" precision_reached)
  if(reached STREQUAL "OFF" OR reached STREQUAL "false")
    string(JSON target ERROR_VARIABLE ignored GET "${performance}" stopping precision)
    string(JSON count ERROR_VARIABLE ignored LENGTH "${performance}" workloads)
    set(imprecise 0)
    set(widest 0)
    if(count GREATER 0)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON workload_reached ERROR_VARIABLE ignored GET "${performance}" workloads ${i} precision_reached)
        if(workload_reached STREQUAL "OFF" OR workload_reached STREQUAL "false")
          math(EXPR imprecise "${imprecise} + 1")
          string(JSON half_width ERROR_VARIABLE ignored GET "${performance}" workloads ${i} stopping half_width)
          if(half_width GREATER widest)
            set(widest "${half_width}")
          endif()
        endif()
      endforeach()
    endif()
    _forge_percent("${target}" target_percent)
    _forge_percent("${widest}" widest_percent)
    list(APPEND notes
      "imprecise (${imprecise} of ${count} workloads did not reach +/-${target_percent}%, the widest +/-${widest_percent}%)")
  endif()
  string(JSON busier ERROR_VARIABLE ignored GET "${performance}" between_runs machine busier)
  if(busier STREQUAL "ON" OR busier STREQUAL "true")
    list(APPEND notes "a busier machine than its earlier runs (its interval reaches theirs)")
  endif()
  string(JSON drifted ERROR_VARIABLE ignored GET "${performance}" drift_flagged)
  if(drifted STREQUAL "ON" OR drifted STREQUAL "true")
    list(APPEND notes "a workload's calibration drifted during its rounds")
  endif()
  if(notes)
    list(JOIN notes ", " said)  # a semicolon would split the line in the list
    foreach(number IN ITEMS ratio low high)
      _forge_short("${${number}}" ${number})
    endforeach()
    list(APPEND lines "  ${test}: ${ratio} [${low}, ${high}] ${verdict}, ${said}")
  endif()
endforeach()

list(LENGTH lines count)
if(count EQUAL 0)
  return()
endif()
if(count EQUAL 1)
  message("ForgeKernel: 1 bench passed with a verdict to read with care (its eval.json and `forge report` say more):")
else()
  message("ForgeKernel: ${count} benches passed with verdicts to read with care (their eval.json and "
    "`forge report` say more):")
endif()
foreach(line IN LISTS lines)
  message("${line}")
endforeach()
