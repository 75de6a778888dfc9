# window.toml is a configure dependency: an edit that adds an undeclared input
# fails the next `cmake --build`, with the finding at its file:line:col.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)")
configure_consumer("${source}" "${WORK_DIR}/build" result log)  # scaffolds
declare_placeholder("${source}/scale")
configure_ok("${source}" "${WORK_DIR}/build")

# The student now also receives `bias`, which the reference lacks and no entry explains.
file(READ "${source}/scale/window.toml" contract)
string(REPLACE "[student]\nwindow = \"y = 2 * x\"\ninputs = [\"x\"]" "[student]\nwindow = \"y = 2 * x\"\ninputs = [\"x\", \"bias\"]" edited "${contract}")
if(edited STREQUAL contract)
  fail("the test's edit did not apply")
endif()
file(WRITE "${source}/scale/window.toml" "${edited}")

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}/build"
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("the build accepted a contract with an undeclared student input:\n${log}")
endif()
expect_match("${log}" "${source}/scale/window.toml:[0-9]+:[0-9]+: error\\[student-input-undeclared\\]: [^\n]*bias"
  "the build names the undeclared input")

# Declared again (an asymmetry entry), the next build configures cleanly.
file(APPEND "${source}/scale/window.toml" "
[[asymmetry]]
student_input = \"bias\"
class = \"accept\"
produced_by = \"other\"
")
configure_ok("${source}" "${WORK_DIR}/build")
