# The eval.json files this ctest run wrote, for the scripts ctest runs after its
# tests (ForgeSkippedBenches.cmake, ForgeVerdictNotes.cmake; CTEST_CUSTOM_POST_TEST,
# written by _forge_write_ctest_custom in ForgeTests.cmake), each run as
#
#   cmake -DFORGE_BENCHES=<file> -DFORGE_STARTED=<file> -P <script>
#
# FORGE_BENCHES lists "<test name>|<eval.json>" per line; FORGE_STARTED was
# touched before the tests ran, so an eval.json older than it (a bench this run
# left out, `ctest -L unit`) is not this run's.

# Each bench's test name in `tests_out` and its eval.json in `evals_out`, two
# lists of one length: the benches whose eval.json this run wrote.
function(_forge_run_evals tests_out evals_out)
  set(tests "")
  set(evals "")
  if(EXISTS "${FORGE_BENCHES}" AND EXISTS "${FORGE_STARTED}")
    file(TIMESTAMP "${FORGE_STARTED}" started "%s")
    file(STRINGS "${FORGE_BENCHES}" benches)
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
      if(NOT written LESS started)
        list(APPEND tests "${test}")
        list(APPEND evals "${eval}")
      endif()
    endforeach()
  endif()
  set(${tests_out} "${tests}" PARENT_SCOPE)
  set(${evals_out} "${evals}" PARENT_SCOPE)
endfunction()
