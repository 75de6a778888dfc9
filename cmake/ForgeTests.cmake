# The CTest tests of an operator (fixed names that users and dashboards match
# on, listed in cmake/README.md) and the project's forge.build fixture, which
# builds what they run so that `cmake --preset X && ctest --preset X` never
# measures a stale binary.
include_guard(GLOBAL)

# How a card's bench stops, as its arguments (--quick, --precision, --time-cap),
# in `out`: the card's keyword (QUICK, PRECISION, TIME_CAP), else the project's
# cache variable (FORGE_BENCH_QUICK, FORGE_BENCH_PRECISION, FORGE_BENCH_TIME_CAP),
# else the bench's own. A value the bench would refuse stops the configure.
function(_forge_bench_stopping_args context quick precision time_cap out)
  set(args "")
  if(quick OR FORGE_BENCH_QUICK)
    list(APPEND args --quick)
  endif()
  set(number "^([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$")
  foreach(setting IN ITEMS precision time_cap)
    string(TOUPPER "${setting}" keyword)
    if(NOT "${${setting}}" STREQUAL "")
      set(value "${${setting}}")
      set(given "${context}: ${keyword} is \"${value}\"")
      set(example "e.g. ${keyword} ")
    elseif(NOT "${FORGE_BENCH_${keyword}}" STREQUAL "")
      set(value "${FORGE_BENCH_${keyword}}")
      set(given "FORGE_BENCH_${keyword} (a cache variable) is \"${value}\"")
      set(example "e.g. -DFORGE_BENCH_${keyword}=")
    else()
      continue()
    endif()
    if(setting STREQUAL "precision")
      if(NOT value MATCHES "${number}" OR NOT (value GREATER 0 AND value LESS 1))
        message(FATAL_ERROR "${given}; it must be a fraction between 0 and 1: how narrow each workload's 95% "
          "interval must be, relative to its ratio, before its rounds stop (${example}0.02 for +/-2%; "
          "left out, the bench's own: 0.01).")
      endif()
      list(APPEND args --precision "${value}")
    else()
      if(NOT value MATCHES "${number}" OR NOT (value GREATER 0 AND NOT value GREATER 3600))
        message(FATAL_ERROR "${given}; it must be seconds, more than 0 and at most 3600: how long each "
          "workload's rounds may go on when the precision is not reached first (${example}8; "
          "left out, the bench's own: 4, or 0.3 with --quick).")
      endif()
      list(APPEND args --time-cap "${value}")
    endif()
  endforeach()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()

# forge.<name>.bench, .prep, .credit, with a gate .gate, and with `noise_floor`
# .a_a.reference and .a_a.student (each side timed against itself); `stopping_args`
# from _forge_bench_stopping_args; `launcher` (a list, may be empty) goes
# before the bench's command, as `srun;--gres=gpu:1` makes each bench a Slurm
# job, under `forge launch`, which ends the launcher when CTest's timeout kills
# the test (a killed srun would leave its job running). The checks only read
# files: they run where CTest runs.
function(_forge_add_operator_tests name card backend gate timeout labels stopping_args launcher noise_floor)
  set(contract "${card}/window.toml")
  set(run_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  set(eval "${run_dir}/eval.json")
  file(MAKE_DIRECTORY "${run_dir}")
  _forge_test_tool(forge)
  string(TOLOWER "${backend}" backend_label)
  if(labels)
    set(labels ";${labels}")  # the user's LABELS, after ours
  endif()

  set(bench_args --contract "${contract}" --eval "${eval}" --operator "${name}" ${stopping_args})
  if(launcher)
    set(bench_command ${forge} launch -- ${launcher} $<TARGET_FILE:forge_${name}_bench>)
  else()
    set(bench_command forge_${name}_bench)  # a target: CMake 3.29's CMAKE_TEST_LAUNCHER applies to it
  endif()
  add_test(NAME forge.${name}.bench COMMAND ${bench_command} ${bench_args} WORKING_DIRECTORY "${run_dir}")
  set_property(GLOBAL APPEND PROPERTY _FORGE_BENCH_EVALS "forge.${name}.bench|${eval}")
  # The bench exits 77 when the backend has no device: CTest's skip.
  set_tests_properties(forge.${name}.bench PROPERTIES
    FIXTURES_SETUP forge.${name}
    FIXTURES_REQUIRED forge.build
    LABELS "forge;bench;${backend_label}${labels}"
    SKIP_RETURN_CODE 77)
  if(backend STREQUAL "CUDA")
    _forge_gpu_bench_properties(forge.${name}.bench)
  elseif(NOT launcher)
    # A HOST bench times the CPU: nothing else may run beside it. Through a
    # launcher it runs where the launcher places it (a job of its own).
    set_tests_properties(forge.${name}.bench PROPERTIES RUN_SERIAL TRUE)
  endif()

  set(checks forge.${name}.prep forge.${name}.credit)
  add_test(NAME forge.${name}.prep COMMAND ${forge} prep --contract "${contract}" --eval "${eval}")
  add_test(NAME forge.${name}.credit COMMAND ${forge} credit --contract "${contract}" --eval "${eval}" --ctest)
  if(NOT gate STREQUAL "")
    add_test(NAME forge.${name}.gate COMMAND ${forge} credit --contract "${contract}" --eval "${eval}" --gate ${gate})
    list(APPEND checks forge.${name}.gate)
  endif()
  # A skipped bench still lets its fixture's tests run: with no eval.json the
  # checks exit 77 and skip themselves.
  set_tests_properties(${checks} PROPERTIES
    FIXTURES_REQUIRED forge.${name}
    LABELS "forge;check${labels}"
    SKIP_RETURN_CODE 77)

  # The card's noise floor: each side's own eval.json, where `forge report` finds
  # it beside the card's (docs/design/measurement.md, "The card's own noise floor").
  set(a_a_tests "")
  if(noise_floor)
    foreach(side IN ITEMS reference student)
      set(test forge.${name}.a_a.${side})
      set(a_a_args --contract "${contract}" --eval "${run_dir}/a_a.${side}/eval.json" --operator "${name}"
        ${stopping_args} --a-a ${side})
      add_test(NAME ${test} COMMAND ${bench_command} ${a_a_args} WORKING_DIRECTORY "${run_dir}")
      set_tests_properties(${test} PROPERTIES
        FIXTURES_REQUIRED forge.build
        LABELS "forge;bench;a_a;${backend_label}${labels}"
        SKIP_RETURN_CODE 77)
      if(backend STREQUAL "CUDA")
        _forge_gpu_bench_properties(${test})
      elseif(NOT launcher)
        set_tests_properties(${test} PROPERTIES RUN_SERIAL TRUE)
      endif()
      list(APPEND a_a_tests ${test})
    endforeach()
  endif()

  if(NOT timeout STREQUAL "")
    set_tests_properties(forge.${name}.bench ${checks} ${a_a_tests} PROPERTIES TIMEOUT ${timeout})
  endif()
endfunction()

# A CUDA bench's share of the GPUs. With `ctest --resource-spec-file`, CTest runs
# one bench per GPU at once and tells each its GPU (CTEST_RESOURCE_GROUP_0_GPUS,
# which the harness selects). Without a spec CTest ignores RESOURCE_GROUPS and
# every bench picks device 0: the bench itself then holds the GPU while it times
# (an flock on a file named by the GPU's UUID, src/bench/runtime/cuda/gpu_claim.hpp), so
# `ctest -j` runs them one after another on it. No RESOURCE_LOCK here: CTest
# holds a lock whether or not a spec gave each bench its own GPU, so one lock
# name would serialise a multi-GPU node too.
function(_forge_gpu_bench_properties test)
  set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "gpus:1")
endfunction()

# forge.build: once per project, in the top-level directory.
function(_forge_add_build_test)
  get_property(targets GLOBAL PROPERTY FORGE_BUILD_TARGETS)
  if(NOT targets)
    return()
  endif()
  # In a source build the checks run this project's forge: build it too.
  if(TARGET forge::forge)
    get_target_property(tool forge::forge ALIASED_TARGET)
    if(tool)
      list(APPEND targets "${tool}")
    endif()
  endif()
  set(config_args "")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(config_args --config "$<CONFIG>")
  endif()
  add_test(NAME forge.build
    COMMAND "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" ${config_args} --target ${targets})
  set_tests_properties(forge.build PROPERTIES FIXTURES_SETUP forge.build LABELS forge)
endfunction()

# CTest shows a skipped bench as `***Skipped`, without the reason its eval.json
# keeps, and a passed one without what its verdict needs said: after the tests,
# ctest prints the skipped benches of the run once, with their reasons
# (ForgeSkippedBenches.cmake), then the benches whose verdict is imprecise,
# quick or from a busier machine (ForgeVerdictNotes.cmake), from the build
# tree's CTestCustom.cmake. A project that writes its own CTestCustom.cmake keeps it;
# it can include() <build>/CMakeFiles/ForgeCTestCustom.cmake to have this too.
function(_forge_write_ctest_custom)
  get_property(benches GLOBAL PROPERTY _FORGE_BENCH_EVALS)
  if(NOT benches)
    return()
  endif()
  set(state "${CMAKE_BINARY_DIR}/CMakeFiles")
  list(JOIN benches "\n" lines)
  file(CONFIGURE OUTPUT "${state}/ForgeBenches.txt" CONTENT "@lines@\n" @ONLY)
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ForgeSkippedBenches.cmake")
  set(notes_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ForgeVerdictNotes.cmake")
  set(started "${state}/ForgeCTestStarted")
  file(CONFIGURE OUTPUT "${state}/ForgeCTestCustom.cmake" @ONLY CONTENT [==[
# Written by ForgeKernel (ForgeTests.cmake): say once which benches of a ctest run did not run, and why,
# and which passed with a verdict to read with care.
# A failing post-test command fails the ctest run: none without its script.
list(APPEND CTEST_CUSTOM_PRE_TEST [[ "@CMAKE_COMMAND@" -E touch "@started@" ]])
foreach(_forge_script IN ITEMS [[@script@]] [[@notes_script@]])
  if(EXISTS "${_forge_script}")
    list(APPEND CTEST_CUSTOM_POST_TEST
      "\"@CMAKE_COMMAND@\" \"-DFORGE_BENCHES=@state@/ForgeBenches.txt\" \"-DFORGE_STARTED=@started@\" -P \"${_forge_script}\"")
  endif()
endforeach()
]==])
  set(custom "${CMAKE_BINARY_DIR}/CTestCustom.cmake")
  set(marker "# ForgeKernel's: include(\"${state}/ForgeCTestCustom.cmake\")")
  if(EXISTS "${custom}")
    file(STRINGS "${custom}" first LIMIT_COUNT 1)
    if(NOT first STREQUAL marker)
      return()  # the project's own
    endif()
  endif()
  file(CONFIGURE OUTPUT "${custom}" CONTENT "${marker}\ninclude(\"${state}/ForgeCTestCustom.cmake\")\n" @ONLY)
endfunction()

# add_test() is silently dropped in a directory where testing is off, and ctest
# then finds no test and passes: testing must be on in the top-level directory
# (its CTestTestfile reaches the others) and in each that added an operator.
# CMAKE_TESTING_ENABLED is what enable_testing() sets there (CMake's own
# generators read it); checked at the top-level directory's end, after every call.
function(_forge_check_testing_enabled)
  get_property(directories GLOBAL PROPERTY _FORGE_OPERATOR_DIRECTORIES)
  if(NOT directories)
    return()
  endif()
  list(PREPEND directories "${CMAKE_SOURCE_DIR}")
  list(REMOVE_DUPLICATES directories)
  set(untested "")
  foreach(directory IN LISTS directories)
    get_directory_property(enabled DIRECTORY "${directory}" DEFINITION CMAKE_TESTING_ENABLED)
    if(NOT enabled)
      list(APPEND untested "${directory}/CMakeLists.txt")
    endif()
  endforeach()
  if(untested)
    list(JOIN untested " and " files)
    message(WARNING "ForgeKernel: testing is not enabled in ${files}, so CMake drops the tests "
      "forge_add_operator() registered and ctest finds none. Call enable_testing() (or include(CTest)) "
      "in the top-level CMakeLists.txt, before the add_subdirectory() calls that reach the operators.")
  endif()
endfunction()
