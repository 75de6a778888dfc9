# Per-side libraries: LIBRARIES reach both sides, REFERENCE_LIBRARIES the
# reference (and the prep step), STUDENT_LIBRARIES the student. A student that
# calls a library given only to the reference fails the build, naming the
# symbol, though the bench itself links every side's libraries. Each side is a
# target of its own: two versions of one function (both sides define
# `side_kernel`, as a naive and a tuned file of one kernel do) link once a
# compile definition renames each side's. A side made of headers compiles in
# the bench, with its own libraries' options, never the other side's.
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
  LIBRARIES shared REFERENCE_LIBRARIES vendor STUDENT_LIBRARIES mine late_headers -Wl,--as-needed)
# Defined after the call: the student's header includes its header, in the bench too.
add_library(late_headers INTERFACE)
target_include_directories(late_headers INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/libs/late")
# Options one side has alone, one set after forge_add_operator() and holding quotes;
# a side's library's options reach that side's sources only, though the bench links both.
target_compile_options(vendor INTERFACE -fno-trapping-math)
target_compile_options(mine INTERFACE -fno-signed-zeros)
target_compile_options(forge_scale_student PRIVATE "-DSTUDENT_NOTE=\"a b\"")
target_compile_definitions(forge_scale_reference PRIVATE side_kernel=reference_side_kernel)
target_compile_definitions(forge_scale_student PRIVATE side_kernel=student_side_kernel)
# A reference made of headers compiles in the bench, which links the student's library.
forge_add_operator(scale_inline BACKEND HOST
  REFERENCE reference/reference.hpp STUDENT_LIBRARIES mine)
]=])
set(inline_card "${source}/scale_inline")
file(WRITE "${inline_card}/reference/reference.hpp" [=[
#pragma once
#include <cstdint>
namespace reference {
inline void scale_inline(const float* x, float* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}
}  // namespace reference
]=])
file(WRITE "${source}/libs/late/late.hpp" "#pragma once\ninline constexpr int late_marker = 1;\n")
configure_consumer("${source}" "${build}" result log)  # scaffolds
declare_placeholder("${card}")
declare_placeholder("${inline_card}")
file(APPEND "${card}/student/student.hpp" "#include \"late.hpp\"\n")

# Each side calls its own library and the shared one: the bench builds.
function(write_side side library)
  file(WRITE "${card}/${side}/${side}.cpp" "#include \"${side}.hpp\"

float shared_twice(float x);
float ${library}_twice(float x);

float side_kernel(float x, std::int64_t i) { return i % 2 == 0 ? shared_twice(x) : ${library}_twice(x); }

namespace ${side} {
void scale(const float* x, float* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = side_kernel(x[i], i);
}
}  // namespace ${side}
")
endfunction()
write_side(reference vendor)
write_side(student mine)
configure_ok("${source}" "${build}")

# Builds and runs the operator's bench (`--quick`): its output in `log`, its eval.json in `eval`.
function(run_bench operator card what)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_${operator}_bench
    RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT result EQUAL 0)
    fail("a card whose ${what} did not build:\n${log}")
  endif()
  file(GLOB_RECURSE bench "${build}/forge_${operator}_bench")
  execute_process(COMMAND "${bench}" --contract "${card}/window.toml" --eval "${WORK_DIR}/eval.json"
    --operator ${operator} --quick RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT result EQUAL 0)
    fail("the bench of a card whose ${what} failed:\n${log}")
  endif()
  file(READ "${WORK_DIR}/eval.json" eval)
  set(log "${log}" PARENT_SCOPE)
  set(eval "${eval}" PARENT_SCOPE)
endfunction()

# The bench records each side's options and says where they differ.
run_bench(scale "${card}" "sides call LIBRARIES and their own libraries")
# Each language's options as a list, one entry an option.
function(side_options side out)
  string(JSON count LENGTH "${eval}" build ${side}_options CXX)
  set(options "")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON option GET "${eval}" build ${side}_options CXX ${i})
    list(APPEND options "${option}")
  endforeach()
  set(${out} "${options}" PARENT_SCOPE)
endfunction()
side_options(student student_options)
side_options(reference reference_options)
if(NOT "-DSTUDENT_NOTE=\"a b\"" IN_LIST student_options OR "-DSTUDENT_NOTE=\"a b\"" IN_LIST reference_options)
  fail("the student's own option, quotes and all, is the student's alone: ${student_options} / ${reference_options}")
endif()
if(NOT "-fno-trapping-math" IN_LIST reference_options OR "-fno-trapping-math" IN_LIST student_options)
  fail("the reference's library's option is the reference's alone: ${reference_options} / ${student_options}")
endif()
if(NOT "-fno-signed-zeros" IN_LIST student_options OR "-fno-signed-zeros" IN_LIST reference_options)
  fail("the student's library's option is the student's alone: ${student_options} / ${reference_options}")
endif()
expect_match("${log}" "notice: the sides were compiled with different options [^\n]*: the student alone has -DSTUDENT_NOTE=\"a b\" \\(CXX\\), -fno-signed-zeros \\(CXX\\); the reference alone has -fno-trapping-math \\(CXX\\)"
  "the notice names each side's own options")

# The headers-only reference compiles in the bench without the student's library's option.
run_bench(scale_inline "${inline_card}" "reference is made of headers")
side_options(student student_options)
side_options(reference reference_options)
if(NOT "-fno-signed-zeros" IN_LIST student_options OR "-fno-signed-zeros" IN_LIST reference_options)
  fail("the student's library's option reached the reference made of headers in the bench: "
    "${student_options} / ${reference_options}")
endif()
expect_match("${log}" "the student alone has -fno-signed-zeros \\(CXX\\)" "the notice names the student's option")

# The student calls the reference's library: the bench's link refuses it, saying
# so in words, naming the symbol, the student's object and the library (its
# file and its name in REFERENCE_LIBRARIES) and the fix, with no target of its own.
write_side(student vendor)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a student that calls a REFERENCE_LIBRARIES library built:\n${log}")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${log}")  # CMake wraps the message's lines
expect_match("${flat}" "forge_add_operator\\(scale\\): the student calls a library given to the reference only \\(REFERENCE_LIBRARIES\\)"
  "the student's check says what the student did")
expect_match("${log}" "student\\.cpp\\.o: undefined reference to `vendor_twice\\(float\\)', defined only by libvendor\\.a \\(REFERENCE_LIBRARIES vendor\\)"
  "the check names the reference's symbol, the object and the library")
expect_match("${flat}" "To give vendor to both sides, move it from REFERENCE_LIBRARIES to LIBRARIES; else make the student stop calling it\\."
  "the check says how to fix it")
file(READ "${build}/build.ninja" ninja)
expect_no_match("${ninja}" "build forge_scale_student_link_check" "a card whose libraries are files or targets")

# ... or the reference's own code, declared by hand.
file(WRITE "${card}/student/student.cpp" "#include \"student.hpp\"

namespace reference {
void scale(const float* x, float* y, std::int64_t n);
}

namespace student {
void scale(const float* x, float* y, std::int64_t n) { reference::scale(x, y, n); }
}  // namespace student
")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a student that calls the reference's code built:\n${log}")
endif()
expect_match("${log}" "student\\.cpp\\.o: undefined reference to `reference::scale\\([^\n]*', defined only by the reference \\(reference\\.cpp\\.o\\)"
  "the check names the reference's function and its object")

# A library the linker finds by name cannot be read as a file: that card's
# student is linked on its own instead (forge_<name>_student_link_check).
write_consumer("${source}" [=[
add_library(shared STATIC libs/shared.cpp)
add_library(vendor STATIC libs/vendor.cpp)
add_library(mine STATIC libs/mine.cpp)
forge_add_operator(scale BACKEND HOST
  LIBRARIES shared REFERENCE_LIBRARIES vendor rt STUDENT_LIBRARIES mine late_headers)
add_library(late_headers INTERFACE)
target_include_directories(late_headers INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/libs/late")
target_compile_definitions(forge_scale_reference PRIVATE side_kernel=reference_side_kernel)
target_compile_definitions(forge_scale_student PRIVATE side_kernel=student_side_kernel)
]=])
write_side(student vendor)
configure_ok("${source}" "${build}")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a student that calls a REFERENCE_LIBRARIES library built (REFERENCE_LIBRARIES by name):\n${log}")
endif()
expect_match("${log}" "forge_scale_student_link_check" "the student's link check fails")
expect_match("${log}" "undefined reference to [^\n]*vendor_twice" "the link names the reference's symbol")
# ... and says so in words, naming the symbol, the library (its file and its
# name in REFERENCE_LIBRARIES) and the fix.
string(REGEX REPLACE "[ \n]+" " " flat "${log}")  # CMake wraps the message's lines
expect_match("${flat}" "forge_add_operator\\(scale\\): the student calls a library given to the reference only \\(REFERENCE_LIBRARIES\\)"
  "the student's link check says what the student did")
expect_match("${log}" "undefined reference to `vendor_twice\\(float\\)', defined only by libvendor\\.a \\(REFERENCE_LIBRARIES vendor\\)"
  "the link check names the reference's symbol and the library")
expect_match("${flat}" "To give vendor to both sides, move it from REFERENCE_LIBRARIES to LIBRARIES; else make the student stop calling it\\."
  "the link check says how to fix it")

# A library given by name is looked for where the linker looks (here a -L
# directory), so the link check names it too.
file(WRITE "${source}/libs/byname.cpp" "float byname_twice(float x) { return 2.0f * x; }\n")
write_consumer("${source}" [=[
link_directories("${CMAKE_BINARY_DIR}/byname")
add_library(shared STATIC libs/shared.cpp)
add_library(vendor STATIC libs/vendor.cpp)
add_library(mine STATIC libs/mine.cpp)
add_library(byname STATIC libs/byname.cpp)  # used by name only
set_target_properties(byname PROPERTIES ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/byname")
forge_add_operator(scale BACKEND HOST
  LIBRARIES shared REFERENCE_LIBRARIES vendor -lbyname STUDENT_LIBRARIES mine late_headers)
add_library(late_headers INTERFACE)
target_include_directories(late_headers INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/libs/late")
target_compile_definitions(forge_scale_reference PRIVATE side_kernel=reference_side_kernel)
target_compile_definitions(forge_scale_student PRIVATE side_kernel=student_side_kernel)
]=])
write_side(student byname)
configure_ok("${source}" "${build}")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target byname
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("the library used by name did not build:\n${log}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a student that calls a REFERENCE_LIBRARIES library given by name built:\n${log}")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${log}")
expect_match("${flat}" "the student calls a library given to the reference only \\(REFERENCE_LIBRARIES\\)"
  "the link check of a library given by name says what the student did")
expect_match("${log}" "undefined reference to `byname_twice\\(float\\)', defined only by libbyname\\.a \\(REFERENCE_LIBRARIES -lbyname\\)"
  "the link check names the symbol and the library found by name")

write_side(student mine)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("a student that calls its own library did not build (REFERENCE_LIBRARIES by name):\n${log}")
endif()
