# Scaffolding creates only what is missing: a file the author wrote survives
# byte for byte, and the card's other files appear around it.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
set(card "${source}/scale")
file(MAKE_DIRECTORY "${card}/student")
file(WRITE "${card}/student/student.cpp" "// the author's own student: not a template\n")
file(WRITE "${card}/README.md" "# scale\nWritten by hand.\n")
file(SHA256 "${card}/student/student.cpp" student_before)
file(SHA256 "${card}/README.md" readme_before)
file(TIMESTAMP "${card}/student/student.cpp" student_time "%s")

write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
file(SHA256 "${card}/student/student.cpp" student_after)
file(SHA256 "${card}/README.md" readme_after)
file(TIMESTAMP "${card}/student/student.cpp" student_time_after "%s")
if(NOT student_before STREQUAL student_after OR NOT student_time STREQUAL student_time_after)
  fail("scaffolding touched the existing student/student.cpp")
endif()
if(NOT readme_before STREQUAL readme_after)
  fail("scaffolding touched the existing README.md")
endif()
foreach(file IN ITEMS window.toml student/student.hpp reference/reference.cpp bench.cpp prep/prep.cpp)
  if(NOT EXISTS "${card}/${file}")
    fail("the missing ${file} was not scaffolded beside the existing files")
  endif()
endforeach()
expect_match("${log}" "scaffolded [^\n]*window\\.toml" "configure says what it scaffolded")
expect_no_match("${log}" "scaffolded [^\n]*student/student\\.cpp" "configure did not scaffold the existing file")

# A second configure scaffolds nothing: every file exists now.
snapshot("${card}" before)
configure_consumer("${source}" "${WORK_DIR}/build" result log)
snapshot("${card}" after)
if(NOT before STREQUAL after)
  fail("a second configure changed the card:\n${before}\nthen\n${after}")
endif()
expect_no_match("${log}" "scaffolded" "a second configure")

# The prep step is optional: an existing card whose author removed the stub
# (no PREP) does not get it back.
file(REMOVE_RECURSE "${card}/prep")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
if(EXISTS "${card}/prep")
  fail("configure re-created the prep step of an existing card without PREP")
endif()
