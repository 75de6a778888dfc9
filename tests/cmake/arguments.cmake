# forge_add_operator()'s arguments: each mistake is a configure error that
# names the keyword and the fix, before anything is written.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/project/consumer")
set(cases
  "BACKEND HOST REFERNCE r.cpp|unknown argument \"REFERNCE\". The keywords are QUICK and NOISE_FLOOR (alone), DIRECTORY, BACKEND, GATE, TIMEOUT, PRECISION and TIME_CAP (with one value) and REFERENCE, STUDENT, BENCH, PREP, LIBRARIES, REFERENCE_LIBRARIES, STUDENT_LIBRARIES, LABELS and LAUNCHER (with a list)."
  "BACKEND HOST PRECISION 1.5|PRECISION is \"1.5\""
  "BACKEND HOST PRECISION 1%|it must be a fraction between 0 and 1: how narrow each workload's 95% interval must be"
  "BACKEND HOST TIME_CAP 0|TIME_CAP is \"0\""
  "BACKEND HOST TIME_CAP 10s|it must be seconds, more than 0 and at most 3600"
  "BACKEND|BACKEND given without a value"
  "BACKEND HOST LABELS|LABELS given without a value"
  "BACKEND HOST LAUNCHER|LAUNCHER given without a value"
  "BACKEND ROCM|it must be CUDA or HOST"
  "BACKEND HOST GATE fast|it must be a positive number"
  "BACKEND HOST GATE 0|GATE is \"0\""
  "BACKEND HOST GATE 0e3|GATE is \"0e3\""
  "BACKEND HOST TIMEOUT -5|TIMEOUT is \"-5\""
  "BACKEND HOST GATE \"\"|GATE is empty"
  "BACKEND \"\" GATE 1|BACKEND is empty"
  "BACKEND CUDA|BACKEND CUDA needs the CUDA language"
  "BACKEND HOST REFERENCE r.cpp common.cpp STUDENT s.cpp ./common.cpp|STUDENT and REFERENCE or PREP both list")
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 arguments)
  list(GET case 1 expected)
  write_consumer("${source}" "forge_add_operator(scale ${arguments})")
  snapshot("${WORK_DIR}/project" before)
  configure_consumer("${source}" "${WORK_DIR}/build" result log)
  snapshot("${WORK_DIR}/project" after)
  if(result EQUAL 0)
    fail("configure accepted forge_add_operator(scale ${arguments})")
  endif()
  string(REGEX REPLACE "([][().*+?^$\\\\])" "\\\\\\1" expected "${expected}")
  string(REGEX REPLACE "[ \n]+" " " log "${log}")  # CMake wraps the message's lines
  expect_match("${log}" "${expected}" "forge_add_operator(scale ${arguments})")
  if(NOT before STREQUAL after)
    fail("forge_add_operator(scale ${arguments}) wrote files before refusing")
  endif()
endforeach()

# Two operators of one name would clash.
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)\nforge_add_operator(scale BACKEND HOST DIRECTORY other)")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
expect_match("${log}" "an operator of this name was already added" "a duplicate operator")

# Without enable_testing() CMake drops the operators' tests and ctest passes on
# none: configure says so, naming the file, also where testing is enabled only
# after the add_subdirectory() that reaches the operator.
declare_placeholder("${source}/scale")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST GATE 9e-1)")  # a gate as --gate reads it
configure_consumer("${source}" "${WORK_DIR}/build" result log)
if(NOT result EQUAL 0)
  fail("configure of a declared card (GATE 9e-1) failed:\n${log}")
endif()
expect_no_match("${log}" "testing is not enabled" "a consumer that enables testing")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)" NO_TESTING)
file(REMOVE_RECURSE "${WORK_DIR}/build")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
expect_match("${log}" "testing is not enabled in[ \n]+[^ \n]*/consumer/CMakeLists\\.txt"
  "a consumer without enable_testing()")
file(MAKE_DIRECTORY "${source}/ops")
file(RENAME "${source}/scale" "${source}/ops/scale")
file(WRITE "${source}/ops/CMakeLists.txt" "forge_add_operator(scale BACKEND HOST)\n")
write_consumer("${source}" "add_subdirectory(ops)\nenable_testing()" NO_TESTING)
file(REMOVE_RECURSE "${WORK_DIR}/build")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
expect_match("${log}" "testing is not enabled in[ \n]+[^ \n]*/ops/CMakeLists\\.txt"
  "enable_testing() after add_subdirectory()")


# How a card's bench stops: its keywords, else the project's cache variables,
# reach the bench's command line; a cache variable the bench would refuse is a
# configure error naming it.
set(CONSUMER_QUICK OFF)
file(REMOVE_RECURSE "${source}")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST QUICK PRECISION 0.02 TIME_CAP 6)
forge_add_operator(plain BACKEND HOST)")
configure_consumer("${source}" "${WORK_DIR}/stopping" result log)  # scaffolds both, then refuses
declare_placeholder("${source}/scale")
declare_placeholder("${source}/plain")
configure_ok("${source}" "${WORK_DIR}/stopping" -DFORGE_BENCH_PRECISION=5e-2 -DFORGE_BENCH_TIME_CAP=)
file(STRINGS "${WORK_DIR}/stopping/CTestTestfile.cmake" scale REGEX "^add_test\\(.*forge\\.scale\\.bench")
expect_match("${scale}" "\"--operator\" \"scale\" \"--quick\" \"--precision\" \"0\\.02\" \"--time-cap\" \"6\"\\)"
  "a card's QUICK, PRECISION and TIME_CAP")
file(STRINGS "${WORK_DIR}/stopping/CTestTestfile.cmake" plain REGEX "^add_test\\(.*forge\\.plain\\.bench")
expect_match("${plain}" "\"--operator\" \"plain\" \"--precision\" \"5e-2\"\\)" "FORGE_BENCH_PRECISION")
configure_consumer("${source}" "${WORK_DIR}/stopping" result log -DFORGE_BENCH_TIME_CAP=forever)
if(result EQUAL 0)
  fail("configure accepted -DFORGE_BENCH_TIME_CAP=forever")
endif()
string(REGEX REPLACE "[ \n]+" " " log "${log}")
expect_match("${log}" "FORGE_BENCH_TIME_CAP \\(a cache variable\\) is \"forever\"; it must be seconds"
  "-DFORGE_BENCH_TIME_CAP=forever")

# A launcher before each bench's command, under `forge launch`: the project's
# (FORGE_BENCH_LAUNCHER), or a card's own LAUNCHER. A HOST bench under one is
# not RUN_SERIAL (its job has a node of its own); without one it is.
file(STRINGS "${WORK_DIR}/stopping/CTestTestfile.cmake" plain_properties REGEX "forge\\.plain\\.bench.*PROPERTIES")
expect_match("${plain_properties}" "RUN_SERIAL \"TRUE\"" "a HOST bench without a launcher")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST LAUNCHER env FORGE_CARD=scale)
forge_add_operator(plain BACKEND HOST)" PREAMBLE "set(FORGE_BENCH_LAUNCHER \"srun;--gres=gpu:1\")")
configure_ok("${source}" "${WORK_DIR}/launcher")
file(STRINGS "${WORK_DIR}/launcher/CTestTestfile.cmake" scale REGEX "^add_test\\(.*forge\\.scale\\.bench")
expect_match("${scale}" "\"launch\" \"--\" \"env\" \"FORGE_CARD=scale\" \"[^\"]*/forge_scale_bench\" \"--contract\""
  "a card's LAUNCHER")
file(STRINGS "${WORK_DIR}/launcher/CTestTestfile.cmake" plain REGEX "^add_test\\(.*forge\\.plain\\.bench")
expect_match("${plain}" "/forge\" \"launch\" \"--\" \"srun\" \"--gres=gpu:1\" \"[^\"]*/forge_plain_bench\" \"--contract\""
  "FORGE_BENCH_LAUNCHER")
file(STRINGS "${WORK_DIR}/launcher/CTestTestfile.cmake" plain_properties REGEX "forge\\.plain\\.bench.*PROPERTIES")
expect_no_match("${plain_properties}" "RUN_SERIAL" "a HOST bench under a launcher")
file(STRINGS "${WORK_DIR}/launcher/CTestTestfile.cmake" checks REGEX "^add_test\\(.*forge\\.plain\\.(prep|credit)")
expect_no_match("${checks}" "srun" "the checks, which run where CTest runs")
# CMake 3.29's CMAKE_TEST_LAUNCHER, where no FORGE_BENCH_LAUNCHER is set, as one.
write_consumer("${source}" "forge_add_operator(plain BACKEND HOST)"
  PREAMBLE "set(CMAKE_TEST_LAUNCHER \"srun;-p;gpu\")")
configure_ok("${source}" "${WORK_DIR}/test_launcher")
file(STRINGS "${WORK_DIR}/test_launcher/CTestTestfile.cmake" plain REGEX "^add_test\\(.*forge\\.plain\\.bench")
expect_match("${plain}" "\"launch\" \"--\" \"srun\" \"-p\" \"gpu\" \"[^\"]*/forge_plain_bench\"" "CMAKE_TEST_LAUNCHER")
