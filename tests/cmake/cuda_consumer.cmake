# The example card operators-example/sgemm_cuda (a cuBLAS reference whose
# handle and workspace come from its untimed setup, cuBLAS given to the
# reference alone, against the team's own tiled kernel), copied into a project
# of one's own against the installed package with the CUDA harness, and built
# for sm_90 on a machine without a GPU. The bench builds; its student is
# compiled for sm_90 only, may not use cuBLAS, and the bench records its
# architectures.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
if(NOT CUDA_COMPILER OR NOT FORGE_CUDA)
  fail("needs nvcc and the package's CUDA harness: register it only in a FORGE_ENABLE_CUDA build")
endif()

set(source "${WORK_DIR}/kernels")
file(REMOVE_RECURSE "${source}")
file(MAKE_DIRECTORY "${source}")
file(COPY "${FORGE_SOURCE_DIR}/operators-example/sgemm_cuda" DESTINATION "${source}")
file(RENAME "${source}/sgemm_cuda" "${source}/sgemm")
write_consumer("${source}" [=[
forge_add_operator(sgemm BACKEND CUDA REFERENCE_LIBRARIES CUDA::cublas)
]=] LANGUAGES CXX CUDA)

set(build "${WORK_DIR}/build")
set(CONSUMER_CUDA_ARCHITECTURES 90)
configure_consumer("${source}" "${build}" result log -DCMAKE_BUILD_TYPE=Release)
if(NOT result EQUAL 0)
  fail("configure failed:\n${log}")
endif()
expect_no_match("${log}" "CMAKE_CUDA_ARCHITECTURES was not set" "a project that chose sm_90")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_sgemm_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("the bench did not build:\n${log}")
endif()

file(READ "${build}/build.ninja" ninja)
string(REGEX MATCH "build [^\n]*forge_sgemm_student\\.dir[^\n]*student\\.cu\\.o:[^\n]*\n( [^\n]*\n)*" student "${ninja}")
expect_match("${student}" "arch=compute_90,code=\\[compute_90,sm_90\\]" "the student is compiled for sm_90")
expect_no_match("${student}" "sm_(75|80)" "the student, for sm_90 only")
# The bench links the reference's cuBLAS; its link first checks the student
# against cuBLAS's file, the reference's alone (no link check target of its own).
string(REGEX MATCH "build forge_sgemm_bench:[^\n]*\n( [^\n]*\n)*" bench "${ninja}")
expect_match("${bench}" "LINK_LIBRARIES[^\n]*cublas" "the bench links the reference's cuBLAS")
expect_match("${bench}" "PRE_LINK[^\n]*ForgeSideSymbols\\.cmake" "the bench's link checks the sides")
expect_match("${bench}" "-DREFERENCE_LIBRARIES_0=[^ ]*libcublas" "the check reads cuBLAS's file as the reference's")
expect_match("${bench}" "-DREFERENCE_LIBRARIES=CUDA::cublas" "the check names cuBLAS as the user wrote it")
expect_no_match("${bench}" "-DSTUDENT_LIBRARIES[_0-9]*=[^ ]*cublas" "the student's libraries")
expect_no_match("${ninja}" "build forge_sgemm_student_link_check" "a card whose libraries are targets")
expect_match("${ninja}" "FORGE_BENCH_CUDA_ARCHITECTURES=\\\\\"90\\\\\"" "the bench records sm_90")
