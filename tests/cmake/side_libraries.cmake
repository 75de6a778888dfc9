# Per-side libraries: LIBRARIES reach both sides, REFERENCE_LIBRARIES the
# reference (and the prep step), STUDENT_LIBRARIES the student. A student that
# calls a library given only to the reference fails the build, naming the
# symbol, though the bench itself links every side's libraries.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
set(card "${source}/scale")
set(build "${WORK_DIR}/build")
# Three libraries of the project: one for both sides, one per side.
file(MAKE_DIRECTORY "${source}/libs")
file(WRITE "${source}/libs/shared.cpp" "float shared_twice(float x) { return x + x; }\n")
file(WRITE "${source}/libs/vendor.cpp" "float vendor_twice(float x) { return 2.0f * x; }\n")
file(WRITE "${source}/libs/mine.cpp" "float mine_twice(float x) { return x * 2.0f; }\n")
write_consumer("${source}" [=[
add_library(shared STATIC libs/shared.cpp)
add_library(vendor STATIC libs/vendor.cpp)
add_library(mine STATIC libs/mine.cpp)
forge_add_operator(scale BACKEND HOST
  LIBRARIES shared REFERENCE_LIBRARIES vendor STUDENT_LIBRARIES mine)
]=])
configure_consumer("${source}" "${build}" result log)  # scaffolds
declare_placeholder("${card}")

# Each side calls its own library and the shared one: the bench builds.
function(write_side side library)
  file(WRITE "${card}/${side}/${side}.cpp" "#include \"${side}.hpp\"

float shared_twice(float x);
float ${library}_twice(float x);

namespace ${side} {
void scale(const float* x, float* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = i % 2 == 0 ? shared_twice(x[i]) : ${library}_twice(x[i]);
}
}  // namespace ${side}
")
endfunction()
write_side(reference vendor)
write_side(student mine)
configure_ok("${source}" "${build}")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("a card whose sides call LIBRARIES and their own libraries did not build:\n${log}")
endif()

# The student calls the reference's library: its link check fails, naming the symbol.
write_side(student vendor)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a student that calls a REFERENCE_LIBRARIES library built:\n${log}")
endif()
expect_match("${log}" "forge_scale_student_link_check" "the student's link check fails")
expect_match("${log}" "undefined reference to [^\n]*vendor_twice" "the link names the reference's symbol")
