# A CUDA card against a ForgeKernel whose forge::bench has no CUDA backend is
# refused at configure time, before anything is written, saying how to get the
# CUDA harness: the installed package's (tools/install ... -DFORGE_ENABLE_CUDA=ON)
# or a source build's (-DFORGE_ENABLE_CUDA=ON). BACKEND CUDA and the CUDA default
# of a project that enables CUDA alike; BACKEND HOST still configures.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
if(NOT CUDA_COMPILER)
  fail("needs nvcc (CUDA_COMPILER): register it only where CMake finds one")
endif()

set(source "${WORK_DIR}/project/consumer")
set(build "${WORK_DIR}/build")
if(MODE STREQUAL "installed")
  set(fix "tools/install <prefix> -DFORGE_ENABLE_CUDA=ON -DCMAKE_CUDA_COMPILER=")
  set(where "the ForgeKernel package found at [^\n]* was built without the CUDA harness")
else()
  set(fix "Configure with -DFORGE_ENABLE_CUDA=ON")
  set(where "ForgeKernel is built here without the CUDA harness")
endif()
foreach(case IN ITEMS "BACKEND CUDA|BACKEND CUDA" "|this project enables the CUDA language, so the card's backend is CUDA")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 arguments)
  list(GET case 1 why)
  write_consumer("${source}" "forge_add_operator(scale ${arguments})" LANGUAGES CXX CUDA)
  snapshot("${WORK_DIR}/project" before)
  # The same build directory each time: nvcc is identified once.
  configure_consumer("${source}" "${build}" result log -DFORGE_ENABLE_CUDA=OFF)
  snapshot("${WORK_DIR}/project" after)
  if(result EQUAL 0)
    fail("configure accepted forge_add_operator(scale ${arguments}) without the CUDA harness:\n${log}")
  endif()
  string(REGEX REPLACE "\n *" " " log "${log}")  # CMake wraps the message
  expect_match("${log}" "forge_add_operator\\(scale\\): ${why}, but ${where}" "the refusal says why")
  string(REGEX REPLACE "([][().*+?^$\\\\])" "\\\\\\1" fix "${fix}")
  expect_match("${log}" "${fix}" "the refusal says how to get the CUDA harness")
  if(NOT before STREQUAL after)
    fail("forge_add_operator(scale ${arguments}) wrote files before refusing")
  endif()
endforeach()

# A HOST card in the same CUDA project is no CUDA card: it goes on to the contract.
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)" LANGUAGES CXX CUDA)
configure_consumer("${source}" "${build}" result log -DFORGE_ENABLE_CUDA=OFF)
expect_no_match("${log}" "without the CUDA harness" "a HOST card")
expect_match("${log}" "scale/window.toml:[0-9]+:[0-9]+: error\\[list-empty\\]" "the HOST card's placeholder contract")
