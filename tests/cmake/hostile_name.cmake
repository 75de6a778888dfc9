# An operator name that is not an identifier is refused before anything is
# written: it would become a path, target names and test names.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/project/consumer")
foreach(name IN ITEMS "../x" "a\\;b" "$(x)" "9lives" "")
  write_consumer("${source}" "forge_add_operator(\"${name}\" BACKEND HOST)")
  snapshot("${WORK_DIR}/project" before)
  configure_consumer("${source}" "${WORK_DIR}/build" result log)
  snapshot("${WORK_DIR}/project" after)
  if(result EQUAL 0)
    fail("configure accepted the operator name \"${name}\":\n${log}")
  endif()
  expect_match("${log}" "the operator name must match" "the refusal of \"${name}\" says why")
  if(NOT before STREQUAL after)
    fail("refusing \"${name}\" still wrote files:\n${after}")
  endif()
endforeach()
