# A new operator is scaffolded from the templates, and its placeholder contract
# (undeclared) stops configure, every finding named by file:line:col.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
write_consumer("${source}" "forge_add_operator(softmax BACKEND HOST)")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
if(result EQUAL 0)
  fail("configure accepted the scaffolded placeholder contract:\n${log}")
endif()
set(scaffold_log "${log}")

set(toml "${source}/softmax/window.toml")
foreach(list IN ITEMS reference].inputs reference].outputs student].inputs student].outputs)
  # Each empty list is a finding of its own, at its line and column.
  string(REPLACE "." "\\." list "${list}")
  expect_match("${log}" "${toml}:[0-9]+:[0-9]+: error\\[list-empty\\]: [^\n]*\\[${list}" "the findings of the placeholder")
endforeach()

# A finding of no line (a misspelt table leaves [student] undeclared) is named
# by the file alone, never "window.toml:::".
file(READ "${toml}" placeholder)
string(REPLACE "[student]" "[studnet]" misspelt "${placeholder}")
file(WRITE "${toml}" "${misspelt}")
configure_consumer("${source}" "${WORK_DIR}/build" result log)
expect_match("${log}" "${toml}: error\\[[a-z-]+\\]: [^\n]*\\[student\\]" "a finding of the whole file")
expect_no_match("${log}" "window\\.toml::" "a finding without a line")
file(WRITE "${toml}" "${placeholder}")

# The card is complete, HOST variant, with the name substituted everywhere.
function(expect_scaffolded card files)
  foreach(file IN LISTS files)
    if(NOT EXISTS "${card}/${file}")
      fail("the scaffold did not create ${card}/${file}")
    endif()
    file(READ "${card}/${file}" text)
    expect_no_match("${text}" "@FORGE_OPERATOR@" "${card}/${file}")
    expect_no_match("${text}" "\\.forge-[a-zA-Z0-9]+\\.tmp" "${card}/${file}")
  endforeach()
endfunction()
expect_scaffolded("${source}/softmax" "window.toml;README.md;reference/reference.hpp;reference/reference.cpp;\
student/student.hpp;student/student.cpp;bench.cpp")
# A prep step only when asked for: no PREP, no prep/.
if(EXISTS "${source}/softmax/prep")
  fail("a new card without PREP got a prep/ directory")
endif()
expect_no_match("${scaffold_log}" "scaffolded [^\n]*prep/" "configure of a card without PREP")
# With PREP naming the stub's files, the new card gets the stub.
set(with_prep "${WORK_DIR}/with_prep")
write_consumer("${with_prep}" "forge_add_operator(rmsnorm BACKEND HOST PREP prep/prep.hpp prep/prep.cpp)")
configure_consumer("${with_prep}" "${WORK_DIR}/with_prep_build" result log)
expect_scaffolded("${with_prep}/rmsnorm" "window.toml;bench.cpp;prep/prep.hpp;prep/prep.cpp")
expect_match("${log}" "scaffolded [^\n]*prep/prep\\.hpp, prep/prep\\.cpp" "configure says it scaffolded the prep step")
file(READ "${with_prep}/rmsnorm/prep/prep.cpp" prep)
expect_match("${prep}" "void rmsnorm\\(forge::bench::PrepIo& io\\)" "the prep stub is named after the operator")
file(READ "${source}/softmax/bench.cpp" bench)
expect_match("${bench}" "reference::softmax\\(" "the bench calls the reference by the operator's name")
file(GLOB leftovers "${source}/softmax/*.tmp" "${source}/softmax/*/*.tmp")
if(leftovers)
  fail("temporary files left behind: ${leftovers}")
endif()

# A reference of the author's own files: the scaffolded bench still calls the
# placeholder's, and says (configure too) where to call the author's instead.
set(own "${WORK_DIR}/own_reference")
write_consumer("${own}" "forge_add_operator(rownorm BACKEND HOST REFERENCE vendor/rownorm.hpp vendor/rownorm.cpp)")
configure_consumer("${own}" "${WORK_DIR}/own_reference_build" result log)
expect_match("${log}" "forge_add_operator\\(rownorm\\): bench\\.cpp calls the placeholder's reference; make it call yours"
  "configure's word on the scaffolded bench")
file(READ "${own}/rownorm/bench.cpp" bench)
expect_match("${bench}" "// The reference is your own \\(forge_add_operator's REFERENCE files\\)[^\n]*\n[^\n]*\n[^\n]*\n#include \"reference\\.hpp\""
  "the comment above the placeholder reference's #include")
expect_no_match("${bench}" "The student is your own" "a bench whose student is the scaffold's")
