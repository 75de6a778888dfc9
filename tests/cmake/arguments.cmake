# forge_add_operator()'s arguments: each mistake is a configure error that
# names the keyword and the fix, before anything is written.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/project/consumer")
set(cases
  "BACKEND HOST REFERNCE r.cpp|unknown argument \"REFERNCE\""
  "BACKEND|BACKEND given without a value"
  "BACKEND HOST LABELS|LABELS given without a value"
  "BACKEND ROCM|it must be CUDA or HOST"
  "BACKEND HOST GATE fast|it must be a positive number"
  "BACKEND HOST GATE 0|GATE is \"0\""
  "BACKEND HOST TIMEOUT -5|TIMEOUT is \"-5\""
  "BACKEND HOST GATE \"\"|GATE is empty"
  "BACKEND \"\" GATE 1|BACKEND is empty"
  "BACKEND CUDA|BACKEND CUDA needs the CUDA language")
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
  expect_match("${log}" "${expected}" "forge_add_operator(scale ${arguments})")
  if(NOT before STREQUAL after)
    fail("forge_add_operator(scale ${arguments}) wrote files before refusing")
  endif()
endforeach()

# Two operators of one name would clash.
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)\nforge_add_operator(scale BACKEND HOST DIRECTORY other)")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
expect_match("${log}" "an operator of this name was already added" "a duplicate operator")
