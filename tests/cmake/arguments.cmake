# forge_add_operator()'s arguments: each mistake is a configure error that
# names the keyword and the fix, before anything is written.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/project/consumer")
set(cases
  "BACKEND HOST REFERNCE r.cpp|unknown argument \"REFERNCE\". The keywords are DIRECTORY, BACKEND, GATE and TIMEOUT (with one value) and REFERENCE, STUDENT, BENCH, PREP, LIBRARIES, REFERENCE_LIBRARIES, STUDENT_LIBRARIES and LABELS (with a list)."
  "BACKEND|BACKEND given without a value"
  "BACKEND HOST LABELS|LABELS given without a value"
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

