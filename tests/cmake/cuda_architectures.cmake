# The CUDA architectures of a CUDA card: a project that chose none is built
# for the GPUs found at configure time, or, with none here, for nvcc's default
# with a warning that says how to choose; a project that chose keeps its
# choice, without a warning. The bench is compiled with what its target ends
# up with (FORGE_BENCH_CUDA_ARCHITECTURES, for eval.json and the notice of a
# GPU without native code), `native` resolved to the GPUs found.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
if(NOT CUDA_COMPILER OR NOT FORGE_CUDA)
  fail("needs nvcc and the package's CUDA harness: register it only in a FORGE_ENABLE_CUDA build")
endif()

set(source "${WORK_DIR}/consumer")
set(build "${WORK_DIR}/build")
# The GPUs here, as the configure will find them.
set(gpus "")
find_program(nvidia_smi nvidia-smi)
if(nvidia_smi)
  execute_process(COMMAND "${nvidia_smi}" --query-gpu=compute_cap --format=csv,noheader
    RESULT_VARIABLE result OUTPUT_VARIABLE gpus ERROR_QUIET)
  if(NOT result EQUAL 0)
    set(gpus "")
  endif()
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" gpus "${gpus}")
endif()
# `pinned` sets its bench's architectures itself, after the call: `native`
# where there is a GPU (CMake refuses it without one), else `all-major`.
set(pinned all-major)
if(gpus)
  set(pinned native)
endif()
write_consumer("${source}" "
forge_add_operator(scale)
forge_add_operator(pinned)
set_target_properties(forge_pinned_bench PROPERTIES CUDA_ARCHITECTURES ${pinned})
" LANGUAGES CXX CUDA)

# A definition's value in build.ninja: \"80\", or "\"80;90\"" when it holds a `;`.
set(open "=\"?\\\\\"")
set(close "\\\\\"")

# Nothing chosen (one build directory throughout: nvcc is identified once).
set(CONSUMER_CUDA_ARCHITECTURES "")
configure_consumer("${source}" "${build}" result log)  # scaffolds, then refuses
declare_placeholder("${source}/scale")
declare_placeholder("${source}/pinned")
configure_consumer("${source}" "${build}" result log)
if(NOT result EQUAL 0)
  fail("configure without CMAKE_CUDA_ARCHITECTURES failed:\n${log}")
endif()
string(REGEX REPLACE "\n *" " " flat "${log}")
file(READ "${build}/build.ninja" ninja)
if(gpus)
  list(GET gpus 0 gpu)
  string(REPLACE "." "" gpu "${gpu}")
  expect_match("${flat}" "ForgeKernel: CUDA cards built for [^ ]*${gpu}-real" "the GPUs found here")
  expect_no_match("${flat}" "CMAKE_CUDA_ARCHITECTURES was not set and no GPU" "a machine with a GPU")
  expect_match("${ninja}" "code=\\[?sm_${gpu}" "the student is compiled for this machine's GPU")
else()
  file(STRINGS "${build}/CMakeCache.txt" default REGEX "^CMAKE_CUDA_ARCHITECTURES:")
  string(REGEX REPLACE "^[^=]*=" "" default "${default}")
  expect_match("${flat}" "CMAKE_CUDA_ARCHITECTURES was not set and no GPU was found here, so the CUDA cards of this build are compiled for nvcc's default, ${default}, only"
    "the warning names the default")
  expect_match("${flat}" "-DCMAKE_CUDA_ARCHITECTURES=90 \\(H100, H200\\)" "the warning says how to choose")
  string(REGEX MATCHALL "given once, for every CUDA card" once "${flat}")
  list(LENGTH once count)
  if(NOT count EQUAL 1)
    fail("the warning was given ${count} times for two CUDA cards:\n${log}")
  endif()
  expect_match("${ninja}" "FORGE_BENCH_CUDA_ARCHITECTURES${open}${default}${close}" "the bench records nvcc's default")
endif()

# Chosen on the command line: followed, no warning, recorded as one list.
set(CONSUMER_CUDA_ARCHITECTURES "80-real;90")
configure_consumer("${source}" "${build}" result log)
if(NOT result EQUAL 0)
  fail("configure with CMAKE_CUDA_ARCHITECTURES failed:\n${log}")
endif()
expect_no_match("${log}" "CMAKE_CUDA_ARCHITECTURES was not set" "a chosen list")
expect_no_match("${log}" "ForgeKernel: CUDA cards built for" "a chosen list")
file(READ "${build}/build.ninja" ninja)
string(REGEX MATCH "build [^\n]*forge_scale_student\\.dir[^\n]*student\\.cu\\.o:[^\n]*\n( [^\n]*\n)*" student "${ninja}")
expect_match("${student}" "arch=compute_80,code=\\[?sm_80\\]?" "the student's sm_80 SASS")
expect_match("${student}" "arch=compute_90,code=\\[compute_90,sm_90\\]" "the student's sm_90 SASS and PTX")
expect_no_match("${student}" "sm_75" "the student, built for the chosen list only")
expect_match("${ninja}" "FORGE_BENCH_CUDA_ARCHITECTURES${open}80-real;90${close}" "the bench records the chosen list")
# The pinned bench's own property: `native` resolved to this machine's GPUs,
# `all-major` as nvcc takes it.
if(gpus)
  expect_match("${ninja}" "FORGE_BENCH_CUDA_ARCHITECTURES${open}([0-9]+-real;)*${gpu}-real${close}" "native, resolved")
else()
  expect_match("${ninja}" "FORGE_BENCH_CUDA_ARCHITECTURES${open}all-major${close}" "the bench's own all-major")
endif()
