# The prep step may use the reference, never the student: including a student
# file is refused at configure time (prep-uses-student), and calling student
# code without its header fails the build, because the prep step's objects
# must link on their own without the student.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
set(card "${source}/scale")
set(build "${WORK_DIR}/build")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)")
configure_consumer("${source}" "${build}" result log)  # scaffolds
# `x2` reaches both timed calls from a prep step (entry at line 13).
file(WRITE "${card}/window.toml" [=[
schema_version = 1

[reference]
inputs = ["x", "x2"]
outputs = ["y"]

[student]
inputs = ["x", "x2"]
outputs = ["y"]

# x2 = x * x, made outside every timed window

[[asymmetry]]
ref_input = "x2"
class = "symmetrize"
produced_by = "prep"
derived_from = "x"
shape = [4]
dtype = "fp32"
]=])

# A prep step that includes the student's header (line 3), after the same
# include commented out (line 2): the finding names the real one.
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST PREP prep/prep.cpp prep/prep.hpp)")
file(WRITE "${card}/prep/prep.cpp" "#include \"prep.hpp\"\n// #include \"../student/student.hpp\"\n  #include \"../student/student.hpp\"\n\nnamespace prep {\nvoid scale(forge::bench::PrepIo&) {}\n}\n")
configure_consumer("${source}" "${build}" result log)
if(result EQUAL 0)
  fail("configure accepted a prep step that includes the student:\n${log}")
endif()
expect_match("${log}" "${card}/prep/prep.cpp:3:3: error\\[prep-uses-student\\]: [^\n]*student\\.hpp" "prep-uses-student")
expect_no_match("${log}" "prep\\.cpp:2:" "the commented-out include")
expect_no_match("${log}" "prep-step-missing" "the card has a prep step now")

# A header beside the student's sources that STUDENT does not list, reached by
# a relative path: the student's all the same.
file(WRITE "${card}/student/q8_util.h" "#pragma once\ninline float q8_scale() { return 1.0F; }\n")
file(WRITE "${card}/prep/prep.cpp" "#include \"prep.hpp\"\n#include \"../student/q8_util.h\"\n\nnamespace prep {\nvoid scale(forge::bench::PrepIo&) {}\n}\n")
configure_consumer("${source}" "${build}" result log)
if(result EQUAL 0)
  fail("configure accepted a prep step that includes a header from the student's directory:\n${log}")
endif()
expect_match("${log}" "${card}/prep/prep.cpp:2:1: error\\[prep-uses-student\\]: [^\n]*q8_util\\.h" "prep-uses-student")
file(REMOVE "${card}/student/q8_util.h")

# A prep step that uses the reference links on its own ... An include of the
# student inside a comment or a string is no include.
file(WRITE "${card}/prep/prep.cpp" [=[
#include "prep.hpp"
#include "reference.hpp"
// #include "student.hpp"
/* Not the student's:
#include "../student/student.hpp"
*/
[[maybe_unused]] static const char* const not_included = "#include <student.hpp>";

namespace prep {
void scale(forge::bench::PrepIo& io) {
    const forge::bench::Tensor& x = io.in("x");
    forge::bench::Tensor& x2 = io.out("x2", x.shape(), forge::bench::DType::fp32);
    reference::scale(x.data<float>(), x2.data<float>(), x.numel());
}
}  // namespace prep
]=])
configure_consumer("${source}" "${build}" result log)
if(NOT result EQUAL 0)
  fail("configure refused a prep step that names the student only in comments and strings:\n${log}")
endif()
expect_no_match("${log}" "prep-uses-student" "includes in comments and strings")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("a prep step that uses only the reference did not link:\n${log}")
endif()

# ... one that calls the student (declared by hand, no include) does not.
file(WRITE "${card}/prep/prep.cpp" [=[
#include <cstdint>

#include "prep.hpp"

namespace student {
void scale(const float* x, float* y, std::int64_t n);
}

namespace prep {
void scale(forge::bench::PrepIo& io) {
    const forge::bench::Tensor& x = io.in("x");
    forge::bench::Tensor& x2 = io.out("x2", x.shape(), forge::bench::DType::fp32);
    student::scale(x.data<float>(), x2.data<float>(), x.numel());
}
}  // namespace prep
]=])
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a prep step that calls the student's code linked:\n${log}")
endif()
expect_match("${log}" "forge_add_operator\\(scale\\): the prep step does not link on its own" "the prep step's check")
expect_match("${log}" "prep\\.cpp\\.o: undefined reference to `student::scale\\([^\n]*', defined only by the student \\(student\\.cpp\\.o\\)"
  "the check names the student's symbol, the prep step's object and the student's")

# ... nor one that calls a library given to the student only: the check says so
# in words, naming the symbol, the library (its file and its STUDENT_LIBRARIES
# name) and the fix.
file(WRITE "${source}/mine.cpp" "float mine_twice(float x) { return x * 2.0f; }\n")
write_consumer("${source}" "add_library(mine STATIC mine.cpp)
forge_add_operator(scale BACKEND HOST PREP prep/prep.cpp prep/prep.hpp STUDENT_LIBRARIES mine)")
file(WRITE "${card}/prep/prep.cpp" [=[
#include "prep.hpp"

float mine_twice(float x);

namespace prep {
void scale(forge::bench::PrepIo& io) {
    const forge::bench::Tensor& x = io.in("x");
    forge::bench::Tensor& x2 = io.out("x2", x.shape(), forge::bench::DType::fp32);
    x2.data<float>()[0] = mine_twice(x.data<float>()[0]);
}
}  // namespace prep
]=])
configure_ok("${source}" "${build}")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_scale_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a prep step that calls a STUDENT_LIBRARIES library linked:\n${log}")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${log}")  # CMake wraps the message's lines
expect_match("${flat}" "forge_add_operator\\(scale\\): the prep step calls a library given to the student only \\(STUDENT_LIBRARIES\\)"
  "the prep step's check says what the prep step did")
expect_match("${log}" "prep\\.cpp\\.o: undefined reference to `mine_twice\\(float\\)', defined only by libmine\\.a \\(STUDENT_LIBRARIES mine\\)"
  "the check names the student's library, its file and its name")
expect_match("${flat}" "To give mine to both sides, move it from STUDENT_LIBRARIES to LIBRARIES; else make the prep step stop calling it\\."
  "the check says how to fix it")
